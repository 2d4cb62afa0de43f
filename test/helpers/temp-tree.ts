/**
 * Throw-away file trees for the evidence tests: a fresh temporary folder (by its real path, so
 * that the Workspace's realpath containment checks compare like with like) and a writer that
 * creates the parent folders of a file.
 */
import { mkdirSync, mkdtempSync, realpathSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Creates an empty folder under the OS temporary folder.
 *
 * @param prefix - name prefix, e.g. `"codecite-read-"` (mkdtemp appends six random characters).
 * @returns the folder's real path (symlinks such as macOS `/var` → `/private/var` resolved).
 *   The caller removes it (`rmSync(dir, { recursive: true, force: true })`).
 */
export function makeTempDir(prefix: string): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
}

/**
 * Writes `content` to `root/rel`, creating the missing parent folders; an existing file is
 * overwritten.
 *
 * @param root - absolute folder.
 * @param rel - '/'-separated path below `root`.
 * @param content - text (written as UTF-8) or raw bytes.
 */
export function putFile(root: string, rel: string, content: string | Buffer): void {
  const abs = path.join(root, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, content);
}

/** A modification time well in the past (2021-01-01 UTC), outside the fact cache's racy window. */
export const PAST = new Date(Date.UTC(2021, 0, 1));

/**
 * {@link putFile}, then sets the file's access and modification times to `mtime` (default
 * {@link PAST}, so the fact cache trusts its stat at once); `null` leaves the times as written.
 */
export function putDatedFile(root: string, rel: string, content: string | Buffer, mtime: Date | null = PAST): void {
  putFile(root, rel, content);
  if (mtime !== null) utimesSync(path.join(root, rel), mtime, mtime);
}
