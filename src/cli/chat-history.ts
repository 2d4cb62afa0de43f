/**
 * The history file of `codecite chat` on a terminal: `$XDG_STATE_HOME/codecite/chat_history`,
 * else `~/.local/state/codecite/chat_history`, one question a line, the newest
 * {@link HISTORY_LINES} kept.
 *
 * It holds the user's questions, which name private code and sometimes quote what was pasted
 * into them, so it is the user's alone, as a shell's history is: the file is created with mode
 * 0600 (Node.js's REPL does the same for its history, test/parallel/test-repl-history-perms.js),
 * the folders above it 0700 (XDG Base Directory spec: a missing folder is created "with
 * permission 0700"), and a file an older version left readable by others loses the bits of group
 * and others when a line is added. A history that cannot be read or written never stops a session.
 */
import { closeSync, constants as fsc, fchmodSync, fstatSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Lines kept in the history file. */
export const HISTORY_LINES = 1000;

/** The history file (see the module comment; XDG Base Directory spec). */
export function historyPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_STATE_HOME?.trim();
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), ".local", "state");
  return path.join(base, "codecite", "chat_history");
}

/** The remembered questions, newest first (at most {@link HISTORY_LINES}); none when the file cannot be read. */
export function readHistory(file: string): string[] {
  try {
    return readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").reverse().slice(0, HISTORY_LINES);
  } catch {
    return [];
  }
}

/** Appends `line` (one line: line breaks become spaces) to the history file, keeping it the user's own; past twice {@link HISTORY_LINES} lines the newest {@link HISTORY_LINES} are kept. */
export function rememberLine(file: string, line: string): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const fd = openSync(file, fsc.O_WRONLY | fsc.O_APPEND | fsc.O_CREAT, 0o600);
    try {
      const mode = fstatSync(fd).mode & 0o777;
      if ((mode & 0o077) !== 0) fchmodSync(fd, mode & 0o700);
      writeSync(fd, `${line.replace(/\n/g, " ")}\n`);
    } finally {
      closeSync(fd);
    }
    const all = readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
    if (all.length > HISTORY_LINES * 2) writeFileSync(file, `${all.slice(-HISTORY_LINES).join("\n")}\n`, { mode: 0o600 });
  } catch {
    // A history that cannot be written never stops the session.
  }
}
