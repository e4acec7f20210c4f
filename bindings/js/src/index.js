// The ES module entry: loads the WebAssembly core (top-level await), then builds the API.
import { createCore } from './core.js';
import { createApi } from './api.js';
import { loadWasm } from './load.js';

const loaded = await loadWasm();
const api = createApi(createCore(loaded.instance, loaded));

export const {
  TextDecoder, TextEncoder, TextDecoderStream, TextEncoderStream,
  decode, encode, Decoder, Encoder, DecoderStream, EncoderStream,
  createDecodeTransform, createEncodeTransform,
  lookup, detect, sniff, encodings, backend,
} = api;
export default api;
