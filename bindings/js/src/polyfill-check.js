// Which of the runtime's Encoding API classes to replace: a missing class, or one that gets
// a known case of the Standard wrong (checked on a few bytes, once).

export function installPolyfill(api) {
  const installed = [];
  const define = (name) => {
    Object.defineProperty(globalThis, name, {
      value: api[name], writable: true, enumerable: false, configurable: true,
    });
    installed.push(name);
  };
  if (!decoderIsRight(globalThis.TextDecoder)) define('TextDecoder');
  if (typeof globalThis.TextEncoder !== 'function') define('TextEncoder');
  // The stream classes follow the decoder: a stream over a wrong decoder is wrong too.
  if (typeof globalThis.TextDecoderStream !== 'function' || installed.includes('TextDecoder')) {
    define('TextDecoderStream');
  }
  if (typeof globalThis.TextEncoderStream !== 'function') define('TextEncoderStream');
  return installed;
}

const CHECKS = [
  // [label, bytes, expected]: cases engines have got wrong.
  ['windows-1252', [0x80, 0x81, 0x9F], '\u20AC\u0081\u0178'],
  ['shift_jis', [0x80, 0x82, 0xA0, 0xFF], '\u0080\u3042\uFFFD'],
  ['gb18030', [0x81, 0x30, 0x81, 0x30, 0xA6, 0xD9], '\u0080\uFE10'],
  ['big5', [0x88, 0x62], '\u00CA\u0304'],
  ['iso-8859-2', [0xA1], '\u0104'],
  ['koi8-r', [0xC1], '\u0430'],
  ['iso-2022-jp', [0x1B, 0x24, 0x42, 0x30, 0x21, 0x1B, 0x28, 0x42], '\u4E9C'],
  ['x-user-defined', [0x80], '\uF780'],
  ['utf-8', [0xF0, 0x90, 0x80], '\uFFFD'],
];

function decoderIsRight(Ctor) {
  if (typeof Ctor !== 'function') return false;
  try {
    for (const [label, bytes, expected] of CHECKS) {
      if (new Ctor(label).decode(new Uint8Array(bytes)) !== expected) return false;
    }
    return true;
  } catch {
    return false;
  }
}
