// textcodec/iconv-lite: iconv-lite's API over the Encoding Standard's encodings.
import type { Transform } from 'node:stream';

export interface DecodeOptions { stripBOM?: boolean }
export interface EncodeOptions { addBOM?: boolean }
export interface IconvDecoder { write(bytes: Uint8Array): string; end(): string | undefined }
export interface IconvEncoder { write(text: string): Uint8Array; end(): Uint8Array | undefined }
export interface CollectingTransform<T> extends Transform { collect(callback: (error: Error | null, result: T) => void): this }

export declare function decode(bytes: Uint8Array, encoding: string, options?: DecodeOptions): string;
/** A Buffer in Node.js, a Uint8Array elsewhere. Characters the encoding lacks become "?". */
export declare function encode(text: string, encoding: string, options?: EncodeOptions): Uint8Array;
export declare function encodingExists(encoding: string): boolean;
export declare function getDecoder(encoding: string, options?: DecodeOptions): IconvDecoder;
export declare function getEncoder(encoding: string, options?: EncodeOptions): IconvEncoder;
export declare function decodeStream(encoding: string, options?: DecodeOptions): CollectingTransform<string>;
export declare function encodeStream(encoding: string, options?: EncodeOptions): CollectingTransform<Uint8Array>;
export declare const toEncoding: typeof encode;
export declare const fromEncoding: typeof decode;
declare const iconv: {
  decode: typeof decode; encode: typeof encode; encodingExists: typeof encodingExists;
  getDecoder: typeof getDecoder; getEncoder: typeof getEncoder; decodeStream: typeof decodeStream;
  encodeStream: typeof encodeStream; toEncoding: typeof encode; fromEncoding: typeof decode;
};
export default iconv;
