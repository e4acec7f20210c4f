// The ES module entry: loads the WebAssembly core (top-level await) and, in Node, the native
// addon when it is installed, then builds the API.
import { createCore } from './core.js';
import { createApi } from './api.js';
import { createDetect } from './detect.js';
import { loadWasm, nodeRequire } from './load.js';
import { loadNative, NATIVE_DECODERS, NATIVE_MIN_BYTES } from './native.js';
import { STRING_BUILDER } from './string-builder.js';

const loaded = await loadWasm();
// In Node, the native addon where it is installed and faster (src/native.js).
const node = await nodeRequire();
const native = loadNative(node && node.requireFn, node && node.from);
const api = createApi(createCore(loaded.instance, { ...loaded, stringBuilder: STRING_BUILDER }), native, NATIVE_DECODERS, NATIVE_MIN_BYTES,
  (helpers) => createDetect(helpers, loaded.detect));

export const {
  TextDecoder, TextEncoder, TextDecoderStream, TextEncoderStream,
  decode, encode, Decoder, Encoder, DecoderStream, EncoderStream,
  createDecodeTransform, createEncodeTransform,
  lookup, detect, sniff, loadDetect, encodings, backend, core,
} = api;
export default api;
