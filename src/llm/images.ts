/**
 * Images in the wire shapes of the providers (`Message.images`): OpenAI-compatible servers take
 * an `image_url` content part whose URL may be a `data:` URL (RFC 2397) of the bytes; Ollama takes
 * the bytes in base64 only.
 */
import type { ImageInput, Message } from "./types.js";
import { ProviderError } from "./types.js";

/**
 * Media types by the first bytes of the file, as base64 text (PNG, JPEG, GIF, WebP: the formats
 * vision models' servers read; signatures from each format's specification: PNG §5.2, JPEG SOI
 * marker, GIF87a/GIF89a, RIFF…WEBP).
 */
const SIGNATURES: readonly [RegExp, string][] = [
  [/^iVBORw0KGgo/, "image/png"],
  [/^\/9j\//, "image/jpeg"],
  [/^R0lGOD[dl]h/, "image/gif"],
  [/^UklGR[A-Za-z0-9+/]{6}XRUJQ/, "image/webp"],
];

/** The media type of base64 image bytes: given, else read from their signature, else `application/octet-stream`. */
function mediaType(image: { base64: string; mimeType?: string }): string {
  if (image.mimeType !== undefined) return image.mimeType;
  return SIGNATURES.find(([re]) => re.test(image.base64))?.[1] ?? "application/octet-stream";
}

/** The URL of an OpenAI `image_url` part: the image's own URL, or a `data:` URL of its bytes. */
export function imageUrl(image: ImageInput): string {
  return "url" in image ? image.url : `data:${mediaType(image)};base64,${image.base64}`;
}

/**
 * The base64 texts of Ollama's `images`.
 * @throws ProviderError `HTTP` with status 400 for an image given by URL: Ollama's API takes the
 *   bytes, and codecite fetches nothing on a client's behalf.
 */
export function imagesBase64(images: readonly ImageInput[]): string[] {
  return images.map((image) => {
    if ("url" in image) {
      throw new ProviderError(
        "HTTP",
        "an image given by URL cannot be sent to Ollama, whose API takes the image's bytes (codecite fetches nothing)",
        "send the image as a data: URL (data:image/png;base64,…)",
        400,
      );
    }
    return image.base64;
  });
}

/**
 * Refuses images outside a user message for an OpenAI-compatible server: its chat API takes
 * `image_url` parts in user messages only (OpenAI API reference, Create chat completion: the
 * content parts of system, assistant and tool messages are text), and Ollama's API, which a
 * client of `codecite serve` may use, allows `images` on any message.
 * @throws ProviderError `HTTP` with status 400 naming the message, rather than the image dropped unseen.
 */
export function checkImagesInUserMessages(messages: readonly Message[]): void {
  const i = messages.findIndex((m) => m.role !== "user" && m.images !== undefined && m.images.length > 0);
  if (i === -1) return;
  throw new ProviderError(
    "HTTP",
    `messages[${i}] is a ${messages[i]!.role} message with images, which an OpenAI-compatible server takes in user messages only`,
    "put the image in a user message",
    400,
  );
}
