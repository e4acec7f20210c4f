// `import 'textcodec/polyfill'`: installs TextDecoder, TextEncoder, TextDecoderStream and
// TextEncoderStream on globalThis where the runtime's are missing or wrong.
export * from './index.js';
/** The names of the globals that were replaced. */
export declare const installed: string[];
