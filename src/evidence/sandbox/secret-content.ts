/**
 * Content detection of private keys, whatever the file is called (a name-based deny-list cannot
 * see `notes.txt` holding a key, or a key in an `.asc` armour file).
 *
 * A file is a secret when it holds a private-key block:
 * - a PEM / OpenSSH / OpenPGP armour line `-----BEGIN <words> PRIVATE KEY-----` (RFC 7468 §2:
 *   `PRIVATE KEY`, `RSA PRIVATE KEY`, `EC PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`,
 *   `OPENSSH PRIVATE KEY`; RFC 4880 §6.2: `PGP PRIVATE KEY BLOCK`) standing alone on its line,
 *   followed (after optional `Header: value` lines and one blank line) by a base64 line of at
 *   least 40 characters — so a source file that merely mentions the marker in a string or a
 *   comment is not a key;
 * - a PuTTY key file: a line `PuTTY-User-Key-File-<n>: …` and, later, a line `Private-Lines: <n>`.
 *
 * Bytes are read as Latin-1: the markers and base64 are ASCII, and every byte maps to one
 * character, so the scan never fails on invalid UTF-8. The scan is linear in the text.
 */

/** Most bytes of one file scanned for a key block (files larger are scanned up to this). */
export const MAX_SECRET_SCAN_BYTES = 16 * 1024 * 1024;

const PEM_KEY =
  /^-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[ \t]*\r?\n(?:[A-Za-z][A-Za-z0-9-]*:[^\n]*\r?\n)*(?:[ \t]*\r?\n)?[A-Za-z0-9+/=]{40,}[ \t]*\r?$/m;
const PUTTY_HEAD = /^PuTTY-User-Key-File-\d+: /m;
const PUTTY_PRIVATE = /^Private-Lines: \d+/m;

/** True when `text` holds a private-key block (see the module rules). */
export function hasPrivateKeyBlock(text: string): boolean {
  if (text.includes("PRIVATE KEY") && PEM_KEY.test(text)) return true;
  const putty = PUTTY_HEAD.exec(text);
  return putty !== null && PUTTY_PRIVATE.test(text.slice(putty.index));
}

/** {@link hasPrivateKeyBlock} over raw bytes (read as Latin-1). */
export function bytesHavePrivateKeyBlock(bytes: Uint8Array): boolean {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.indexOf("PRIVATE KEY") < 0 && buf.indexOf("PuTTY-User-Key-File-") < 0) return false;
  return hasPrivateKeyBlock(buf.toString("latin1"));
}
