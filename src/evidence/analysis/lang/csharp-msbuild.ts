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
 *   https://learn.microsoft.com/dotnet/core/project-sdk/overview#implicit-using-directives), and of
 *   the project's SDK when it adds more ({@link SDK_IMPLICIT_USINGS}: `Microsoft.NET.Sdk.Web` and
 *   `Microsoft.NET.Sdk.Worker`, same page); the SDK is the one a project file names in
 *   `<Project Sdk="…">`, `<Sdk Name="…" />` or `<Import … Sdk="…" />` (a `/version` suffix is
 *   dropped). The last `ImplicitUsings` value in evaluation order wins (a project turns off what its
 *   `Directory.Build.props` turned on).
 * - `<Using Remove="N" />` takes `N` out, whichever file adds it (the documented way to drop one
 *   implicit using).
 * - Conditions (`Condition="…"` on an item or its group) are not evaluated: every item counts.
 * - XML comments are skipped.
 */

/** The implicit global usings of `Microsoft.NET.Sdk` projects with `ImplicitUsings` on. */
const IMPLICIT_USINGS: readonly string[] = ["System", "System.Collections.Generic", "System.IO", "System.Linq", "System.Net.Http", "System.Threading", "System.Threading.Tasks"];

/**
 * The implicit global usings an SDK adds to {@link IMPLICIT_USINGS} (the table of
 * https://learn.microsoft.com/dotnet/core/project-sdk/overview#implicit-using-directives).
 */
const SDK_IMPLICIT_USINGS: Readonly<Record<string, readonly string[]>> = {
  "microsoft.net.sdk.web": [
    "System.Net.Http.Json", "Microsoft.AspNetCore.Builder", "Microsoft.AspNetCore.Hosting", "Microsoft.AspNetCore.Http",
    "Microsoft.AspNetCore.Routing", "Microsoft.Extensions.Configuration", "Microsoft.Extensions.DependencyInjection",
    "Microsoft.Extensions.Hosting", "Microsoft.Extensions.Logging",
  ],
  "microsoft.net.sdk.worker": ["Microsoft.Extensions.Configuration", "Microsoft.Extensions.DependencyInjection", "Microsoft.Extensions.Hosting", "Microsoft.Extensions.Logging"],
};

/** Most `<Using>` namespaces recorded per project (a project lists a few dozen at most). */
const MAX_PROJECT_USINGS = 256;

/** A namespace name as written in a `using` directive (`A.B.C`); anything else is not read. */
const NAMESPACE = /^@?[A-Za-z_][\w]*(?:\.@?[A-Za-z_][\w]*)*$/;

/**
 * The attributes of one start tag's attribute text (`Include="A" Static='true'` → Include → A,
 * Static → true). A name is matched from its first character only (the look-behind): tried from
 * every character of a long word, the match read the rest of the word each time (64 KB: 3.5 s).
 */
function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/(?<![\w:.-])([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out.set((m[1] as string).toLowerCase(), (m[2] ?? m[3] ?? "").trim());
  return out;
}

/** One item {@link items} reads: an `ImplicitUsings` value, or the attribute text of a `Using` start tag or of one that may name an SDK. */
interface MsbuildItem {
  implicit?: string;
  using?: string;
  sdk?: string;
}

/**
 * The `<ImplicitUsings>value</ImplicitUsings>` elements and `<Using …>` start tags of `text`
 * (comments removed), in order. Linear in the text: each opener's value is read up to the next `<`
 * and its tag up to the next `<` or `>`, which neither may hold (XML escapes `<` in text and both in
 * attribute values), so no text is read again from a later opener. The one regular expression that read a `Using` tag up to its `>` read the
 * rest of the file from every `<Using` of a file that has no `>`: 64 KB took 40 s.
 */
function* items(text: string): Generator<MsbuildItem> {
  const opener = /<(?:(ImplicitUsings)\s*>|(Using)\b|(?:Project|Sdk|Import)\b)/g;
  const closer = /<\/ImplicitUsings\s*>/y;
  const edge = /[<>]/g;
  for (let m = opener.exec(text); m !== null; m = opener.exec(text)) {
    if (m[1] !== undefined) {
      const lt = text.indexOf("<", opener.lastIndex);
      closer.lastIndex = lt;
      if (lt >= 0 && closer.test(text)) yield { implicit: text.slice(opener.lastIndex, lt).trim() };
      continue;
    }
    edge.lastIndex = opener.lastIndex;
    const end = edge.exec(text);
    if (end?.[0] !== ">") continue;
    const tag = text.slice(opener.lastIndex, end.index);
    yield m[2] !== undefined ? { using: tag } : { sdk: tag };
  }
}

/**
 * The namespaces the MSBuild files `texts` (in evaluation order: `Directory.Build.props`, the
 * project files, `Directory.Build.targets`) make global usings of, each once, in order (rules in
 * the module comment). Never throws.
 */
export function projectUsings(texts: readonly string[]): string[] {
  let implicit = false;
  const sdks = new Set<string>();
  const included: string[] = [];
  const removed = new Set<string>();
  for (const raw of texts) {
    const text = raw.replace(/<!--[\s\S]*?(?:-->|$)/g, " ");
    for (const m of items(text)) {
      if (m.implicit !== undefined) {
        implicit = /^(?:enable|true)$/i.test(m.implicit);
        continue;
      }
      if (m.sdk !== undefined) {
        const a = attributes(m.sdk);
        for (const name of (a.get("sdk") ?? a.get("name") ?? "").split(";")) sdks.add(name.trim().replace(/\/.*$/, "").toLowerCase());
        continue;
      }
      const attrs = attributes(m.using as string);
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
  const sdkUsings = implicit ? [...sdks].flatMap((sdk) => SDK_IMPLICIT_USINGS[sdk] ?? []) : [];
  return [...new Set([...(implicit ? IMPLICIT_USINGS : []), ...sdkUsings, ...included])].filter((ns) => !removed.has(ns));
}
