/** The library's public surface is exactly what src/index.ts exports (ollama-js style). */
import { describe, expect, it } from "vitest";
import * as lib from "../../src/index.js";

describe("src/index.ts", () => {
  it("exports exactly the public runtime surface", () => {
    expect(Object.keys(lib).sort()).toEqual([
      "AddressError",
      "CODE_TOOL_NAMES",
      "DEFAULT_MAX_STEPS",
      "LlamaCppProvider",
      "OllamaProvider",
      "OpenAIProvider",
      "ProviderError",
      "ResultCache",
      "ToolError",
      "ToolRegistry",
      "Workspace",
      "checkQuestionKeys",
      "createCodeToolRegistry",
      "createInterpreter",
      "defineTool",
      "generateQuestions",
      "parseQuestionsFile",
      "recommend",
      "recover",
      "renderReport",
      "repositoryCatalog",
      "runAgent",
      "runEval",
      "scoreResult",
      "summarize",
    ]);
  });

  it("the code registry holds exactly the six read-only tools", () => {
    expect(lib.createCodeToolRegistry().names()).toEqual([
      "search_code",
      "find_symbol",
      "read_evidence",
      "find_importers",
      "find_references",
      "read_git_diff",
    ]);
  });
});
