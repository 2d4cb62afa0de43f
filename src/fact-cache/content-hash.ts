/**
 * Content hash of a file, used to tell "content unchanged, only the mtime moved" (e.g. after
 * `git checkout`, `touch`, or a save without edits) from a real edit.
 *
 * The hash is the Git blob id: SHA-1 over `"blob " + <byte length> + "\0" + <bytes>`
 * (Git's object format, `git hash-object`). It is not a security boundary; it is chosen so
 * that a clean tracked file's hash equals the blob id `git ls-files -s` prints, which lets a
 * caller skip reading such files.
 */
import { createHash } from "node:crypto";

/**
 * Git blob id of `content` as 40 lowercase hex characters.
 *
 * @param content - the file's bytes; a string is hashed as its UTF-8 encoding.
 */
export function contentHash(content: string | Uint8Array): string {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  return createHash("sha1").update(`blob ${bytes.byteLength}\0`).update(bytes).digest("hex");
}
