/**
 * The optional peer dependency node-llama-cpp: its types (type-only, erased at run time) and
 * the one place it is imported, lazily, with a clear install hint when it is missing.
 * Internal to the llm layer; not re-exported, so codecite's public type declarations never
 * name node-llama-cpp.
 */
import { ProviderError } from "./types.js";

/** node-llama-cpp's module and the classes the llama-cpp provider uses (types only). */
export type NodeLlamaCpp = typeof import("node-llama-cpp");
export type Llama = import("node-llama-cpp").Llama;
export type LlamaModel = import("node-llama-cpp").LlamaModel;
export type LlamaContext = import("node-llama-cpp").LlamaContext;
export type LlamaChat = import("node-llama-cpp").LlamaChat;
export type ChatHistoryItem = import("node-llama-cpp").ChatHistoryItem;
export type ChatModelFunctionCall = import("node-llama-cpp").ChatModelFunctionCall;
export type ChatModelFunctions = import("node-llama-cpp").ChatModelFunctions;

/** The node-llama-cpp version the llama-cpp provider is written and tested against. */
export const NODE_LLAMA_CPP_VERSION = "3.21.1";
/** The command that installs it. */
const NODE_LLAMA_CPP_INSTALL_HINT = `npm install node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`;

/** True when `err` is Node's "cannot find package node-llama-cpp" error. */
function isMissingPackage(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return (
    (e?.code === "ERR_MODULE_NOT_FOUND" || e?.code === "MODULE_NOT_FOUND") &&
    typeof e.message === "string" &&
    e.message.includes("node-llama-cpp")
  );
}

/**
 * Imports node-llama-cpp.
 * @throws ProviderError `MISSING_PACKAGE` with the install command when it is not installed.
 */
export async function importNodeLlamaCpp(load: () => Promise<unknown> = () => import("node-llama-cpp")): Promise<NodeLlamaCpp> {
  try {
    return (await load()) as NodeLlamaCpp;
  } catch (err) {
    if (isMissingPackage(err)) {
      throw new ProviderError(
        "MISSING_PACKAGE",
        "the llama-cpp provider needs the optional package node-llama-cpp, which is not installed",
        NODE_LLAMA_CPP_INSTALL_HINT,
      );
    }
    throw new ProviderError("MISSING_PACKAGE", `node-llama-cpp failed to load: ${(err as Error)?.message ?? String(err)}`, NODE_LLAMA_CPP_INSTALL_HINT);
  }
}

