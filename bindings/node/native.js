'use strict';
// Loads the compiled addon (`npm run build` writes textcodec.node next to this file).
let binding;
try {
  binding = require('./textcodec.node');
} catch (error) {
  const hint = new Error(
    'textcodec: the native addon (textcodec.node) could not be loaded. ' +
      'Build it with `npm ci && npm run build` in the package directory ' +
      '(needs a Rust toolchain). Cause: ' + (error && error.message),
  );
  hint.cause = error;
  throw hint;
}
module.exports = binding;
