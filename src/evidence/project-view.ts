/**
 * A {@link ProjectView} over a {@link Workspace}: the walkable file list (as `listFiles` gives it)
 * and reads of small configuration files through the workspace, so resolvers see exactly what the
 * tools see and never open a file outside the root or on the deny-list.
 */
import type { ProjectView } from "./lang/language.js";
import type { FileEntry, Workspace } from "./workspace.js";

/** Configuration files larger than this are not read by resolvers (bytes). */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Builds a view of `files` (repository-relative, any order; duplicates dropped). `readText`
 * returns `undefined` for a path not in the list, a file over 1 MiB, or any read error.
 */
export function createProjectView(ws: Workspace, files: readonly FileEntry[] | readonly string[]): ProjectView {
  const paths = [...new Set(files.map((f) => (typeof f === "string" ? f : f.path)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const set = new Set(paths);
  const texts = new Map<string, Promise<string | undefined>>();
  return {
    files: paths,
    has: (p) => set.has(p),
    readText(p) {
      if (!set.has(p)) return Promise.resolve(undefined);
      let t = texts.get(p);
      if (t === undefined) {
        t = ws.readText(p).then(
          (f) => (f.size > MAX_CONFIG_BYTES ? undefined : f.text),
          () => undefined,
        );
        texts.set(p, t);
      }
      return t;
    },
  };
}
