// textcodec/iconv-lite: iconv-lite's documented API (decode, encode, encodingExists,
// getDecoder, getEncoder, decodeStream, encodeStream; stripBOM and addBOM) over the
// Encoding Standard's encodings. README.md ("Migrating from iconv-lite") lists where the
// results differ from iconv-lite's and why. No imports (see core.js).

export function createIconv(api) {
  const BufferCtor = globalThis.Buffer;
  const toBuffer = (u8) =>
    (BufferCtor ? BufferCtor.from(u8.buffer, u8.byteOffset, u8.byteLength) : u8);

  // iconv-lite compares names without case and without characters other than letters and
  // digits ("UTF8" is "utf-8", "ShiftJIS" is "shift_jis"); Node's names for UTF-16LE too.
  const EXTRA = { __proto__: null, ucs2: 'utf-16le', utf16le: 'utf-16le', utf16be: 'utf-16be', utf16: 'utf-16le', shiftjis: 'shift_jis', eucjp: 'euc-jp', euckr: 'euc-kr', iso2022jp: 'iso-2022-jp', xuserdefined: 'x-user-defined' };
  const normalized = new Map();
  for (const name of api.encodings()) {
    for (const label of api.lookup(name).labels) {
      const key = label.replace(/[^0-9a-z]/g, '');
      if (!normalized.has(key)) normalized.set(key, name);
    }
  }
  function resolve(encoding) {
    if (typeof encoding !== 'string') {
      throw new TypeError(`iconv-lite: the encoding must be a string, got ${encoding === null ? 'null' : typeof encoding}`);
    }
    const found = api.lookup(encoding);
    if (found !== null) return found;
    const key = encoding.toLowerCase().replace(/[^0-9a-z]/g, '');
    const name = EXTRA[key] ?? normalized.get(key);
    if (name !== undefined) return api.lookup(name);
    return null;
  }
  function need(encoding) {
    const found = resolve(encoding);
    if (found === null || found.name === 'replacement') {
      throw new RangeError(`Encoding not recognized: '${encoding}' (textcodec/iconv-lite knows the Encoding Standard's encodings and labels)`);
    }
    return found;
  }
  const unicode = (name) => name === 'UTF-8' || name === 'UTF-16LE' || name === 'UTF-16BE';
  const stripBOM = (options) => !(options && options.stripBOM === false);

  function decode(buffer, encoding, options = undefined) {
    const { name } = need(encoding);
    if (typeof buffer === 'string') buffer = BufferCtor ? BufferCtor.from(buffer, 'binary') : buffer;
    return api.decode(buffer, name, { bom: stripBOM(options) ? 'remove' : 'keep' });
  }

  function encode(string, encoding, options = undefined) {
    const { name } = need(encoding);
    let s = `${string}`;
    if (options && options.addBOM && unicode(name)) s = '\uFEFF' + s;
    return toBuffer(api.encode(s, name, { errors: 'replace' }));
  }

  function encodingExists(encoding) {
    try {
      const found = resolve(encoding);
      return found !== null && found.name !== 'replacement';
    } catch {
      return false;
    }
  }

  function getDecoder(encoding, options = undefined) {
    const { name } = need(encoding);
    const decoder = new api.Decoder(name, { bom: stripBOM(options) ? 'remove' : 'keep' });
    return {
      write(buffer) { return decoder.decode(buffer, { stream: true }); },
      end() { const s = decoder.decode(); return s === '' ? undefined : s; },
    };
  }

  function getEncoder(encoding, options = undefined) {
    const { name } = need(encoding);
    const encoder = new api.Encoder(name, { errors: 'replace' });
    let bom = !!(options && options.addBOM) && unicode(name);
    return {
      write(string) {
        let s = `${string}`;
        if (bom) { s = '\uFEFF' + s; bom = false; }
        return toBuffer(encoder.encode(s, { stream: true }));
      },
      end() { const b = encoder.encode(); return b.length === 0 ? undefined : toBuffer(b); },
    };
  }

  function nodeStream() {
    const stream = globalThis.process?.getBuiltinModule?.('node:stream');
    if (!stream) throw new TypeError('iconv-lite streams need Node.js streams (node:stream), which this runtime lacks');
    return stream;
  }

  function collect(stream) {
    return function (callback) {
      const parts = [];
      this.on('error', callback);
      this.on('data', (chunk) => parts.push(chunk));
      this.on('end', () => {
        callback(null, typeof parts[0] === 'string' || parts.length === 0 && stream === 'decode'
          ? parts.join('') : BufferCtor.concat(parts));
      });
      return this;
    };
  }

  function decodeStream(encoding, options = undefined) {
    const codec = getDecoder(encoding, options);
    const { Transform } = nodeStream();
    const t = new Transform({
      decodeStrings: true,
      encoding: 'utf8',
      transform(chunk, _encoding, callback) {
        try { const s = codec.write(chunk); if (s !== '') this.push(s, 'utf8'); callback(); } catch (e) { callback(e); }
      },
      flush(callback) {
        try { const s = codec.end(); if (s !== undefined) this.push(s, 'utf8'); callback(); } catch (e) { callback(e); }
      },
    });
    t.collect = collect('decode');
    return t;
  }

  function encodeStream(encoding, options = undefined) {
    const codec = getEncoder(encoding, options);
    const { Transform } = nodeStream();
    const t = new Transform({
      decodeStrings: false,
      transform(chunk, chunkEncoding, callback) {
        try {
          const s = typeof chunk === 'string' ? chunk : BufferCtor.from(chunk).toString(chunkEncoding === 'buffer' ? 'utf8' : chunkEncoding);
          const b = codec.write(s);
          if (b.length !== 0) this.push(b);
          callback();
        } catch (e) { callback(e); }
      },
      flush(callback) {
        try { const b = codec.end(); if (b !== undefined) this.push(b); callback(); } catch (e) { callback(e); }
      },
    });
    t.collect = collect('encode');
    return t;
  }

  return {
    decode, encode, encodingExists, getDecoder, getEncoder, decodeStream, encodeStream,
    // iconv-lite's names for the same operations.
    toEncoding: encode, fromEncoding: decode,
  };
}
