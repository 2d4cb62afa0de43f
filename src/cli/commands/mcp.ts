/**
 * `codecite mcp [--root DIR]`: the code tools as an MCP server on stdio. The MCP SDK is
 * imported only inside the action, so other commands never pay for it. stdout carries only
 * protocol messages; errors (e.g. a missing root) go to stderr with exit code 2.
 */
import type { Command } from "commander";
import { runAction } from "../output.js";

interface McpFlags {
  root: string;
}

/** Registers `codecite mcp` on `program` (README "CLI reference"). */
export function register(program: Command): void {
  program
    .command("mcp")
    .description("serve the read-only code tools over MCP on stdio (for goose, Claude Desktop, Cursor, …)")
    .option("--root <dir>", "repository root; client roots may narrow it, never widen it", ".")
    .action((flags: McpFlags) =>
      // json=false: never print an error object on stdout, which belongs to the protocol.
      runAction(false, async () => {
        const { startMcpServer } = await import("../../mcp/server.js");
        await startMcpServer({ root: flags.root });
      }),
    );
}
