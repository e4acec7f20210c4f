// The package's API over a core (src/core.js): the Standard's TextDecoder, TextEncoder,
// TextDecoderStream and TextEncoderStream (Web IDL conversions, brand checks, the Standard's
// exceptions), and the legacy API: decode, encode, Decoder, Encoder, DecoderStream,
// EncoderStream, lookup; detect and sniff come from src/detect.js (`makeDetect`). No
// imports (see core.js).

export function createApi(core, native = null, nativeDecoders = [], nativeMinBytes = 0, makeDetect = null) {
  const {
    Uint8Array, TypeError, RangeError,
    Object: { defineProperty, getOwnPropertyDescriptor, getPrototypeOf },
    Function: { prototype: { call } },
  } = globalThis;
  // Looked up on first use: in Node, reading globalThis.TransformStream loads the web
  // streams implementation, 1.5–10 ms of a cold start (most of a first call's JavaScript).
  let TransformStreamCtor;
  const uncurryThis = (fn) => call.bind(fn);
  const getterOf = (proto, name) => {
    const d = proto && getOwnPropertyDescriptor(proto, name);
    return d && d.get ? uncurryThis(d.get) : null;
  };
  const TypedArrayPrototype = getPrototypeOf(Uint8Array.prototype);
  const typedArrayBuffer = getterOf(TypedArrayPrototype, 'buffer');
  const typedArrayByteOffset = getterOf(TypedArrayPrototype, 'byteOffset');
  const typedArrayByteLength = getterOf(TypedArrayPrototype, 'byteLength');
  const typedArrayTag = getterOf(TypedArrayPrototype, Symbol.toStringTag);
  const dataViewBuffer = getterOf(DataView.prototype, 'buffer');
  const dataViewByteOffset = getterOf(DataView.prototype, 'byteOffset');
  const dataViewByteLength = getterOf(DataView.prototype, 'byteLength');
  const arrayBufferByteLength = getterOf(ArrayBuffer.prototype, 'byteLength');
  const arrayBufferResizable = getterOf(ArrayBuffer.prototype, 'resizable') ?? (() => false);
  const SAB = globalThis.SharedArrayBuffer;
  const sabByteLength = SAB ? getterOf(SAB.prototype, 'byteLength') : null;
  const sabGrowable = (SAB && getterOf(SAB.prototype, 'growable')) ?? (() => false);
  const isArrayBufferView = ArrayBuffer.isView;

  // Encoding names come from the core on first use (core.nameOf): a first decode needs none.
  const { w, nameOf, lowerNameOf, REPLACEMENT, UTF8, GBK, EUC_KR } = core;
  // The library's ISO-2022-JP encoder is about twice as fast from UTF-8 as from UTF-16
  // (159 against 80 MB/s, one process): its input goes in as UTF-8 even where a UTF-16 copy
  // is available.
  const ISO_2022_JP = core.ISO_2022_JP;
  // Single-byte and stateless double-byte encoders take code units: one table load each
  // (the core's fast paths, wasm/src/encode.rs and cjk.rs), also where they must be copied
  // in one by one (charCodeAt) rather than by Buffer#ucs2Write.
  const form = (id) => (id === ISO_2022_JP ? 'utf8' : id > UTF8 && id <= EUC_KR ? 'units' : '');
  const EMPTY = new Uint8Array(0);

  // The native addon's decoders (src/native.js), for the encodings where it is faster.
  const nativeIds = native === null ? null : new Set(nativeDecoders.map((n) => core.labelId(n)));
  const routed = (id, length) => nativeIds !== null && length >= nativeMinBytes && length !== 0 && nativeIds.has(id);
  // One addon decoder per encoding and fatal flag for decode(): a call without `stream`
  // starts a new stream, so one instance serves every call.
  const nativeOneShot = new Map();

  // ---- Web IDL conversions

  function toDOMString(value) {
    if (typeof value === 'string') return value;
    if (typeof value === 'symbol') throw new TypeError('Cannot convert a Symbol value to a string');
    return `${value}`;
  }

  function isDictionary(value, context) {
    if (value === undefined || value === null) return false;
    const type = typeof value;
    if (type !== 'object' && type !== 'function') {
      throw new TypeError(`${context}: the options argument is not an object`);
    }
    return true;
  }

  const brand = (get, value) => {
    if (get === null) return false;
    try { get(value); return true; } catch { return false; }
  };
  // instanceof answers for this realm's buffers without an exception (a failed brand check
  // throws, which costs microseconds); the brand checks cover other realms' buffers.
  const isArrayBuffer = (v) => v instanceof ArrayBuffer ||
    (!(SAB && v instanceof SAB) && typeof v === 'object' && v !== null && brand(arrayBufferByteLength, v));
  const isSharedArrayBuffer = (v) => (SAB !== undefined && v instanceof SAB) ||
    (!(v instanceof ArrayBuffer) && typeof v === 'object' && v !== null && brand(sabByteLength, v));
  const isUint8Array = (v) => isArrayBufferView(v) && typedArrayTag(v) === 'Uint8Array';

  function notResizable(context) {
    return new TypeError(`${context}: resizable or growable buffers are not allowed`);
  }

  /**
   * AllowSharedBufferSource → a Uint8Array over its bytes (no copy; the core copies them
   * into its memory). A detached buffer has no bytes.
   */
  function toBufferView(value, context) {
    if (isArrayBufferView(value)) {
      let buffer, offset, length;
      if (typedArrayTag(value) === undefined) {
        buffer = dataViewBuffer(value);
        try {
          offset = dataViewByteOffset(value);
          length = dataViewByteLength(value);
        } catch {
          offset = 0;
          length = 0;
        }
      } else {
        buffer = typedArrayBuffer(value);
        offset = typedArrayByteOffset(value);
        length = typedArrayByteLength(value);
      }
      if (isSharedArrayBuffer(buffer)) {
        if (sabGrowable(buffer)) throw notResizable(context);
      } else if (arrayBufferResizable(buffer)) {
        throw notResizable(context);
      }
      if (length === 0) return EMPTY;
      if (typedArrayTag(value) === 'Uint8Array') return value;
      return new Uint8Array(buffer, offset, length);
    }
    if (isArrayBuffer(value)) {
      if (arrayBufferResizable(value)) throw notResizable(context);
      return arrayBufferByteLength(value) === 0 ? EMPTY : new Uint8Array(value);
    }
    if (isSharedArrayBuffer(value)) {
      if (sabGrowable(value)) throw notResizable(context);
      return sabByteLength(value) === 0 ? EMPTY : new Uint8Array(value);
    }
    throw new TypeError(
      `${context}: the input is not an ArrayBuffer, a SharedArrayBuffer or an ArrayBufferView`,
    );
  }

  function decoderOptions(options, context) {
    if (!isDictionary(options, context)) return [false, false];
    const fatal = !!options.fatal;
    const ignoreBOM = !!options.ignoreBOM;
    return [fatal, ignoreBOM];
  }

  function textDecoderEncoding(label, context) {
    const id = core.labelId(label);
    if (id < 0 || id === REPLACEMENT) {
      throw new RangeError(`${context}: the encoding label "${label}" is not supported`);
    }
    return id;
  }

  const illegalInvocation = (name) =>
    new TypeError(`Illegal invocation: the receiver is not a ${name}`);
  const invalidData = (id) => new TypeError(`The encoded data is not valid ${lowerNameOf(id)}`);

  // Handles are freed when their object is collected (where the engine has a registry).
  const registry = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry(([free, h]) => free(h)) : null;
  const track = (object, free, h) => { if (registry !== null) registry.register(object, [free, h]); };

  /**
   * The addon reads the bytes in place during the call; shared memory, which other threads
   * may write meanwhile, is copied first (the Standard's *get a copy of the buffer source*).
   */
  const nativeBytes = (view) => (isSharedArrayBuffer(typedArrayBuffer(view)) ? new Uint8Array(view) : view);

  /**
   * A whole stream (one call without `stream`) through the addon: the text, or null for
   * malformed input in fatal mode. One addon decoder per encoding and fatal flag serves
   * every call (each starts a new stream). The BOM is never that of these encodings.
   */
  function nativeDecode(id, fatal, view) {
    const key = fatal ? -1 - id : id;
    let d = nativeOneShot.get(key);
    if (d === undefined) {
      d = new native.NativeDecoder(lowerNameOf(id), fatal, true);
      nativeOneShot.set(key, d);
    }
    return d.decode(nativeBytes(view), false);
  }

  /** A TextDecoder's state in the core: decode(view or undefined, stream) → string. */
  function textDecoderState(id, fatal, ignoreBOM) {
    const h = w.tc_td_new(id, fatal ? 1 : 0, ignoreBOM ? 1 : 0);
    // Whether a stream is under way (the last call had stream: true): only a call that
    // starts and ends a stream can go to the addon.
    let streaming = false;
    return {
      h,
      decode(view, stream) {
        if (!streaming && !stream && view !== undefined && routed(id, view.length)) {
          const out = nativeDecode(id, fatal, view);
          if (out === null) throw invalidData(id);
          return out;
        }
        streaming = stream;
        let status;
        if (view === undefined || view.length === 0) {
          status = w.tc_td_decode(h, 0, 0, stream ? 1 : 0);
        } else {
          const p = core.putBytes(view);
          status = w.tc_td_decode(h, p, view.length, stream ? 1 : 0);
        }
        if (status !== 0) throw invalidData(id);
        return core.output();
      },
    };
  }

  // ---- TextDecoder

  class TextDecoder {
    #state;
    #encoding;
    #fatal;
    #ignoreBOM;

    constructor(label = undefined, options = undefined) {
      const context = "Failed to construct 'TextDecoder'";
      label = label === undefined ? 'utf-8' : toDOMString(label);
      const [fatal, ignoreBOM] = decoderOptions(options, context);
      const id = textDecoderEncoding(label, context);
      this.#encoding = id;
      this.#fatal = fatal;
      this.#ignoreBOM = ignoreBOM;
      this.#state = textDecoderState(id, fatal, ignoreBOM);
      track(this, w.tc_td_free, this.#state.h);
    }

    get encoding() {
      if (!(#state in this)) throw illegalInvocation('TextDecoder');
      return lowerNameOf(this.#encoding);
    }

    get fatal() {
      if (!(#state in this)) throw illegalInvocation('TextDecoder');
      return this.#fatal;
    }

    get ignoreBOM() {
      if (!(#state in this)) throw illegalInvocation('TextDecoder');
      return this.#ignoreBOM;
    }

    decode(input = undefined, options = undefined) {
      if (!(#state in this)) throw illegalInvocation('TextDecoder');
      const context = "Failed to execute 'decode' on 'TextDecoder'";
      const view = input === undefined ? undefined : toBufferView(input, context);
      const stream = isDictionary(options, context) ? !!options.stream : false;
      return this.#state.decode(view, stream);
    }
  }

  // ---- TextEncoder

  /** UTF-8 bytes of a string (USVString conversion included), through the core. */
  function utf8Encode(s) {
    if (s.length === 0) return new Uint8Array(0);
    const [p, n, utf16] = core.putString(s, 'utf8');
    // The host's encodeInto already wrote the UTF-8 into the core's memory.
    if (!utf16) return core.slice(p, n);
    w.tc_encode(UTF8, 2, p, n, 1);
    return core.outputBytes();
  }

  class TextEncoder {
    #brand = true;

    // eslint-disable-next-line no-useless-constructor
    constructor() {}

    get encoding() {
      if (!(#brand in this)) throw illegalInvocation('TextEncoder');
      return 'utf-8';
    }

    encode(input = '') {
      if (!(#brand in this)) throw illegalInvocation('TextEncoder');
      return utf8Encode(toDOMString(input));
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
      if (isSharedArrayBuffer(buffer)) {
        if (sabGrowable(buffer)) throw notResizable(context);
      } else if (arrayBufferResizable(buffer)) {
        throw notResizable(context);
      }
      // Whole scalar values that fit: walk the string (UTF-8 lengths are exact per scalar).
      const capacity = typedArrayByteLength(destination);
      let read = 0;
      let written = 0;
      const n = source.length;
      while (read < n) {
        let c = source.charCodeAt(read);
        let units = 1;
        if (c >= 0xD800 && c <= 0xDBFF && read + 1 < n) {
          const d = source.charCodeAt(read + 1);
          if (d >= 0xDC00 && d <= 0xDFFF) { c = 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00); units = 2; }
        }
        if (c >= 0xD800 && c <= 0xDFFF) c = 0xFFFD;
        const len = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
        if (written + len > capacity) break;
        if (len === 1) {
          destination[written] = c;
        } else if (len === 2) {
          destination[written] = 0xC0 | (c >> 6);
          destination[written + 1] = 0x80 | (c & 0x3F);
        } else if (len === 3) {
          destination[written] = 0xE0 | (c >> 12);
          destination[written + 1] = 0x80 | ((c >> 6) & 0x3F);
          destination[written + 2] = 0x80 | (c & 0x3F);
        } else {
          destination[written] = 0xF0 | (c >> 18);
          destination[written + 1] = 0x80 | ((c >> 12) & 0x3F);
          destination[written + 2] = 0x80 | ((c >> 6) & 0x3F);
          destination[written + 3] = 0x80 | (c & 0x3F);
        }
        written += len;
        read += units;
      }
      return { read, written };
    }
  }

  // ---- TextDecoderStream and TextEncoderStream

  function requireTransformStream(name) {
    TransformStreamCtor ??= globalThis.TransformStream;
    if (typeof TransformStreamCtor !== 'function') {
      throw new TypeError(`${name}: this runtime has no TransformStream`);
    }
    return TransformStreamCtor;
  }

  class TextDecoderStream {
    #transform;
    #encoding;
    #fatal;
    #ignoreBOM;

    constructor(label = undefined, options = undefined) {
      const context = "Failed to construct 'TextDecoderStream'";
      label = label === undefined ? 'utf-8' : toDOMString(label);
      const [fatal, ignoreBOM] = decoderOptions(options, context);
      const id = textDecoderEncoding(label, context);
      this.#encoding = id;
      this.#fatal = fatal;
      this.#ignoreBOM = ignoreBOM;
      const state = textDecoderState(id, fatal, ignoreBOM);
      track(this, w.tc_td_free, state.h);
      const chunkContext = "Failed to execute 'transform' on 'TextDecoderStream'";
      const TS = requireTransformStream('TextDecoderStream');
      this.#transform = new TS({
        __proto__: null,
        transform(chunk, controller) {
          const output = state.decode(toBufferView(chunk, chunkContext), true);
          if (output !== '') controller.enqueue(output);
        },
        flush(controller) {
          const output = state.decode(undefined, false);
          if (output !== '') controller.enqueue(output);
        },
      });
    }

    get encoding() {
      if (!(#transform in this)) throw illegalInvocation('TextDecoderStream');
      return lowerNameOf(this.#encoding);
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
      // The pending high surrogate (#textencoderstream-encoder).
      let pending = '';
      const TS = requireTransformStream('TextEncoderStream');
      this.#transform = new TS({
        __proto__: null,
        transform(chunk, controller) {
          let s = pending + toDOMString(chunk);
          pending = '';
          const last = s.charCodeAt(s.length - 1);
          if (last >= 0xD800 && last <= 0xDBFF) {
            pending = s.slice(-1);
            s = s.slice(0, -1);
          }
          if (s.length !== 0) controller.enqueue(utf8Encode(s));
        },
        flush(controller) {
          if (pending !== '') controller.enqueue(new Uint8Array([0xEF, 0xBF, 0xBD]));
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

  function defineInterface(cls) {
    const proto = cls.prototype;
    for (const key of Reflect.ownKeys(proto)) {
      if (key === 'constructor') continue;
      const desc = getOwnPropertyDescriptor(proto, key);
      desc.enumerable = true;
      defineProperty(proto, key, desc);
    }
    defineProperty(proto, Symbol.toStringTag, {
      value: cls.name, writable: false, enumerable: false, configurable: true,
    });
    return cls;
  }
  defineInterface(TextDecoder);
  defineInterface(TextEncoder);
  defineInterface(TextDecoderStream);
  defineInterface(TextEncoderStream);

  // ---------------------------------------------------------------------------------------
  // The legacy API: every encoding, both directions (not part of the Standard's API; the
  // Standard's *decode* and *encode* hooks with their error modes).

  /** An encoding label (any of the Standard's 228, or an encoding's name) → its id. */
  function encodingId(label, context) {
    if (typeof label !== 'string') {
      throw new TypeError(`${context}: the encoding label must be a string, got ${describe(label)}`);
    }
    const id = core.labelId(label);
    if (id < 0) {
      const shown = label.length > 40 ? `${label.slice(0, 40)}…" (${label.length} characters)` : `${label}"`;
      throw new RangeError(`${context}: "${shown} is not an encoding label of the Encoding Standard`);
    }
    return id;
  }

  function describe(value) {
    if (value === null) return 'null';
    if (typeof value === 'string') return `the string "${value.length > 40 ? value.slice(0, 40) + '…' : value}"`;
    if (typeof value === 'object' || typeof value === 'function') {
      const tag = Object.prototype.toString.call(value).slice(8, -1);
      return `an object (${tag})`;
    }
    return `${typeof value} ${String(value)}`;
  }

  function bytesArgument(value, context) {
    if (isArrayBufferView(value) || isArrayBuffer(value) || isSharedArrayBuffer(value)) {
      return toBufferView(value, context);
    }
    if (Array.isArray(value)) {
      const out = new Uint8Array(value.length);
      for (let i = 0; i < value.length; i++) {
        const b = value[i];
        if (typeof b !== 'number' || !(b >= 0 && b <= 255) || (b | 0) !== b) {
          throw new TypeError(`${context}: the byte at index ${i} (${describe(b)}) is not an integer 0–255`);
        }
        out[i] = b;
      }
      return out;
    }
    throw new TypeError(`${context}: the input must be a Uint8Array, an ArrayBuffer, a view or an array of bytes, got ${describe(value)}`);
  }

  function stringArgument(value, context) {
    if (typeof value === 'string') return value;
    throw new TypeError(`${context}: the input must be a string, got ${describe(value)}`);
  }

  const BOM_MODES = { __proto__: null, sniff: 0, remove: 1, keep: 2 };
  const ERROR_MODES = { __proto__: null, fatal: 0, html: 1, replace: 2 };

  function legacyDecodeOptions(options, context) {
    let fatal = false;
    let bom = 0;
    if (options !== undefined && options !== null) {
      if (typeof options !== 'object') throw new TypeError(`${context}: options must be an object, got ${describe(options)}`);
      if (options.fatal !== undefined) fatal = !!options.fatal;
      if (options.bom !== undefined) {
        const mode = options.bom === true ? 0 : options.bom === false ? 2 : BOM_MODES[options.bom];
        if (mode === undefined) throw new RangeError(`${context}: options.bom must be "sniff", "remove" or "keep", got ${describe(options.bom)}`);
        bom = mode;
      }
    }
    return [fatal, bom];
  }

  function legacyEncodeMode(options, context) {
    if (options === undefined || options === null) return 0;
    if (typeof options !== 'object') throw new TypeError(`${context}: options must be an object, got ${describe(options)}`);
    if (options.errors === undefined) return 0;
    const mode = ERROR_MODES[options.errors];
    if (mode === undefined) throw new RangeError(`${context}: options.errors must be "fatal", "html" or "replace", got ${describe(options.errors)}`);
    return mode;
  }

  function noEncoder(id, context) {
    return new RangeError(`${context}: ${nameOf(id)} has no encoder (the Standard defines none)`);
  }

  const startsWithBom = (v) => (v[0] === 0xEF && v.length >= 3 && v[1] === 0xBB && v[2] === 0xBF) ||
    (v.length >= 2 && ((v[0] === 0xFE && v[1] === 0xFF) || (v[0] === 0xFF && v[1] === 0xFE)));

  /**
   * decode(bytes, label = "utf-8", { fatal = false, bom = "sniff" }) → string. `bom`:
   * "sniff" (a UTF-8/UTF-16 byte order mark overrides the label and is removed: the
   * Standard's *decode*), "remove" (only the label's own BOM is removed), "keep".
   */
  function decode(bytes, label = 'utf-8', options = undefined) {
    const context = 'textcodec.decode';
    const view = bytesArgument(bytes, context);
    const id = encodingId(label, context);
    const [fatal, bom] = legacyDecodeOptions(options, context);
    // The addon, where it is faster; not for input that starts with a byte order mark
    // when bom is "sniff" (the BOM then names the encoding: the wasm core does that).
    if (routed(id, view.length) && !(bom === 0 && startsWithBom(view))) {
      const out = nativeDecode(id, fatal, view);
      if (out !== null) return out;
      // Malformed input in fatal mode: the wasm core finds the same error and names its
      // bytes and offset.
    }
    // UTF-16LE without an error, in Node and Bun: Buffer#ucs2Slice (a byte order mark under
    // "sniff" goes to the core, which lets it name the encoding).
    if (id === core.UTF16LE && !(bom === 0 && startsWithBom(view))) {
      const start = bom === 1 && view.length >= 2 && view[0] === 0xFF && view[1] === 0xFE ? 2 : 0;
      const s = core.utf16leText(view, start);
      if (s !== null) return s;
    }
    const p = view.length === 0 ? 0 : core.putBytes(view);
    const status = w.tc_decode(id, fatal ? 1 : 0, bom, p, view.length);
    if (status !== 0) throw new TypeError(`${context}: ${core.malformedMessage(id)}`);
    return core.output();
  }

  /**
   * encode(string, label = "utf-8", { errors = "fatal" }) → Uint8Array: the Standard's
   * *encode or fail* ("fatal": TypeError naming the character and its index) or *encode*
   * ("html": &#NNNN;), or "replace" (?). UTF-16BE/LE encode as well (an extension).
   */
  function encode(string, label = 'utf-8', options = undefined) {
    const context = 'textcodec.encode';
    const s = stringArgument(string, context);
    const id = encodingId(label, context);
    const mode = legacyEncodeMode(options, context);
    if (id === core.UTF16LE || id === core.UTF16BE) {
      // Node and Bun: Buffer's copies (every error mode: UTF-16 encodes every scalar value).
      const b = core.utf16Bytes(s, id === core.UTF16BE);
      if (b !== null) return b;
    }
    const [p, n, utf16] = s.length === 0 ? [0, 0, 0] : core.putString(s, form(id));
    const status = w.tc_encode(id, mode, p, n, utf16);
    if (status === 2) throw noEncoder(id, context);
    if (status === 1) throw new TypeError(`${context}: ${core.unmappableMessage(id, s, utf16, 0)}`);
    return core.outputBytes();
  }

  /** Incremental decoding: decode(chunk, { stream: true }) … decode() at the end. */
  class Decoder {
    #h;
    #id;
    #fatal;
    #bom;

    constructor(label = 'utf-8', options = undefined) {
      const context = 'textcodec.Decoder';
      this.#id = encodingId(label, context);
      [this.#fatal, this.#bom] = legacyDecodeOptions(options, context);
      this.#h = w.tc_decoder_new(this.#id, this.#fatal ? 1 : 0, this.#bom);
      track(this, w.tc_decoder_free, this.#h);
    }

    /** The encoding's name, as the Standard spells it. */
    get encoding() { return nameOf(this.#id); }

    get fatal() { return this.#fatal; }

    /**
     * Decodes a chunk; with `{ stream: true }` an incomplete sequence at its end waits for
     * the next chunk, otherwise the stream ends here (the decoder is then ready for a new
     * one). In fatal mode a malformed sequence throws a TypeError naming its bytes and their
     * offset in the stream, and the decoder starts afresh.
     */
    decode(bytes = EMPTY, options = undefined) {
      const context = 'textcodec.Decoder.decode';
      const view = bytesArgument(bytes, context);
      const stream = options !== undefined && options !== null && !!options.stream;
      const p = view.length === 0 ? 0 : core.putBytes(view);
      const status = w.tc_decoder_decode(this.#h, p, view.length, stream ? 0 : 1);
      if (status !== 0) {
        const message = `${context}: ${core.malformedMessage(this.#id)}`;
        w.tc_decoder_reset(this.#h);
        throw new TypeError(message);
      }
      return core.output();
    }

    /** Forgets any partial sequence: the next chunk starts a new stream. */
    reset() { w.tc_decoder_reset(this.#h); }
  }

  /**
   * Incremental encoding: encode(text, { stream: true }) … encode() at the end (ISO-2022-JP's
   * state, and a high surrogate at the end of a chunk, carry over to the next call).
   */
  class Encoder {
    #h;
    #id;
    #pending = '';
    #offset = 0;

    constructor(label = 'utf-8', options = undefined) {
      const context = 'textcodec.Encoder';
      this.#id = encodingId(label, context);
      const mode = legacyEncodeMode(options, context);
      this.#h = w.tc_encoder_new(this.#id, mode);
      if (this.#h === 0) throw noEncoder(this.#id, context);
      track(this, w.tc_encoder_free, this.#h);
    }

    get encoding() { return nameOf(this.#id); }

    encode(string = '', options = undefined) {
      const context = 'textcodec.Encoder.encode';
      let s = this.#pending + stringArgument(string, context);
      const start = this.#offset - this.#pending.length;
      this.#pending = '';
      const stream = options !== undefined && options !== null && !!options.stream;
      if (stream && s.length !== 0) {
        const last = s.charCodeAt(s.length - 1);
        if (last >= 0xD800 && last <= 0xDBFF) {
          this.#pending = s.slice(-1);
          s = s.slice(0, -1);
        }
      }
      const [p, n, utf16] = s.length === 0 ? [0, 0, 0] : core.putString(s, form(this.#id));
      const status = w.tc_encoder_encode(this.#h, p, n, utf16, stream ? 0 : 1);
      if (status === 1) {
        const message = `${context}: ${core.unmappableMessage(this.#id, s, utf16, 0)}` +
          (start > 0 ? ` (of this chunk; ${start} code units came before it)` : '');
        w.tc_encoder_reset(this.#h);
        this.#offset = 0;
        this.#pending = '';
        throw new TypeError(message);
      }
      this.#offset = stream ? start + s.length + this.#pending.length : 0;
      return core.outputBytes();
    }

    reset() {
      w.tc_encoder_reset(this.#h);
      this.#pending = '';
      this.#offset = 0;
    }
  }

  /** A WHATWG TransformStream (bytes → strings) for any encoding. */
  class DecoderStream {
    readable;
    writable;
    constructor(label = 'utf-8', options = undefined) {
      const decoder = new Decoder(label, options);
      const TS = requireTransformStream('DecoderStream');
      const t = new TS({
        transform(chunk, controller) {
          const s = decoder.decode(chunk, { stream: true });
          if (s !== '') controller.enqueue(s);
        },
        flush(controller) {
          const s = decoder.decode();
          if (s !== '') controller.enqueue(s);
        },
      });
      this.readable = t.readable;
      this.writable = t.writable;
      this.encoding = decoder.encoding;
    }
  }

  /** A WHATWG TransformStream (strings → bytes) for any encoding with an encoder. */
  class EncoderStream {
    readable;
    writable;
    constructor(label = 'utf-8', options = undefined) {
      const encoder = new Encoder(label, options);
      const TS = requireTransformStream('EncoderStream');
      const t = new TS({
        transform(chunk, controller) {
          const b = encoder.encode(stringArgument(chunk, 'textcodec.EncoderStream'), { stream: true });
          if (b.length !== 0) controller.enqueue(b);
        },
        flush(controller) {
          const b = encoder.encode();
          if (b.length !== 0) controller.enqueue(b);
        },
      });
      this.readable = t.readable;
      this.writable = t.writable;
      this.encoding = encoder.encoding;
    }
  }

  /**
   * lookup(label) → { name, labels, hasEncoder, singleByte } for a label of the Standard
   * (*get an encoding*: ASCII whitespace trimmed, ASCII case-insensitive), or null.
   */
  function lookup(label) {
    if (typeof label !== 'string') throw new TypeError(`textcodec.lookup: the label must be a string, got ${describe(label)}`);
    const id = core.labelId(label);
    if (id < 0) return null;
    return {
      name: nameOf(id),
      labels: core.labelsOf(id),
      hasEncoder: id !== REPLACEMENT,
      singleByte: id > UTF8 && id < GBK,
    };
  }

  // detect() and sniff(): on the second module, loaded on first use (src/detect.js).
  const { detect, sniff, loadDetect } = makeDetect !== null
    ? makeDetect({ lowerNameOf, bytesArgument, encodingId, describe, utf8Encode })
    : {
      detect() { throw new TypeError('textcodec.detect: this build has no detection module'); },
      sniff() { throw new TypeError('textcodec.sniff: this build has no detection module'); },
      loadDetect: () => Promise.reject(new TypeError('textcodec.loadDetect: this build has no detection module')),
    };

  function nodeTransform(context) {
    const stream = globalThis.process?.getBuiltinModule?.('node:stream');
    if (!stream) throw new TypeError(`${context}: this runtime has no Node.js streams (node:stream); use DecoderStream/EncoderStream`);
    return stream.Transform;
  }

  /** A Node.js stream.Transform: bytes (Buffers) in, strings out, for any encoding. */
  function createDecodeTransform(label = 'utf-8', options = undefined) {
    const Transform = nodeTransform('textcodec.createDecodeTransform');
    const decoder = new Decoder(label, options);
    return new Transform({
      encoding: 'utf8',
      transform(chunk, _encoding, callback) {
        try { const s = decoder.decode(chunk, { stream: true }); if (s !== '') this.push(s, 'utf8'); callback(); } catch (e) { callback(e); }
      },
      flush(callback) {
        try { const s = decoder.decode(); if (s !== '') this.push(s, 'utf8'); callback(); } catch (e) { callback(e); }
      },
    });
  }

  /** A Node.js stream.Transform: strings in, bytes (Buffers) out, for any encoding with an encoder. */
  function createEncodeTransform(label = 'utf-8', options = undefined) {
    const Transform = nodeTransform('textcodec.createEncodeTransform');
    const encoder = new Encoder(label, options);
    const B = globalThis.Buffer;
    const out = (b) => B.from(b.buffer, b.byteOffset, b.byteLength);
    return new Transform({
      decodeStrings: false,
      transform(chunk, chunkEncoding, callback) {
        try {
          const s = typeof chunk === 'string' ? chunk : B.from(chunk).toString('utf8');
          const b = encoder.encode(s, { stream: true });
          if (b.length !== 0) this.push(out(b));
          callback();
        } catch (e) { callback(e); }
      },
      flush(callback) {
        try { const b = encoder.encode(); if (b.length !== 0) this.push(out(b)); callback(); } catch (e) { callback(e); }
      },
    });
  }

  let kernel;
  return {
    TextDecoder, TextEncoder, TextDecoderStream, TextEncoderStream,
    decode, encode, Decoder, Encoder, DecoderStream, EncoderStream, lookup, detect, sniff, loadDetect,
    createDecodeTransform, createEncodeTransform,
    encodings: () => core.names(),
    backend: {
      kind: 'wasm', simd: core.simd, strings: core.stringPaths,
      // Asked of the core on first read: a start needs no call for it.
      get kernel() { return kernel ??= core.kernel(); },
      // The addon's decoders in use (src/native.js), or null.
      native: nativeIds === null ? null : { decoders: [...nativeIds].map(nameOf), minBytes: nativeMinBytes },
    },
    // Which core answers: "native" when the addon is loaded (for the decoders in
    // backend.native; the wasm core does the rest), else the wasm build.
    core: native !== null ? 'native' : core.simd ? 'wasm-simd' : 'wasm-plain',
  };
}
