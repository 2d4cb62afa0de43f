/** `codecite tools`: the tool definitions exactly as they are sent to the model. */
import type { Command } from "commander";
import { colorsFor, printJson, runAction } from "../output.js";

interface ToolsFlags {
  json?: boolean;
}

/** Registers `codecite tools` on `program` (README "CLI reference"). */
export function register(program: Command): void {
  program
    .command("tools")
    .description("print the tool definitions exactly as sent to the model")
    .option("--json", "print the definitions array (Ollama/OpenAI `tools` shape)")
    .action((flags: ToolsFlags) =>
      runAction(flags.json === true, async () => {
        const [{ createCodeToolRegistry }, { renderToolDefinition }] = await Promise.all([
          import("../../tools/code-tools.js"),
          import("../render.js"),
        ]);
        const definitions = createCodeToolRegistry().definitions();
        if (flags.json === true) {
          printJson(definitions);
          return;
        }
        const c = colorsFor(process.stdout);
        process.stdout.write(`${definitions.map((d) => renderToolDefinition(d, c)).join("\n\n")}\n`);
      }),
    );
}
