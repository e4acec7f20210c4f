'use strict';
// Replaces the global TextDecoder, TextEncoder, TextDecoderStream and TextEncoderStream with
// textcodec's, defined the way Web IDL defines interface objects on the global object
// (writable, configurable, not enumerable). `require('textcodec/polyfill')` or
// `import 'textcodec/polyfill'`.
const textcodec = require('./index.js');

for (const name of ['TextDecoder', 'TextEncoder', 'TextDecoderStream', 'TextEncoderStream']) {
  Object.defineProperty(globalThis, name, {
    value: textcodec[name],
    writable: true,
    enumerable: false,
    configurable: true,
  });
}

module.exports = textcodec;
