/**
 * Writes tiny GGUF models for tests, so the embedded llama.cpp path runs against a real
 * model file without downloading one.
 *
 * Format: GGUF v3 as documented in ggml `docs/gguf.md` — little-endian; header (`GGUF` magic,
 * u32 version 3, u64 tensor count, u64 metadata count); metadata key/value pairs (string =
 * u64 length + UTF-8 bytes; typed values; arrays = u32 element type + u64 count + elements);
 * tensor infos (name, u32 n_dims, u64 dims with the fastest-varying dimension first, u32
 * ggml type, u64 offset into the data section); zero padding to `general.alignment` (32);
 * tensor data, each tensor starting at an aligned offset.
 *
 * Model: architecture `llama` (metadata keys `llama.*`, tensors `token_embd`, `output_norm`,
 * `output`, `blk.N.{attn_norm,attn_q,attn_k,attn_v,attn_output,ffn_norm,ffn_gate,ffn_up,ffn_down}`)
 * with a SentencePiece-style (`tokenizer.ggml.model = "llama"`) byte-level vocabulary:
 * `<unk>`, `<s>`, `</s>` and the 256 byte tokens `<0x00>`…`<0xFF>`, plus a ChatML chat template.
 *
 * Weights are small seeded random values, except that every token embedding shares one
 * dominant direction and the output head projects that direction onto a fixed preference per
 * token. Greedy decoding therefore ranks allowed tokens by that preference whatever the
 * context: end-of-sequence first, then closing brackets and quotes. Under a JSON grammar the
 * model writes the shortest valid document and stops — deterministic and fast, which is what a
 * CI test of grammar-constrained generation needs. It is not a language model.
 */
import { writeFile } from "node:fs/promises";

/** GGUF metadata value types (ggml `docs/gguf.md`, `gguf_metadata_value_type`). */
const enum ValueType {
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
}

/** ggml tensor type F32. */
const GGML_TYPE_F32 = 0;
const ALIGNMENT = 32;

type MetaValue =
  | { type: "u32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "string[]"; value: readonly string[] }
  | { type: "f32[]"; value: readonly number[] }
  | { type: "i32[]"; value: readonly number[] };

interface TensorSpec {
  name: string;
  /** ggml order: `dims[0]` is the number of columns (contiguous elements per row). */
  dims: number[];
  data: Float32Array;
}

/** Little-endian byte sink. */
class Bytes {
  readonly #parts: Buffer[] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(buf: Buffer): void {
    this.#parts.push(buf);
    this.#length += buf.length;
  }

  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }

  i32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }

  u64(v: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }

  f32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }

  str(s: string): void {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.push(b);
  }

  pad(alignment: number): void {
    const rest = this.#length % alignment;
    if (rest !== 0) this.push(Buffer.alloc(alignment - rest));
  }

  concat(): Buffer {
    return Buffer.concat(this.#parts);
  }
}

function writeMeta(out: Bytes, key: string, v: MetaValue): void {
  out.str(key);
  switch (v.type) {
    case "u32":
      out.u32(ValueType.UINT32);
      out.u32(v.value);
      return;
    case "f32":
      out.u32(ValueType.FLOAT32);
      out.f32(v.value);
      return;
    case "bool":
      out.u32(ValueType.BOOL);
      out.push(Buffer.from([v.value ? 1 : 0]));
      return;
    case "string":
      out.u32(ValueType.STRING);
      out.str(v.value);
      return;
    case "string[]":
      writeArray(out, ValueType.STRING, v.value, (s) => out.str(s));
      return;
    case "f32[]":
      writeArray(out, ValueType.FLOAT32, v.value, (x) => out.f32(x));
      return;
    case "i32[]":
      writeArray(out, ValueType.INT32, v.value, (x) => out.i32(x));
      return;
  }
}

/** An array value: type `ARRAY`, the u32 element type, the u64 element count, then each element. */
function writeArray<T>(out: Bytes, elementType: ValueType, values: readonly T[], writeElement: (value: T) => void): void {
  out.u32(ValueType.ARRAY);
  out.u32(elementType);
  out.u64(values.length);
  for (const value of values) writeElement(value);
}

/** Serialises a GGUF v3 file from metadata and F32 tensors. */
function encodeGguf(meta: ReadonlyArray<[string, MetaValue]>, tensors: readonly TensorSpec[]): Buffer {
  const out = new Bytes();
  out.push(Buffer.from("GGUF", "ascii"));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(meta.length);
  for (const [key, value] of meta) writeMeta(out, key, value);
  let offset = 0;
  const offsets: number[] = [];
  for (const t of tensors) {
    const count = t.dims.reduce((a, b) => a * b, 1);
    if (count !== t.data.length) throw new Error(`tensor ${t.name}: ${t.data.length} values for dims ${t.dims.join("x")}`);
    out.str(t.name);
    out.u32(t.dims.length);
    for (const d of t.dims) out.u64(d);
    out.u32(GGML_TYPE_F32);
    out.u64(offset);
    offsets.push(offset);
    offset += Math.ceil((count * 4) / ALIGNMENT) * ALIGNMENT;
  }
  out.pad(ALIGNMENT);
  tensors.forEach((t) => {
    out.push(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    out.pad(ALIGNMENT);
  });
  return out.concat();
}

/** Deterministic PRNG (mulberry32) so that every run writes the same bytes. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** ChatML chat template (Jinja), the form `<|im_start|>role\ncontent<|im_end|>\n`. */
const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

export interface TinyLlamaOptions {
  /** Embedding width (default 64; a multiple of `heads`). */
  embd?: number;
  layers?: number;
  heads?: number;
  /** Feed-forward width (default 2 × `embd`). */
  ff?: number;
  /** `llama.context_length` (default 4096). */
  contextLength?: number;
  seed?: number;
  chatTemplate?: string;
}

/**
 * Vocabulary: `<unk>`, `<s>`, `</s>`, `<0x00>`…`<0xFF>`, then `▁` (U+2581, SentencePiece's
 * escaped space, so that text with spaces survives a tokenize/detokenize round trip).
 */
const TINY_VOCAB: readonly string[] = [
  "<unk>",
  "<s>",
  "</s>",
  ...Array.from({ length: 256 }, (_, b) => `<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`),
  "\u2581",
];
const SPACE_TOKEN = 259;
const BOS = 1;
const EOS = 2;

/**
 * The preference the output head gives each token (higher is picked first by greedy
 * decoding): end-of-sequence, then `"` (strings close at once), `}` (objects close at once),
 * `{` before `]` (an array of objects gets one item, then closes), then lower-case letters
 * (earlier letters first), digits and other printable characters, whitespace last; control
 * tokens and non-ASCII bytes never.
 */
function preference(token: number): number {
  if (token === EOS) return 10;
  if (token < 3 || token === SPACE_TOKEN) return -10;
  const byte = token - 3;
  const ch = String.fromCharCode(byte);
  if (ch === '"') return 9;
  if (ch === "}") return 8.5;
  if (ch === "{") return 8.2;
  if (ch === "]") return 8;
  if (/[a-z]/.test(ch)) return 5 + (122 - byte) / 100;
  if (/[0-9]/.test(ch)) return 4;
  if (byte > 0x20 && byte < 0x7f) return 3;
  if (ch === " " || ch === "\n") return -5;
  return -10;
}

/** Builds the tiny llama model (see the module comment) as GGUF bytes. */
function buildTinyLlamaGguf(opts: TinyLlamaOptions = {}): Buffer {
  const embd = opts.embd ?? 64;
  const layers = opts.layers ?? 1;
  const heads = opts.heads ?? 4;
  const ff = opts.ff ?? embd * 2;
  const vocab = TINY_VOCAB.length;
  const rand = rng(opts.seed ?? 42);
  const normal = () => {
    const u = Math.max(rand(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
  };
  const randomTensor = (rows: number, cols: number, std: number) => {
    const a = new Float32Array(rows * cols);
    for (let i = 0; i < a.length; i++) a[i] = normal() * std;
    return a;
  };
  const ones = (n: number) => new Float32Array(n).fill(1);

  // Shared direction with ±1 entries; each embedding = direction + small per-token noise.
  const direction = Float32Array.from({ length: embd }, () => (rand() < 0.5 ? -1 : 1));
  const tokenEmbd = new Float32Array(vocab * embd);
  for (let t = 0; t < vocab; t++) for (let i = 0; i < embd; i++) tokenEmbd[t * embd + i] = direction[i]! + normal() * 0.05;
  // Output head row t = preference(t) · direction / embd (+ noise): logit ≈ preference · √embd.
  const output = new Float32Array(vocab * embd);
  for (let t = 0; t < vocab; t++) {
    const p = preference(t);
    for (let i = 0; i < embd; i++) output[t * embd + i] = (p * direction[i]!) / embd + normal() * 0.001;
  }

  const tensors: TensorSpec[] = [
    { name: "token_embd.weight", dims: [embd, vocab], data: tokenEmbd },
    { name: "output_norm.weight", dims: [embd], data: ones(embd) },
    { name: "output.weight", dims: [embd, vocab], data: output },
  ];
  // Per block, in file order: a norm is all ones; a matrix [cols, rows] holds random values.
  const block: Array<[name: string, dims: number[]]> = [
    ["attn_norm", [embd]],
    ["attn_q", [embd, embd]],
    ["attn_k", [embd, embd]],
    ["attn_v", [embd, embd]],
    ["attn_output", [embd, embd]],
    ["ffn_norm", [embd]],
    ["ffn_gate", [embd, ff]],
    ["ffn_up", [embd, ff]],
    ["ffn_down", [ff, embd]],
  ];
  for (let l = 0; l < layers; l++) {
    for (const [name, dims] of block) {
      const [cols, rows] = dims;
      const data = rows === undefined ? ones(cols!) : randomTensor(rows, cols!, 0.005);
      tensors.push({ name: `blk.${l}.${name}.weight`, dims, data });
    }
  }

  // token_type: 1 NORMAL, 2 UNKNOWN, 3 CONTROL, 6 BYTE (llama.cpp `llama_token_type`).
  const tokenTypes = TINY_VOCAB.map((_, t) => (t === 0 ? 2 : t < 3 ? 3 : t === SPACE_TOKEN ? 1 : 6));
  const meta: Array<[string, MetaValue]> = [
    ["general.architecture", { type: "string", value: "llama" }],
    ["general.name", { type: "string", value: "codecite-tiny-test" }],
    ["general.alignment", { type: "u32", value: ALIGNMENT }],
    ["llama.context_length", { type: "u32", value: opts.contextLength ?? 4096 }],
    ["llama.embedding_length", { type: "u32", value: embd }],
    ["llama.block_count", { type: "u32", value: layers }],
    ["llama.feed_forward_length", { type: "u32", value: ff }],
    ["llama.attention.head_count", { type: "u32", value: heads }],
    ["llama.attention.head_count_kv", { type: "u32", value: heads }],
    ["llama.attention.layer_norm_rms_epsilon", { type: "f32", value: 1e-5 }],
    ["llama.rope.dimension_count", { type: "u32", value: embd / heads }],
    ["llama.rope.freq_base", { type: "f32", value: 10000 }],
    ["llama.vocab_size", { type: "u32", value: vocab }],
    ["tokenizer.ggml.model", { type: "string", value: "llama" }],
    ["tokenizer.ggml.tokens", { type: "string[]", value: TINY_VOCAB }],
    ["tokenizer.ggml.scores", { type: "f32[]", value: TINY_VOCAB.map(() => 0) }],
    ["tokenizer.ggml.token_type", { type: "i32[]", value: tokenTypes }],
    ["tokenizer.ggml.unknown_token_id", { type: "u32", value: 0 }],
    ["tokenizer.ggml.bos_token_id", { type: "u32", value: BOS }],
    ["tokenizer.ggml.eos_token_id", { type: "u32", value: EOS }],
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: true }],
    ["tokenizer.ggml.add_eos_token", { type: "bool", value: false }],
    ["tokenizer.chat_template", { type: "string", value: opts.chatTemplate ?? CHATML_TEMPLATE }],
  ];
  return encodeGguf(meta, tensors);
}

/** Writes the tiny model to `file` and returns its path. */
export async function writeTinyLlamaGguf(file: string, opts: TinyLlamaOptions = {}): Promise<string> {
  await writeFile(file, buildTinyLlamaGguf(opts));
  return file;
}
