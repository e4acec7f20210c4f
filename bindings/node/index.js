'use strict';
// The Web IDL layer of the textcodec module: TextDecoder, TextEncoder, TextDecoderStream and
// TextEncoderStream as https://encoding.spec.whatwg.org/#api defines them. This file only
// converts arguments the way Web IDL does, checks brands, throws the Standard's exceptions
// and wires the streams; the conversions themselves run in Rust (src/lib.rs, textcodec::api).

const native = require('./native.js');
const { types } = require('node:util');

// Intrinsics captured at load, so that later changes to the globals or prototypes by other
// code cannot change what these classes do.
const {
  Uint8Array,
  Float64Array,
  TypeError,
  RangeError,
  TransformStream,
  Object: { defineProperty, getOwnPropertyDescriptor, getPrototypeOf },
  Function: { prototype: { call } },
} = globalThis;
const uncurryThis = (fn) => call.bind(fn);
const getter = (proto, name) => uncurryThis(getOwnPropertyDescriptor(proto, name).get);
const method = (proto, name) => uncurryThis(proto[name]);

const TypedArrayPrototype = getPrototypeOf(Uint8Array.prototype);
const typedArrayBuffer = getter(TypedArrayPrototype, 'buffer');
const typedArrayByteOffset = getter(TypedArrayPrototype, 'byteOffset');
const typedArrayByteLength = getter(TypedArrayPrototype, 'byteLength');
const typedArraySet = method(TypedArrayPrototype, 'set');
const typedArraySubarray = method(TypedArrayPrototype, 'subarray');
const dataViewBuffer = getter(DataView.prototype, 'buffer');
const dataViewByteOffset = getter(DataView.prototype, 'byteOffset');
const dataViewByteLength = getter(DataView.prototype, 'byteLength');
const arrayBufferByteLength = getter(ArrayBuffer.prototype, 'byteLength');
const sharedArrayBufferByteLength = getter(SharedArrayBuffer.prototype, 'byteLength');
// Resizable ArrayBuffers and growable SharedArrayBuffers (absent from older engines).
const resizableDesc = getOwnPropertyDescriptor(ArrayBuffer.prototype, 'resizable');
const arrayBufferResizable = resizableDesc ? uncurryThis(resizableDesc.get) : () => false;
const growableDesc = getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'growable');
const sharedArrayBufferGrowable = growableDesc ? uncurryThis(growableDesc.get) : () => false;

const {
  isArrayBuffer,
  isSharedArrayBuffer,
  isArrayBufferView,
  isUint8Array,
  isDataView,
} = types;

const {
  NativeDecoder,
  NativeDecoderStream,
  NativeEncoderStream,
  encode: nativeEncode,
  encodeInto: nativeEncodeInto,
  encodingForLabel,
  detect: nativeDetect,
} = native;

const EMPTY = new Uint8Array(0);

// ---------------------------------------------------------------------------------------
// Web IDL conversions

/** ECMAScript value → DOMString (ToString: symbols throw a TypeError). */
function toDOMString(value) {
  if (typeof value === 'string') return value;
  if (typeof value === 'symbol') {
    throw new TypeError('Cannot convert a Symbol value to a string');
  }
  return `${value}`;
}

/** Checks that a value can be converted to a dictionary; returns false for undefined/null. */
function isDictionary(value, context) {
  if (value === undefined || value === null) return false;
  const type = typeof value;
  if (type !== 'object' && type !== 'function') {
    throw new TypeError(`${context}: the options argument is not an object`);
  }
  return true;
}

// The result of toBufferView: a Uint8Array over exactly the bytes of the buffer source,
// and whether that memory is shared (then it must be copied before use).
let viewIsShared = false;

function notResizable(context) {
  return new TypeError(`${context}: resizable or growable buffers are not allowed`);
}

/**
 * ECMAScript value → AllowSharedBufferSource (ArrayBuffer, SharedArrayBuffer or any
 * ArrayBufferView), as a Uint8Array view of its bytes (no copy). A detached buffer has no
 * bytes. Throws TypeError for anything else, and for resizable/growable buffers (the IDL
 * type has no [AllowResizable]).
 */
function toBufferView(value, context) {
  viewIsShared = false;
  if (isArrayBufferView(value)) {
    let buffer, offset, length;
    if (isDataView(value)) {
      buffer = dataViewBuffer(value);
      try {
        offset = dataViewByteOffset(value);
        length = dataViewByteLength(value);
      } catch {
        // Only a detached buffer makes these throw here: no bytes.
        offset = 0;
        length = 0;
      }
    } else {
      buffer = typedArrayBuffer(value);
      offset = typedArrayByteOffset(value);
      length = typedArrayByteLength(value);
    }
    if (isSharedArrayBuffer(buffer)) {
      if (sharedArrayBufferGrowable(buffer)) throw notResizable(context);
      viewIsShared = true;
    } else if (arrayBufferResizable(buffer)) {
      throw notResizable(context);
    }
    if (length === 0) return EMPTY;
    if (isUint8Array(value)) return value;
    return new Uint8Array(buffer, offset, length);
  }
  if (isArrayBuffer(value)) {
    if (arrayBufferResizable(value)) throw notResizable(context);
    // A detached ArrayBuffer's byteLength is 0.
    return arrayBufferByteLength(value) === 0 ? EMPTY : new Uint8Array(value);
  }
  if (isSharedArrayBuffer(value)) {
    if (sharedArrayBufferGrowable(value)) throw notResizable(context);
    viewIsShared = true;
    return sharedArrayBufferByteLength(value) === 0 ? EMPTY : new Uint8Array(value);
  }
  throw new TypeError(
    `${context}: the input is not an ArrayBuffer, a SharedArrayBuffer or an ArrayBufferView`,
  );
}

/**
 * "Get a copy of the buffer source" for a view from toBufferView: shared memory is copied
 * now (other threads may write to it); other memory cannot change during the synchronous
 * native call, so the native side reads it in place.
 */
function snapshot(view, shared) {
  return shared ? new Uint8Array(view) : view;
}

function decoderOptions(options, context) {
  // Dictionary members are read in lexicographic order: fatal, then ignoreBOM.
  if (!isDictionary(options, context)) return [false, false];
  const fatal = !!options.fatal;
  const ignoreBOM = !!options.ignoreBOM;
  return [fatal, ignoreBOM];
}

function labelToEncoding(label, context) {
  const name = encodingForLabel(label);
  if (name === null) {
    throw new RangeError(`${context}: the encoding label "${label}" is not supported`);
  }
  return name;
}

function illegalInvocation(interfaceName) {
  return new TypeError(`Illegal invocation: the receiver is not a ${interfaceName}`);
}

function invalidData(encoding) {
  return new TypeError(`The encoded data is not valid ${encoding}`);
}

// ---------------------------------------------------------------------------------------
// TextDecoder

class TextDecoder {
  #native;
  #encoding;
  #fatal;
  #ignoreBOM;

  constructor(label = undefined, options = undefined) {
    const context = "Failed to construct 'TextDecoder'";
    label = label === undefined ? 'utf-8' : toDOMString(label);
    const [fatal, ignoreBOM] = decoderOptions(options, context);
    this.#encoding = labelToEncoding(label, context);
    this.#fatal = fatal;
    this.#ignoreBOM = ignoreBOM;
    this.#native = new NativeDecoder(label, fatal, ignoreBOM);
  }

  get encoding() {
    if (!(#native in this)) throw illegalInvocation('TextDecoder');
    return this.#encoding;
  }

  get fatal() {
    if (!(#native in this)) throw illegalInvocation('TextDecoder');
    return this.#fatal;
  }

  get ignoreBOM() {
    if (!(#native in this)) throw illegalInvocation('TextDecoder');
    return this.#ignoreBOM;
  }

  decode(input = undefined, options = undefined) {
    if (!(#native in this)) throw illegalInvocation('TextDecoder');
    const context = "Failed to execute 'decode' on 'TextDecoder'";
    let view, shared = false;
    if (input !== undefined) {
      view = toBufferView(input, context);
      shared = viewIsShared;
    }
    const stream = isDictionary(options, context) ? !!options.stream : false;
    const output = this.#native.decode(
      view === undefined ? undefined : snapshot(view, shared),
      stream,
    );
    if (output === null) throw invalidData(this.#encoding);
    return output;
  }
}

// ---------------------------------------------------------------------------------------
// TextEncoder

// encodeInto's result slots: [read, written], filled by the native side.
const encodeIntoResult = new Float64Array(2);

class TextEncoder {
  // TextEncoder has no state; the field exists for the brand check.
  #brand = true;

  // eslint-disable-next-line no-useless-constructor
  constructor() {}

  get encoding() {
    if (!(#brand in this)) throw illegalInvocation('TextEncoder');
    return 'utf-8';
  }

  encode(input = '') {
    if (!(#brand in this)) throw illegalInvocation('TextEncoder');
    return nativeEncode(toDOMString(input));
  }

  encodeInto(source, destination) {
    if (!(#brand in this)) throw illegalInvocation('TextEncoder');
    const context = "Failed to execute 'encodeInto' on 'TextEncoder'";
    if (arguments.length < 2) {
      throw new TypeError(`${context}: 2 arguments required, but only ${arguments.length} present`);
    }
    source = toDOMString(source);
    if (!isUint8Array(destination)) {
      throw new TypeError(`${context}: the destination is not a Uint8Array`);
    }
    const buffer = typedArrayBuffer(destination);
    const result = encodeIntoResult;
    if (isSharedArrayBuffer(buffer)) {
      if (sharedArrayBufferGrowable(buffer)) throw notResizable(context);
      // Shared memory may be written by other threads: encode privately, then copy in.
      const scratch = new Uint8Array(typedArrayByteLength(destination));
      nativeEncodeInto(source, scratch, result);
      typedArraySet(destination, typedArraySubarray(scratch, 0, result[1]));
    } else {
      if (arrayBufferResizable(buffer)) throw notResizable(context);
      nativeEncodeInto(source, destination, result);
    }
    return { read: result[0], written: result[1] };
  }
}

// ---------------------------------------------------------------------------------------
// TextDecoderStream and TextEncoderStream

class TextDecoderStream {
  #transform;
  #encoding;
  #fatal;
  #ignoreBOM;

  constructor(label = undefined, options = undefined) {
    const context = "Failed to construct 'TextDecoderStream'";
    label = label === undefined ? 'utf-8' : toDOMString(label);
    const [fatal, ignoreBOM] = decoderOptions(options, context);
    const encoding = labelToEncoding(label, context);
    this.#encoding = encoding;
    this.#fatal = fatal;
    this.#ignoreBOM = ignoreBOM;
    const state = new NativeDecoderStream(label, fatal, ignoreBOM);
    const chunkContext = "Failed to execute 'transform' on 'TextDecoderStream'";
    this.#transform = new TransformStream({
      __proto__: null,
      // decode and enqueue a chunk
      transform(chunk, controller) {
        const view = toBufferView(chunk, chunkContext);
        const output = state.transform(snapshot(view, viewIsShared));
        if (output === null) throw invalidData(encoding);
        if (output !== '') controller.enqueue(output);
      },
      // flush and enqueue
      flush(controller) {
        const output = state.flush();
        if (output === null) throw invalidData(encoding);
        if (output !== '') controller.enqueue(output);
      },
    });
  }

  get encoding() {
    if (!(#transform in this)) throw illegalInvocation('TextDecoderStream');
    return this.#encoding;
  }

  get fatal() {
    if (!(#transform in this)) throw illegalInvocation('TextDecoderStream');
    return this.#fatal;
  }

  get ignoreBOM() {
    if (!(#transform in this)) throw illegalInvocation('TextDecoderStream');
    return this.#ignoreBOM;
  }

  get readable() {
    if (!(#transform in this)) throw illegalInvocation('TextDecoderStream');
    return this.#transform.readable;
  }

  get writable() {
    if (!(#transform in this)) throw illegalInvocation('TextDecoderStream');
    return this.#transform.writable;
  }
}

class TextEncoderStream {
  #transform;

  constructor() {
    const state = new NativeEncoderStream();
    this.#transform = new TransformStream({
      __proto__: null,
      // encode and enqueue a chunk
      transform(chunk, controller) {
        const output = state.transform(toDOMString(chunk));
        if (typedArrayByteLength(output) !== 0) controller.enqueue(output);
      },
      // encode and flush
      flush(controller) {
        const output = state.flush();
        if (output !== null) controller.enqueue(output);
      },
    });
  }

  get encoding() {
    if (!(#transform in this)) throw illegalInvocation('TextEncoderStream');
    return 'utf-8';
  }

  get readable() {
    if (!(#transform in this)) throw illegalInvocation('TextEncoderStream');
    return this.#transform.readable;
  }

  get writable() {
    if (!(#transform in this)) throw illegalInvocation('TextEncoderStream');
    return this.#transform.writable;
  }
}

// ---------------------------------------------------------------------------------------
// Web IDL property shapes: operations and attributes are enumerable; the prototype has a
// Symbol.toStringTag; the interface objects' `length` comes from the constructors' default
// parameters (0 for all four).

function defineInterface(cls) {
  const proto = cls.prototype;
  for (const key of Reflect.ownKeys(proto)) {
    if (key === 'constructor') continue;
    const desc = getOwnPropertyDescriptor(proto, key);
    desc.enumerable = true;
    defineProperty(proto, key, desc);
  }
  defineProperty(proto, Symbol.toStringTag, {
    value: cls.name,
    writable: false,
    enumerable: false,
    configurable: true,
  });
  return cls;
}

// ---------------------------------------------------------------------------------------
// detect: not part of the Standard. The statistical detector (textcodec::detect) for bytes
// that came with no label, as browsers run one after the <meta> prescan.

/**
 * Guesses the encoding of unlabelled bytes. `options`: `tld` (the URL's top-level domain,
 * e.g. "jp"), `allowUTF8` (default true), `locale` (a language tag such as "ja-JP"),
 * `allow` and `deny` (iterables of encoding labels: the only encodings that may be the
 * answer, and encodings that may not; an unknown label is a RangeError).
 */
function detect(input, options = undefined) {
  const context = "Failed to execute 'detect'";
  const view = toBufferView(input, context);
  const shared = viewIsShared;
  let allow = null;
  let allowUTF8 = true;
  let deny = null;
  let locale = null;
  let tld = null;
  const labels = (value) => Array.from(value, (label) => labelToEncoding(toDOMString(label), context));
  // Dictionary members in lexicographic order, as Web IDL reads them.
  if (isDictionary(options, context)) {
    if (options.allow !== undefined && options.allow !== null) allow = labels(options.allow);
    if (options.allowUTF8 !== undefined) allowUTF8 = !!options.allowUTF8;
    if (options.deny !== undefined && options.deny !== null) deny = labels(options.deny);
    if (options.locale !== undefined) locale = toDOMString(options.locale);
    if (options.tld !== undefined) tld = toDOMString(options.tld);
  }
  const result = nativeDetect(snapshot(view, shared), tld, allowUTF8, locale, allow, deny);
  // Absent optional members come back undefined: null, as the types say.
  for (const key of ['language', 'languageName', 'binary']) result[key] ??= null;
  return result;
}

defineInterface(TextDecoder);
defineInterface(TextEncoder);
defineInterface(TextDecoderStream);
defineInterface(TextEncoderStream);

module.exports = {
  detect,
  TextDecoder,
  TextEncoder,
  TextDecoderStream,
  TextEncoderStream,
};
