/**
 * `find_importers` against hand-checked truth on a real repository (`ground-truth/<lang>-<repo>-importers.json`:
 * query file → `path:line` of every statement importing it). Runs when the checkout is named in
 * the environment at the truth's commit: `CODECITE_GT_RUBY_RACK=/src/rack` (rack/rack),
 * `CODECITE_GT_RUBY_RAKE=/src/rake` (ruby/rake), `CODECITE_GT_RUBY_SINATRA` (sinatra/sinatra),
 * `CODECITE_GT_PHP_SLIM=/src/Slim` (slimphp/Slim), `CODECITE_GT_PHP_CONSOLE` (symfony/console), `CODECITE_GT_PHP_GUZZLE` (guzzle/guzzle), `CODECITE_GT_CSHARP_MEDIATR` (jbogard/MediatR),
 * `CODECITE_GT_CSHARP_NEWTONSOFT` (JamesNK/Newtonsoft.Json), `CODECITE_GT_CSHARP_DAPPER` (DapperLib/Dapper),
 * `CODECITE_GT_KOTLIN_KOTLINPOET` (square/kotlinpoet), `CODECITE_GT_KOTLIN_MOSHI` (square/moshi), `CODECITE_GT_KOTLIN_EXPOSED` (JetBrains/Exposed, star imports),
 * `CODECITE_GT_RUBY_JEKYLL` (jekyll/jekyll), `CODECITE_GT_PHP_DOCTRINE_ORM` (doctrine/orm, its `git archive`: src/ only),
 * `CODECITE_GT_CSHARP_CLEANARCHITECTURE` (jasontaylordev/CleanArchitecture), `CODECITE_GT_KOTLIN_ARROW` (arrow-kt/arrow), `CODECITE_GT_SWIFT_ARGUMENTPARSER`
 * (apple/swift-argument-parser), `CODECITE_GT_SWIFT_NIO` (apple/swift-nio), `CODECITE_GT_SWIFT_ALAMOFIRE` (Alamofire/Alamofire), `CODECITE_GT_SWIFT_LOG`
 * (apple/swift-log: nested packages with `path:` targets), `CODECITE_GT_SWIFT_NIMBLE` (Quick/Nimble). Precision and recall on any checkout:
 * `ground-truth-importers-score.ts`.
 */
import { describe, expect, it } from "vitest";
import { readTruth, scoreImporters } from "./ground-truth-importers-score.js";

const suites: { env: string; file: string }[] = [
  { env: "CODECITE_GT_RUBY_RACK", file: "ruby-rack-importers.json" },
  { env: "CODECITE_GT_RUBY_RAKE", file: "ruby-rake-importers.json" },
  { env: "CODECITE_GT_RUBY_SINATRA", file: "ruby-sinatra-importers.json" },
  { env: "CODECITE_GT_RUBY_JEKYLL", file: "ruby-jekyll-importers.json" },
  { env: "CODECITE_GT_PHP_SLIM", file: "php-slim-importers.json" },
  { env: "CODECITE_GT_PHP_CONSOLE", file: "php-console-importers.json" },
  { env: "CODECITE_GT_PHP_GUZZLE", file: "php-guzzle-importers.json" },
  { env: "CODECITE_GT_PHP_DOCTRINE_ORM", file: "php-doctrine-orm-importers.json" },
  { env: "CODECITE_GT_CSHARP_MEDIATR", file: "csharp-mediatr-importers.json" },
  { env: "CODECITE_GT_CSHARP_NEWTONSOFT", file: "csharp-newtonsoft-importers.json" },
  { env: "CODECITE_GT_CSHARP_DAPPER", file: "csharp-dapper-importers.json" },
  { env: "CODECITE_GT_CSHARP_CLEANARCHITECTURE", file: "csharp-cleanarchitecture-importers.json" },
  { env: "CODECITE_GT_KOTLIN_KOTLINPOET", file: "kotlin-kotlinpoet-importers.json" },
  { env: "CODECITE_GT_KOTLIN_MOSHI", file: "kotlin-moshi-importers.json" },
  { env: "CODECITE_GT_KOTLIN_EXPOSED", file: "kotlin-exposed-importers.json" },
  { env: "CODECITE_GT_KOTLIN_ARROW", file: "kotlin-arrow-importers.json" },
  { env: "CODECITE_GT_SWIFT_ARGUMENTPARSER", file: "swift-argumentparser-importers.json" },
  { env: "CODECITE_GT_SWIFT_NIO", file: "swift-nio-importers.json" },
  { env: "CODECITE_GT_SWIFT_ALAMOFIRE", file: "swift-alamofire-importers.json" },
  { env: "CODECITE_GT_SWIFT_LOG", file: "swift-log-importers.json" },
  { env: "CODECITE_GT_SWIFT_NIMBLE", file: "swift-nimble-importers.json" },
];

for (const { env, file } of suites) {
  const root = process.env[env];
  describe.skipIf(root === undefined || root === "")(`find_importers vs ${file}`, () => {
    const truth = readTruth(new URL(`./ground-truth/${file}`, import.meta.url).pathname);
    it(`${truth.repository}: every query's importers, exactly`, async () => {
      const score = await scoreImporters(root as string, truth);
      const diffs = score.queries.filter((q) => q.onlyOurs.length + q.onlyTruth.length > 0).map((q) => `${q.query}: missing ${q.onlyTruth.join(" ")} extra ${q.onlyOurs.join(" ")}`);
      expect(diffs).toEqual([]);
      expect(score.truth).toBe(Object.values(truth.importers).reduce((n, l) => n + l.length, 0));
    }, 600_000);
  });
}
