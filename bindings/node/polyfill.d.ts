// `require('textcodec/polyfill')` replaces the global TextDecoder, TextEncoder,
// TextDecoderStream and TextEncoderStream with textcodec's and returns the module.
export * from './index';
