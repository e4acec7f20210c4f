// Types of the textcodec package (ES module and CommonJS entries).

/** Bytes: any buffer source, or an array of byte values. */
export type Bytes = ArrayBuffer | SharedArrayBuffer | ArrayBufferView | ArrayLike<number>;

export interface TextDecoderOptions { fatal?: boolean; ignoreBOM?: boolean }
export interface TextDecodeOptions { stream?: boolean }

/** The Encoding Standard's TextDecoder (every encoding but replacement). */
export declare class TextDecoder {
  constructor(label?: string, options?: TextDecoderOptions);
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  decode(input?: AllowSharedBufferSource, options?: TextDecodeOptions): string;
}
/** The Encoding Standard's TextEncoder (UTF-8). */
export declare class TextEncoder {
  constructor();
  readonly encoding: 'utf-8';
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
export declare class TextDecoderStream {
  constructor(label?: string, options?: TextDecoderOptions);
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  readonly readable: ReadableStream<string>;
  readonly writable: WritableStream<AllowSharedBufferSource>;
}
export declare class TextEncoderStream {
  constructor();
  readonly encoding: 'utf-8';
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<string>;
}

/** "sniff": a UTF-8/UTF-16 BOM overrides the label and is removed (the Standard's *decode*); "remove": only the label's own BOM is removed; "keep": no BOM handling. */
export type BomMode = 'sniff' | 'remove' | 'keep';
export interface DecodeOptions {
  /** Throw a TypeError (naming the bytes and their offset) on malformed input instead of writing U+FFFD. */
  fatal?: boolean;
  bom?: BomMode;
}
/** "fatal": TypeError naming the character and its index (*encode or fail*); "html": &#NNNN; (*encode*); "replace": ?. */
export type EncodeErrors = 'fatal' | 'html' | 'replace';
export interface EncodeOptions { errors?: EncodeErrors }

/** Decodes bytes in any of the Standard's 40 encodings (default UTF-8). */
export declare function decode(bytes: Bytes, label?: string, options?: DecodeOptions): string;
/** Encodes a string in any encoding with an encoder (all but replacement; UTF-16LE/BE included). */
export declare function encode(text: string, label?: string, options?: EncodeOptions): Uint8Array;

export declare class Decoder {
  constructor(label?: string, options?: DecodeOptions);
  /** The encoding's name as the Standard spells it ("Shift_JIS"). */
  readonly encoding: string;
  readonly fatal: boolean;
  /** With {stream: true}, a sequence cut at the end waits for the next chunk; otherwise the stream ends. */
  decode(bytes?: Bytes, options?: { stream?: boolean }): string;
  reset(): void;
}
export declare class Encoder {
  constructor(label?: string, options?: EncodeOptions);
  readonly encoding: string;
  /** With {stream: true}, ISO-2022-JP's state and a trailing high surrogate carry over; otherwise the stream ends. */
  encode(text?: string, options?: { stream?: boolean }): Uint8Array;
  reset(): void;
}
export declare class DecoderStream {
  constructor(label?: string, options?: DecodeOptions);
  readonly encoding: string;
  readonly readable: ReadableStream<string>;
  readonly writable: WritableStream<Bytes>;
}
export declare class EncoderStream {
  constructor(label?: string, options?: EncodeOptions);
  readonly encoding: string;
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<string>;
}
/** Node.js only: a stream.Transform from bytes to strings. */
export declare function createDecodeTransform(label?: string, options?: DecodeOptions): import('node:stream').Transform;
/** Node.js only: a stream.Transform from strings to bytes. */
export declare function createEncodeTransform(label?: string, options?: EncodeOptions): import('node:stream').Transform;

export interface EncodingInfo { name: string; labels: string[]; hasEncoder: boolean; singleByte: boolean }
/** *Get an encoding*: the encoding a label names, or null. */
export declare function lookup(label: string): EncodingInfo | null;
/** The 40 encodings' names, in the Standard's order. */
export declare function encodings(): string[];

export interface DetectOptions {
  tld?: string; locale?: string; allowUTF8?: boolean; allow?: Iterable<string>; deny?: Iterable<string>;
}
export interface DetectCandidate {
  encoding: string; confidence: number; score: number | null; disqualified: boolean; excluded: boolean;
}
export interface DetectResult {
  encoding: string; confidence: number; language: string | null; languageName: string | null;
  binary: string | null; score: number | null; margin: number | null; asciiOnly: boolean;
  stoppedEarly: boolean; ranking: DetectCandidate[];
}
/** The statistical detector for bytes that came with no label. */
export declare function detect(bytes: Bytes, options?: DetectOptions): DetectResult;

export interface SniffOptions {
  contentType?: string; kind?: 'html' | 'xml' | 'css' | 'text' | 'json'; userOverride?: string;
  fallback?: string; locale?: string; detect?: boolean; tld?: string;
}
export interface SniffResult {
  encoding: string; confidence: 'certain' | 'tentative' | 'irrelevant'; source: string;
  kind: string; bomLength: number; detection: { encoding: string; confidence: number } | null;
}
/** A web resource's encoding as a browser picks it: BOM > Content-Type > <meta> (or XML/CSS rules) > fallbacks. */
export declare function sniff(bytes: Bytes, options?: SniffOptions): SniffResult;
/**
 * Loads the module detect() and sniff() run on (a second WebAssembly module). Node, Deno and
 * Bun load it synchronously on the first call, so there it is never needed; a browser page
 * awaits it once before its first detect() or sniff(), which throw until then.
 */
export declare function loadDetect(): Promise<void>;

export declare const backend: {
  kind: 'wasm'; simd: boolean; kernel: string;
  /** How strings leave the core (it hands text over as UTF-16) and enter it. */
  strings: { utf16: string; input: string };
  /** The native addon's decoders in use (Node with textcodec-native installed), or null. */
  native: { decoders: string[]; minBytes: number } | null;
};
/**
 * The core in use: "native" when the native addon (textcodec-native) is loaded, in Node —
 * it then decodes the encodings in backend.native.decoders (whole inputs from minBytes up) and the wasm core does the rest —
 * else the WebAssembly build. TEXTCODEC_NATIVE=0 keeps the wasm core; TEXTCODEC_NATIVE=1
 * requires the addon.
 */
export declare const core: 'native' | 'wasm-simd' | 'wasm-plain';

declare const textcodec: {
  TextDecoder: typeof TextDecoder; TextEncoder: typeof TextEncoder;
  TextDecoderStream: typeof TextDecoderStream; TextEncoderStream: typeof TextEncoderStream;
  decode: typeof decode; encode: typeof encode; Decoder: typeof Decoder; Encoder: typeof Encoder;
  DecoderStream: typeof DecoderStream; EncoderStream: typeof EncoderStream;
  createDecodeTransform: typeof createDecodeTransform; createEncodeTransform: typeof createEncodeTransform;
  lookup: typeof lookup; encodings: typeof encodings; detect: typeof detect; sniff: typeof sniff; loadDetect: typeof loadDetect;
  core: typeof core;
  backend: typeof backend;
};
export default textcodec;
