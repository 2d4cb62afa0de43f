/**
 * Content detection of private keys, whatever the file is called (a name-based deny-list cannot
 * see `notes.txt` holding a key, or a key in an `.asc` armour file).
 *
 * A file is a secret when it holds a private-key block:
 * - a PEM / OpenSSH / OpenPGP armour line `-----BEGIN <words> PRIVATE KEY-----` (RFC 7468 §2:
 *   `PRIVATE KEY`, `RSA PRIVATE KEY`, `EC PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`,
 *   `OPENSSH PRIVATE KEY`; RFC 4880 §6.2: `PGP PRIVATE KEY BLOCK`) followed by a line break,
 *   optional `Header: value` lines and one blank line, then a base64 run of at least 40
 *   characters — so a source file that merely mentions the marker in a string or a comment is
 *   not a key. The block may sit inside another file: text before the marker on its line
 *   (`"private_key": "`, `KEY="`), indented lines (a YAML block scalar, a heredoc) and line
 *   breaks written as the escapes `\n` / `\r\n` (a JSON string: a cloud service-account key
 *   file, whose name is the account's and no deny pattern's; a quoted `.env` value or string
 *   literal), `\/` for `/` in the base64 (PHP's `json_encode`);
 * - such a block encoded in base64 (a Kubernetes `Secret`'s `data:` value, `tls.key: LS0tLS1CRUdJTi…`,
 *   line-wrapped or not), found by the encodings of `-----BEGIN ` at each of the three byte
 *   alignments (see {@link ENCODED_MARKERS});
 * - a PuTTY key file: a line `PuTTY-User-Key-File-<n>: …` and, later, a line `Private-Lines: <n>`.
 *
 * Bytes are read as Latin-1: the markers and base64 are ASCII, and every byte maps to one
 * character, so the scan never fails on invalid UTF-8. A file that starts with a UTF-16
 * byte-order mark is decoded first, as `read_evidence` and ripgrep decode it (`text-file.ts`):
 * Windows PowerShell 5 writes UTF-16LE with a mark when output is redirected to a file. The scan is linear in the text (each
 * encoded run is decoded once, at most {@link MAX_ENCODED_RUN} characters of it).
 */

import { createDecoder, sniff } from "./text-file.js";

/** Most bytes of one file scanned for a key block (files larger are scanned up to this). */
export const MAX_SECRET_SCAN_BYTES = 16 * 1024 * 1024;

/**
 * A line end as written in the file or escaped inside a string: `\n`, `\r\n`, or a lone `\r`
 * (classic Mac line ends, which the tools show as line breaks: `text-file.ts` `snippetLine`).
 * Each part of the pattern below
 * has one way to match (a header value stops before `\r`, `\n` and `\\`; blanks are taken only
 * at a line's start), and at most {@link MAX_ARMOUR_HEADERS} header lines are tried, so a test
 * from each marker reads a bounded stretch of lines and the scan stays linear.
 */
const LINE_END = String.raw`(?:\r\n?|\n|\\r(?:\\n)?|\\n)`;
/** Armour header lines tried (RFC 1421 `Proc-Type`/`DEK-Info`, RFC 4880 `Version`, `Comment`, `Hash`, `Charset`). */
const MAX_ARMOUR_HEADERS = 16;
const PEM_KEY = new RegExp(
  String.raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[ \t]*${LINE_END}` +
    String.raw`(?:[ \t]*[A-Za-z][A-Za-z0-9-]*:[^\r\n\\]*${LINE_END}){0,${MAX_ARMOUR_HEADERS}}` +
    // an optional blank line, then the key data
    String.raw`(?:[ \t]*${LINE_END})?[ \t]*(?:[A-Za-z0-9+/=]|\\/){40,}`,
);
const PUTTY_HEAD = /^PuTTY-User-Key-File-\d+: /m;
const PUTTY_PRIVATE = /^Private-Lines: \d+/m;

/** The armour marker every PEM/OpenPGP block starts with. */
const MARKER = "-----BEGIN ";

/**
 * The base64 encodings of {@link MARKER} when it starts 0, 1 or 2 bytes after a 3-byte group
 * boundary, each cut to the characters that depend on the marker alone, with how many characters
 * of its group precede the cut (`LS0tLS1CRUdJTi` at alignment 0).
 */
const ENCODED_MARKERS: readonly { readonly text: string; readonly lead: number }[] = [0, 1, 2].map((pad) => {
  const encoded = Buffer.concat([Buffer.alloc(pad), Buffer.from(MARKER, "latin1")]).toString("base64");
  const lead = Math.ceil((pad * 8) / 6);
  const known = Math.floor(((pad + MARKER.length) * 8) / 6);
  return { text: encoded.slice(lead, known), lead };
});

/** Held by every encoding in {@link ENCODED_MARKERS} (`---` encoded), so one scan for it rules them all out. */
const ENCODED_DASHES = "LS0t";

/** Most characters of one base64 run decoded to look for a key in it (a 4096-bit RSA key is about 4.5 K). */
const MAX_ENCODED_RUN = 64 * 1024;

/** Words every private-key block holds in some form; `git grep` pre-filters blobs by them (`git-diff.ts`). */
export const KEY_WORDS: readonly string[] = ["PRIVATE KEY", "PuTTY-User-Key-File-", ...ENCODED_MARKERS.map((m) => m.text)];

/** True when `text` holds a private-key block (see the module rules). */
export function hasPrivateKeyBlock(text: string): boolean {
  if (text.includes("PRIVATE KEY") && PEM_KEY.test(text)) return true;
  const putty = PUTTY_HEAD.exec(text);
  if (putty !== null && PUTTY_PRIVATE.test(text.slice(putty.index))) return true;
  return hasEncodedKeyBlock(text);
}

/** Base64 characters and the blanks a wrapped run holds (Node's decoder skips whitespace), at most {@link MAX_ENCODED_RUN}. */
const BASE64_RUN = new RegExp(String.raw`[A-Za-z0-9+/=\s]{0,${MAX_ENCODED_RUN}}`, "y");

/**
 * True when a base64 run in `text` decodes to a private-key block. Each occurrence of an encoded
 * marker is decoded from the start of its 4-character group; occurrences inside a run already
 * decoded are skipped, so each character is decoded at most once per alignment.
 */
function hasEncodedKeyBlock(text: string): boolean {
  for (const { text: needle, lead } of ENCODED_MARKERS) {
    let from = 0;
    for (let at = text.indexOf(needle, from); at >= 0; at = text.indexOf(needle, from)) {
      const start = Math.max(0, at - lead);
      BASE64_RUN.lastIndex = start;
      BASE64_RUN.exec(text);
      const end = BASE64_RUN.lastIndex;
      const decoded = Buffer.from(text.slice(start, end), "base64").toString("latin1");
      if (decoded.includes("PRIVATE KEY") && PEM_KEY.test(decoded)) return true;
      from = Math.max(end, at + needle.length);
    }
  }
  return false;
}

/** {@link hasPrivateKeyBlock} over a file's bytes: read as Latin-1, or decoded when they start with a UTF-16 byte-order mark. */
export function bytesHavePrivateKeyBlock(bytes: Uint8Array): boolean {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { encoding, bomBytes } = sniff(buf.subarray(0, 3));
  if (encoding !== "utf-8") return hasPrivateKeyBlock(createDecoder(encoding).decode(buf.subarray(bomBytes)));
  if (buf.indexOf("PRIVATE KEY") < 0 && buf.indexOf("PuTTY-User-Key-File-") < 0 && buf.indexOf(ENCODED_DASHES) < 0) return false;
  return hasPrivateKeyBlock(buf.toString("latin1"));
}
