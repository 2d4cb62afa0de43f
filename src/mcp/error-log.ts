/**
 * The MCP server's log of refused and malformed client messages, bounded. Every refused line is
 * answered on stdout (`message-guard.ts`), and the SDK reports each message it cannot use
 * (`Server.onerror`: a notification of the wrong shape comes with its validator's dump of a few
 * KB, a progress notification for an unknown token with its whole `params`, up to 4 MiB). A
 * client sending such messages in a loop would otherwise turn each 60-byte line into kilobytes
 * of stderr, which editors keep in their log files.
 *
 * Rules: the first {@link SHOWN_IN_FULL} reports are logged, each cut to {@link MAX_LOG_CHARS}
 * characters on one line with control characters shown as escapes (`visibleText`); after them
 * only the 100th, 1,000th, 10,000th … are logged, with the count so far.
 */
import { visibleText } from "../tools/index.js";

/** Reports logged one by one before only powers of ten are. */
export const SHOWN_IN_FULL = 20;

/** Longest logged report, in characters (UTF-16 units). */
export const MAX_LOG_CHARS = 300;

/** Whether `n` (≥ 1) is a power of ten. */
function powerOfTen(n: number): boolean {
  while (n >= 10 && n % 10 === 0) n /= 10;
  return n === 1;
}

/**
 * A logger for reports about client messages that keeps the log bounded (see the module rules).
 * @param log writes one line (no newline).
 */
export function boundedErrorLog(log: (line: string) => void): (report: string) => void {
  let count = 0;
  return (report) => {
    count++;
    if (count > SHOWN_IN_FULL && !powerOfTen(count)) return;
    const flat = visibleText(report.replace(/\s*\n\s*/g, " "));
    const cut = flat.length > MAX_LOG_CHARS ? `${flat.slice(0, MAX_LOG_CHARS)}…` : flat;
    log(count > SHOWN_IN_FULL ? `${cut} (${count} such reports so far; after the first ${SHOWN_IN_FULL}, only every power of ten is logged)` : cut);
  };
}
