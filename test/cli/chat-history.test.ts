/**
 * The history file of `codecite chat` (`src/cli/chat-history.ts`) holds the user's questions, so
 * it is the user's alone: created 0600 in folders created 0700, and a file left readable by an
 * older version is made so when a line is added (its lines kept).
 */
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HISTORY_LINES, historyPath, readHistory, rememberLine } from "../../src/cli/chat-history.js";
import { makeTempDir } from "../helpers/temp-tree.js";

const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);

describe.skipIf(process.platform === "win32")("chat history file", () => {
  it("is created 0600 in folders created 0700 under $XDG_STATE_HOME", () => {
    const state = path.join(makeTempDir("codecite-history-"), "state");
    const file = historyPath({ XDG_STATE_HOME: state });
    expect(file).toBe(path.join(state, "codecite", "chat_history"));
    rememberLine(file, "why does AWS_SECRET_ACCESS_KEY=abc fail in deploy.py?");
    rememberLine(file, "and\nthe next one");
    expect([mode(state), mode(path.dirname(file)), mode(file)]).toEqual(["700", "700", "600"]);
    expect(readHistory(file)).toEqual(["and the next one", "why does AWS_SECRET_ACCESS_KEY=abc fail in deploy.py?"]);
  });

  it("a history file others can read loses their bits when a line is added, and keeps its lines; past twice the limit the newest are kept", () => {
    const dir = path.join(makeTempDir("codecite-history-"), "codecite");
    mkdirSync(dir);
    const file = path.join(dir, "chat_history");
    writeFileSync(file, Array.from({ length: HISTORY_LINES * 2 }, (_, i) => `q${i}`).join("\n") + "\n");
    chmodSync(file, 0o644);
    rememberLine(file, "newest");
    expect(mode(file)).toBe("600");
    const kept = readFileSync(file, "utf8").trimEnd().split("\n");
    expect([kept.length, kept[0], kept.at(-1)]).toEqual([HISTORY_LINES, `q${HISTORY_LINES + 1}`, "newest"]);
  });
});
