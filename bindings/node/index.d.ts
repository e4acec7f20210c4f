// Type declarations for the textcodec Node.js module: the Encoding Standard's API
// (https://encoding.spec.whatwg.org/#api), declared the way its Web IDL reads.

/** An ArrayBuffer, a SharedArrayBuffer or a view on either (AllowSharedBufferSource). */
export type AllowSharedBufferSource = ArrayBufferLike | ArrayBufferView;

export interface TextDecoderOptions {
  /** Throw a TypeError on malformed input instead of emitting U+FFFD. Default false. */
  fatal?: boolean;
  /** Keep a leading byte order mark (UTF-8, UTF-16BE/LE). Default false. */
  ignoreBOM?: boolean;
}

export interface TextDecodeOptions {
  /** More input follows: keep incomplete sequences for the next call. Default false. */
  stream?: boolean;
}

export interface TextEncoderEncodeIntoResult {
  /** UTF-16 code units of the source converted. */
  read: number;
  /** Bytes written to the destination. */
  written: number;
}

interface TextDecoderCommon {
  /** The encoding's name, lowercased (e.g. "shift_jis"). */
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
}

interface TextEncoderCommon {
  /** Always "utf-8". */
  readonly encoding: 'utf-8';
}

interface GenericTransformStream<I, O> {
  readonly readable: ReadableStream<O>;
  readonly writable: WritableStream<I>;
}

export declare class TextDecoder implements TextDecoderCommon {
  /** @throws RangeError for a label that is not a label, or a label of replacement. */
  constructor(label?: string, options?: TextDecoderOptions);
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  /** @throws TypeError in fatal mode on malformed input. */
  decode(input?: AllowSharedBufferSource, options?: TextDecodeOptions): string;
  readonly [Symbol.toStringTag]: 'TextDecoder';
}

export declare class TextEncoder implements TextEncoderCommon {
  constructor();
  readonly encoding: 'utf-8';
  /** UTF-8 bytes of `input`, lone surrogates replaced by U+FFFD. */
  encode(input?: string): Uint8Array;
  /** Encodes as much of `source` as fits, whole characters only. */
  encodeInto(source: string, destination: Uint8Array): TextEncoderEncodeIntoResult;
  readonly [Symbol.toStringTag]: 'TextEncoder';
}

export declare class TextDecoderStream
  implements TextDecoderCommon, GenericTransformStream<AllowSharedBufferSource, string>
{
  /** @throws RangeError for a label that is not a label, or a label of replacement. */
  constructor(label?: string, options?: TextDecoderOptions);
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  readonly readable: ReadableStream<string>;
  readonly writable: WritableStream<AllowSharedBufferSource>;
  readonly [Symbol.toStringTag]: 'TextDecoderStream';
}

export declare class TextEncoderStream
  implements TextEncoderCommon, GenericTransformStream<string, Uint8Array>
{
  constructor();
  readonly encoding: 'utf-8';
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<string>;
  readonly [Symbol.toStringTag]: 'TextEncoderStream';
}

// ---------------------------------------------------------------------------------------
// Not part of the Standard: statistical detection of unlabelled bytes.

export interface DetectOptions {
  /** The top-level domain of the URL the bytes came from (e.g. "jp", "ru"): a hint. */
  tld?: string;
  /** Whether UTF-8 may be the answer. Default true (browsers pass false for web pages). */
  allowUTF8?: boolean;
  /** The user's locale as a language tag (e.g. "ja-JP"): a hint. */
  locale?: string;
  /** Only these encodings (labels) may be the answer. An unknown label is a RangeError. */
  allow?: Iterable<string> | null;
  /** These encodings (labels) may not be the answer, e.g. ["utf-16le", "utf-16be"]. */
  deny?: Iterable<string> | null;
}

export interface DetectCandidate {
  /** The encoding's name, lowercased (e.g. "shift_jis"). */
  encoding: string;
  /** The probability that decoding with it gives the input's text; 0 when disqualified. */
  confidence: number;
  /** Its plausibility score, higher is better; null when not finite. */
  score: number | null;
  /** Its decoder finds a malformed sequence in the input, or the options rule it out. */
  disqualified: boolean;
  /** The options (allow, deny, allowUTF8) rule it out. */
  excluded: boolean;
}

export interface DetectResult {
  /** The guess, lowercased: `new TextDecoder(result.encoding)` decodes the bytes. */
  encoding: string;
  /** The probability that decoding with `encoding` gives the text, calibrated on held-out
   * text (of guesses with confidence 0.9, about nine in ten are right); 1 for ASCII-only
   * input, 0 for binary data. */
  confidence: number;
  /** The text's language ("ru", "ja") where the model knows it, else null. */
  language: string | null;
  /** The language's English name ("Russian"), else null. */
  languageName: string | null;
  /** Not text: the binary format ("PNG", "gzip", "control bytes"), else null. */
  binary: string | null;
  /** The guess's score; null when not finite. */
  score: number | null;
  /** The guess's score minus the runner-up's: the larger, the surer. */
  margin: number | null;
  /** No byte told the encodings apart: the guess is the hints' default. */
  asciiOnly: boolean;
  /** The detector had enough evidence before the end of the input and stopped looking. */
  stoppedEarly: boolean;
  /** Every candidate (UTF-8, the single-byte encodings, GBK, gb18030, Big5, EUC-JP,
   * ISO-2022-JP, Shift_JIS, EUC-KR, UTF-16LE and UTF-16BE without a byte order mark), best
   * first, disqualified ones last. */
  ranking: DetectCandidate[];
}

/**
 * Guesses the encoding of bytes that came without a label (no BOM, header or <meta>), as
 * browsers do after their other sniffing steps found nothing.
 * @throws TypeError if `input` is not a buffer source or `options` not an object.
 */
export declare function detect(input: AllowSharedBufferSource, options?: DetectOptions): DetectResult;
