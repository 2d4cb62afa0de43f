import { describe, expect, it } from "vitest";
import { pythonDictList } from "../../../src/toolshim/dialects/python-dict-list.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("python_dict_list", () => {
  itParsesCorpusCases(pythonDictList, "python_dict_list");

  it("reads the list when the marker was stripped, only for offered tools", () => {
    const text = "Sure. [{'name': 'get_weather', 'arguments': {'city': 'Tokyo', 'hourly': True}}]";
    expect(run(pythonDictList, text, ["get_weather"]).calls).toEqual([{ name: "get_weather", arguments: { city: "Tokyo", hourly: true } }]);
    expect(run(pythonDictList, text, ["get_weather"]).content).toBe("Sure.");
    expect(run(pythonDictList, text, ["search"]).match).toBeNull();
  });
});
