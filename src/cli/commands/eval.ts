/**
 * `codecite eval`: writes an exam about the repository at `--root` (or reads one with
 * `--questions`), runs each model × setting through it, and says which model to use.
 *
 * stdout: a summary table and the recommendation, or with `--json` one object
 * `{models, recommendation, results, questions, out}`. stderr: a progress bar (on a terminal,
 * not with `--json`) and the report's path. Files in `--out` (default: a folder per repository
 * under the cache folder): `results.jsonl` (one row per model × setting × question, appended as
 * rows finish; `--resume` reuses rows whose question is unchanged), `questions.jsonl`,
 * `summary.json` and `report.html` (self-contained). Ctrl-C stops after writing the report of
 * the rows finished so far; exit code 130.
 */
import type { Command } from "commander";
import type { EvalProgress, EvalSettings } from "../../eval/index.js";
import { settingsLabel } from "../../eval/score.js";
import { visibleText } from "../../evidence/visible-text.js";
import { UsageError, parseInteger, runAction } from "../output.js";

interface EvalFlags {
  root: string;
  models?: string;
  allInstalled?: boolean;
  provider?: string;
  host?: string;
  numCtx?: string;
  toolshim?: string;
  prefetch?: string;
  questions?: string;
  count?: number;
  seed?: number;
  questionLanguage?: string;
  maxSteps?: number;
  out?: string;
  resume?: boolean;
  json?: boolean;
}

function list(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function bar(p: EvalProgress, width = 24): string {
  const filled = p.total === 0 ? width : Math.round((p.done / p.total) * width);
  const q = p.question.question.length > 50 ? `${p.question.question.slice(0, 49)}…` : p.question.question;
  // Model names come from the model server and questions from repository names: shown escaped.
  return `[${"█".repeat(filled)}${"░".repeat(width - filled)}] ${p.done}/${p.total}  ${visibleText(p.model)} ${settingsLabel(p.settings)}  ${visibleText(q)}`;
}

async function evalCommand(flags: EvalFlags): Promise<void> {
  const json = flags.json === true;
  const [{ resolveConfig, ConfigError }, path, fs, evalLayer, { Workspace, createCodeToolRegistry, repositoryCatalog }, factory, models, output, progressMod, cacheDir] =
    await Promise.all([
      import("../../config.js"),
      import("node:path"),
      import("node:fs"),
      import("../../eval/index.js"),
      import("../../tools/index.js"),
      import("../provider-factory.js"),
      import("../default-model.js"),
      import("../output.js"),
      import("../progress.js"),
      import("../../fact-cache/cache-dir.js"),
    ]);
  const base = resolveConfig(
    {
      ...(flags.provider !== undefined ? { provider: flags.provider } : {}),
      ...(flags.host !== undefined ? { host: flags.host } : {}),
    },
    process.env,
  );
  // Settings grid: every --num-ctx × every --toolshim, each value validated like the single flags.
  const numCtxValues = flags.numCtx !== undefined ? list(flags.numCtx) : [undefined];
  const toolshimValues = flags.toolshim !== undefined ? list(flags.toolshim) : [undefined];
  if (numCtxValues.length === 0) throw new UsageError("--num-ctx needs at least one value, e.g. --num-ctx 8192,16384");
  if (toolshimValues.length === 0) throw new UsageError("--toolshim needs at least one value, e.g. --toolshim auto,on");
  const prefetchValues = list(flags.prefetch ?? "off").map((v) => {
    if (v !== "on" && v !== "off") throw new UsageError(`--prefetch takes on, off or on,off, got ${JSON.stringify(v)}`);
    return v === "on";
  });
  if (prefetchValues.length === 0) throw new UsageError("--prefetch needs at least one value, e.g. --prefetch on,off");
  const settings: EvalSettings[] = [];
  for (const n of numCtxValues) {
    for (const t of toolshimValues) {
      let c;
      try {
        c = resolveConfig({ ...(n !== undefined ? { numCtx: n } : {}), ...(t !== undefined ? { toolshim: t } : {}) }, process.env);
      } catch (err) {
        if (err instanceof ConfigError) throw new UsageError(err.message);
        throw err;
      }
      for (const prefetch of prefetchValues) {
        settings.push(prefetch ? { num_ctx: c.contextTokens ?? 8192, toolshim: c.toolshim, prefetch } : { num_ctx: c.contextTokens ?? 8192, toolshim: c.toolshim });
      }
    }
  }
  const count = flags.count ?? 30;
  if (!Number.isInteger(count) || count < 1 || count > 500) throw new UsageError(`--count must be between 1 and 500, got ${count}`);
  const maxSteps = flags.maxSteps ?? 8;
  if (!Number.isInteger(maxSteps) || maxSteps < 1 || maxSteps > 100) throw new UsageError(`--max-steps must be between 1 and 100, got ${maxSteps}`);
  const language = flags.questionLanguage ?? "en";
  if (language !== "en" && language !== "zh" && language !== "mixed") {
    throw new UsageError(`--question-language must be en, zh or mixed, got ${JSON.stringify(language)}`);
  }
  if (flags.models !== undefined && flags.allInstalled === true) throw new UsageError("use either --models or --all-installed, not both");

  const workspace = await Workspace.open(flags.root);
  const registry = createCodeToolRegistry();
  const provider = await factory.createProvider(base);
  let interpreterProvider: Awaited<ReturnType<typeof factory.createProvider>> | undefined;
  const controller = new AbortController();
  const onSigint = (): void => controller.abort(new Error("interrupted"));
  process.once("SIGINT", onSigint);
  try {
    const errColors = output.colorsFor(process.stderr);
    // Models: --models, else every installed model, else the one `ask` would use.
    let chosen = list(flags.models);
    if (flags.allInstalled === true) {
      if (!provider.listModels) throw new UsageError(`the ${provider.id} provider cannot list its models; name them with --models`);
      chosen = await provider.listModels();
      if (chosen.length === 0) throw new UsageError("no model is installed", "install one, e.g. `ollama pull qwen3:8b`");
    } else if (chosen.length === 0) {
      chosen = [base.model ?? (await models.chooseDefaultModel(provider, base.toolshim)).name];
    } else if (provider.listModels) {
      const installed = await provider.listModels();
      const missing = chosen.filter((m) => !installed.some((i) => models.sameModel(i, m)));
      if (missing.length > 0) {
        const { ProviderError } = await import("../../llm/types.js");
        throw new ProviderError("MODEL_NOT_FOUND", `not installed: ${missing.join(", ")}`, `installed: ${models.listModels(installed)}`);
      }
    }

    let interpreter;
    if (settings.some((s) => s.toolshim !== "off")) {
      const target = await factory.createInterpreterTarget(base);
      if (!("disabled" in target)) {
        const { createInterpreter } = await import("../../toolshim/index.js");
        interpreterProvider = target.provider;
        interpreter = createInterpreter(target.provider, target.model);
      }
    }

    // The exam.
    let questions;
    if (flags.questions !== undefined) {
      let text: string;
      try {
        text = fs.readFileSync(flags.questions, "utf8");
      } catch (err) {
        throw new UsageError(`cannot read --questions ${flags.questions}: ${(err as Error).message}`);
      }
      let parsed;
      try {
        parsed = evalLayer.parseQuestionsFile(text);
      } catch (err) {
        throw new UsageError(`${flags.questions}: ${(err as Error).message}`);
      }
      const checked = await evalLayer.checkQuestionKeys(workspace, registry, parsed, controller.signal);
      for (const p of checked.problems) output.logLine(errColors.yellow(`codecite: ${p}`));
      questions = checked.usable;
    } else {
      const catalog = await repositoryCatalog(workspace, controller.signal);
      questions = await evalLayer.generateQuestions(workspace, registry, catalog, {
        count,
        seed: flags.seed ?? 1,
        language,
        signal: controller.signal,
      });
    }
    if (questions.length === 0) throw new UsageError("no question could be written for this repository (no definitions or imports found)");

    const out = path.resolve(flags.out ?? path.join(cacheDir.resolveCacheDir(process.env), "eval", cacheDir.cacheFileName(workspace.root, "")));
    // The default folder, under the cache folder, is the user's alone like the fact cache beside it
    // (the exam, the answers and the report quote the repository); a folder of --out is as the user made it.
    fs.mkdirSync(out, { recursive: true, ...(flags.out === undefined ? { mode: 0o700 } : {}) });
    if (flags.out === undefined) {
      // One an older version made readable by others is made so too.
      const mode = fs.statSync(out).mode & 0o777;
      if ((mode & 0o077) !== 0) fs.chmodSync(out, mode & 0o700);
    }
    const resultsFile = path.join(out, "results.jsonl");
    if (flags.resume !== true) fs.writeFileSync(resultsFile, "");
    fs.writeFileSync(path.join(out, "questions.jsonl"), questions.map((q) => JSON.stringify(q)).join("\n") + "\n");
    const cache = new evalLayer.ResultCache(resultsFile);

    const drawBar = progressMod.progressEnabled({ json });
    const onProgress = (p: EvalProgress): void => {
      if (drawBar) process.stderr.write(`\r\x1b[K${bar(p)}`);
    };
    let rows: import("../../eval/index.js").EvalRow[] = [];
    let interrupted = false;
    try {
      rows = await evalLayer.runEval({
        provider,
        models: chosen,
        settings,
        questions,
        registry,
        workspace,
        maxSteps,
        cache,
        signal: controller.signal,
        onProgress,
        ...(interpreter ? { interpreter } : {}),
      });
    } catch (err) {
      if (!controller.signal.aborted) throw err;
      interrupted = true;
      // Keep what finished: every row of this run is in the cache file.
      const ids = new Set(questions.map((q) => q.id));
      rows = [];
      for (const m of chosen) for (const s of settings) for (const q of questions) {
        const r = cache.get(m, s, q);
        if (r !== undefined && ids.has(r.question_id)) rows.push(r);
      }
    } finally {
      if (drawBar) process.stderr.write("\r\x1b[K");
    }

    const summaries = evalLayer.summarize(rows);
    const recommendation = evalLayer.recommend(summaries);
    const reportFile = path.join(out, "report.html");
    fs.writeFileSync(
      reportFile,
      evalLayer.renderReport(summaries, rows, recommendation, {
        root: workspace.root,
        generated_at: new Date().toISOString(),
        ...(flags.questions === undefined ? { seed: flags.seed ?? 1 } : {}),
      }),
    );
    const ranked = evalLayer.rank(summaries);
    fs.writeFileSync(path.join(out, "summary.json"), JSON.stringify({ models: ranked, recommendation: recommendation ?? null }, null, 2) + "\n");
    if (json) {
      output.printJson({ models: ranked, recommendation: recommendation ?? null, results: rows, questions: questions.length, out });
    } else {
      process.stdout.write(renderTable(ranked, output.colorsFor(process.stdout)));
      process.stdout.write(
        recommendation
          ? `\nRecommended: ${visibleText(recommendation.model)} (num_ctx ${recommendation.settings.num_ctx}, tool shim ${recommendation.settings.toolshim}${recommendation.settings.prefetch === true ? ", prefetch on" : ""}) — ${Math.round(recommendation.accuracy * 100)}% correct, median ${(recommendation.median_ms / 1000).toFixed(1)} s per question\n`
          : "\nNo recommendation: every model failed every question.\n",
      );
    }
    output.logLine(errColors.dim(`codecite: report ${reportFile}`));
    if (interrupted) {
      output.logLine(errColors.yellow(`codecite: interrupted; ${rows.length} finished results kept in ${resultsFile} (run again with --resume)`));
      process.exitCode = 130;
    }
  } finally {
    process.removeListener("SIGINT", onSigint);
    await factory.closeProviders(provider, interpreterProvider);
  }
}

function renderTable(rows: readonly import("../../eval/index.js").ModelSummary[], c: import("../output.js").Colors): string {
  const head = ["model", "setting", "correct", "accuracy", "right tool", "calls n/d/j/s/i/none", "citations sup/seen/unseen/inv", "median", "errors"];
  const body = rows.map((s) => [
    visibleText(s.model),
    settingsLabel(s.settings),
    `${s.correct}/${s.questions}`,
    `${Math.round(s.accuracy * 100)}%`,
    `${Math.round(s.right_tool * 100)}%`,
    `${s.calls.native}/${s.calls.dialect}/${s.calls.inline_json}/${s.calls.structural}/${s.calls.interpreter}/${s.calls.none}`,
    `${s.citations.supported}/${s.citations.seen}/${s.citations.unseen}/${s.citations.invalid}`,
    `${(s.median_ms / 1000).toFixed(1)} s`,
    String(s.errors),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (r: readonly string[]) => r.map((v, i) => v.padEnd(widths[i]!)).join("  ").trimEnd();
  return `${c.bold(line(head))}\n${body.map(line).join("\n")}\n`;
}

export function register(program: Command): void {
  program
    .command("eval")
    .description("find the local model that answers correctly about this repository: a generated exam with a key, run per model and setting")
    .option("--root <dir>", "repository root", ".")
    .option("--models <a,b>", "models to compare (default: the model ask would use)")
    .option("--all-installed", "compare every installed model")
    .option("--provider <name>", "ollama, openai or llama-cpp (default: CODECITE_PROVIDER, else ollama)")
    .option("--host <url>", "server address (default: OLLAMA_HOST, or OPENAI_BASE_URL with --provider openai)")
    .option("--num-ctx <n,m>", "context sizes to try, comma-separated (default: CODECITE_NUM_CTX, else 8192)")
    .option("--toolshim <modes>", "tool-shim modes to try, comma-separated: auto, on, off (default: CODECITE_TOOLSHIM, else auto)")
    .option("--prefetch <modes>", "evidence-first lookups before the model's first call: off (default: measure the model's own tool use), on, or on,off")
    .option("--questions <file>", "JSON Lines of {question, answer_locations: [[path, line], …], answerable} instead of a generated exam")
    .option("--count <n>", "number of generated questions (default 30)", parseInteger)
    .option("--seed <n>", "seed of the generated exam (default 1)", parseInteger)
    .option("--question-language <lang>", "en, zh or mixed (default en)")
    .option("--max-steps <n>", "maximum tool steps per question (default 8)", parseInteger)
    .option("--out <dir>", "folder for results.jsonl, questions.jsonl, summary.json and report.html (default: under the cache folder)")
    .option("--resume", "reuse the finished results in --out whose question is unchanged")
    .option("--json", "print {models, recommendation, results, questions, out} as JSON")
    .action((flags: EvalFlags) => runAction(flags.json === true, () => evalCommand(flags)));
}
