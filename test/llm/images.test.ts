/** Images in the providers' wire shapes (`src/llm/images.ts`). */
import { describe, expect, it } from "vitest";
import { imageUrl, imagesBase64 } from "../../src/llm/images.js";
import { ProviderError } from "../../src/llm/types.js";

/** The base64 of a file that starts with `head` (and some bytes after, as a real file has). */
const b64 = (head: number[] | string) => Buffer.concat([Buffer.from(head as never), Buffer.alloc(20, 7)]).toString("base64");

describe("imageUrl", () => {
  it("a data: URL with the media type read from the bytes' signature", () => {
    const cases: [string, number[] | string][] = [
      ["image/png", [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
      ["image/jpeg", [0xff, 0xd8, 0xff, 0xdb]],
      ["image/gif", "GIF87a"],
      ["image/gif", "GIF89a"],
      ["image/webp", [...Buffer.from("RIFF"), 0x24, 0x10, 0x00, 0x00, ...Buffer.from("WEBPVP8 ")]],
      ["application/octet-stream", [...Buffer.from("RIFF"), 0x24, 0x10, 0x00, 0x00, ...Buffer.from("WAVEfmt ")]],
      ["application/octet-stream", "%PDF-1.7"],
    ];
    for (const [type, head] of cases) {
      const base64 = b64(head);
      expect(imageUrl({ base64 }), type).toBe(`data:${type};base64,${base64}`);
    }
  });

  it("keeps a given media type and a URL as they are", () => {
    expect(imageUrl({ base64: "AAAA", mimeType: "image/avif" })).toBe("data:image/avif;base64,AAAA");
    expect(imageUrl({ url: "https://example.com/a.png" })).toBe("https://example.com/a.png");
  });
});

describe("imagesBase64", () => {
  it("gives the bytes, and refuses an image given by URL with a 400", () => {
    expect(imagesBase64([{ base64: "AAAA" }, { base64: "BBBB", mimeType: "image/png" }])).toEqual(["AAAA", "BBBB"]);
    let error: unknown;
    try {
      imagesBase64([{ base64: "AAAA" }, { url: "https://example.com/a.png" }]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: "HTTP", status: 400, hint: "send the image as a data: URL (data:image/png;base64,…)" });
  });
});
