/**
 * C#: the namespaces an SDK-style project's MSBuild files make global usings of, read from the
 * files' text (no MSBuild evaluation).
 *
 * - `<Using Include="N" />` items (`Include` may list several, `;`-separated) are global usings of
 *   the project (https://learn.microsoft.com/dotnet/core/project-sdk/msbuild-props#using);
 *   `Static="true"` and `Alias="…"` items are left out (a type, or a name that is not `N`), and so is
 *   a value MSBuild has to evaluate (`$(RootNamespace).Models`, `@(…)`, `%(…)`).
 * - `<ImplicitUsings>enable</ImplicitUsings>` (or `true`) adds the implicit global usings of the
 *   `Microsoft.NET.Sdk` set ({@link IMPLICIT_USINGS},
 *   https://learn.microsoft.com/dotnet/core/project-sdk/overview#implicit-using-directives); the last
 *   `ImplicitUsings` value in evaluation order wins (a project turns off what its
 *   `Directory.Build.props` turned on). The extra sets of the Web, Worker and other SDKs are not read.
 * - `<Using Remove="N" />` takes `N` out, whichever file adds it (the documented way to drop one
 *   implicit using).
 * - Conditions (`Condition="…"` on an item or its group) are not evaluated: every item counts.
 * - XML comments are skipped.
 */

/** The implicit global usings of `Microsoft.NET.Sdk` projects with `ImplicitUsings` on. */
const IMPLICIT_USINGS: readonly string[] = ["System", "System.Collections.Generic", "System.IO", "System.Linq", "System.Net.Http", "System.Threading", "System.Threading.Tasks"];

/** Most `<Using>` namespaces recorded per project (a project lists a few dozen at most). */
const MAX_PROJECT_USINGS = 256;

/** A namespace name as written in a `using` directive (`A.B.C`); anything else is not read. */
const NAMESPACE = /^@?[A-Za-z_][\w]*(?:\.@?[A-Za-z_][\w]*)*$/;

/** The attributes of one start tag's attribute text (`Include="A" Static='true'` → Include → A, Static → true). */
function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out.set((m[1] as string).toLowerCase(), (m[2] ?? m[3] ?? "").trim());
  return out;
}

/**
 * The namespaces the MSBuild files `texts` (in evaluation order: `Directory.Build.props`, the
 * project files, `Directory.Build.targets`) make global usings of, each once, in order (rules in
 * the module comment). Never throws.
 */
export function projectUsings(texts: readonly string[]): string[] {
  let implicit = false;
  const included: string[] = [];
  const removed = new Set<string>();
  for (const raw of texts) {
    const text = raw.replace(/<!--[\s\S]*?(?:-->|$)/g, " ");
    for (const m of text.matchAll(/<ImplicitUsings\s*>\s*([^<]*?)\s*<\/ImplicitUsings\s*>|<Using\b([^>]*)>/g)) {
      if (m[1] !== undefined) {
        implicit = /^(?:enable|true)$/i.test(m[1]);
        continue;
      }
      const attrs = attributes(m[2] as string);
      const remove = attrs.get("remove");
      if (remove !== undefined) for (const ns of remove.split(";")) removed.add(ns.trim());
      const include = attrs.get("include");
      if (include === undefined || attrs.has("alias") || /^true$/i.test(attrs.get("static") ?? "")) continue;
      for (const part of include.split(";")) {
        const ns = part.trim().replace(/^global::/, "");
        if (NAMESPACE.test(ns) && included.length < MAX_PROJECT_USINGS) included.push(ns.replace(/@/g, ""));
      }
    }
  }
  return [...new Set([...(implicit ? IMPLICIT_USINGS : []), ...included])].filter((ns) => !removed.has(ns));
}
