// The runtime-independent suite: plain ES module, no imports, so that Node (node --test,
// test/node/vectors.test.js), Deno and Bun (test/run-suite.mjs) and Chromium
// (test/browser/) run the same cases. `cases(tc, vectors)` lists [name, async fn] pairs;
// each throws on failure.

export function cases(tc, vectors) {
  const list = [];
  const add = (name, fn) => list.push([name, fn]);
  const fromB64 = (s) => {
    const bin = atob(s);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  };
  const hex = (bytes, at = 0) => Array.from(bytes.subarray(at, at + 12), (b) => b.toString(16).padStart(2, '0')).join(' ');
  function fail(message) { throw new Error(message); }
  function equalText(got, want, what) {
    if (got === want) return;
    let i = 0;
    while (i < got.length && i < want.length && got[i] === want[i]) i++;
    const cp = (s) => (i < s.length ? `U+${s.codePointAt(i).toString(16).toUpperCase()}` : 'the end');
    fail(`${what}: first difference at code unit ${i} of ${want.length}: got ${cp(got)}, expected ${cp(want)}`);
  }
  function equalBytes(got, want, what) {
    if (!(got instanceof Uint8Array)) fail(`${what}: not a Uint8Array`);
    let i = 0;
    while (i < got.length && i < want.length && got[i] === want[i]) i++;
    if (i === got.length && i === want.length) return;
    fail(`${what}: first difference at byte ${i} of ${want.length} (length ${got.length}): got [${hex(got, i)}], expected [${hex(want, i)}]`);
  }
  function throws(fn, type, pattern, what) {
    try {
      fn();
    } catch (e) {
      if (!(e instanceof type)) fail(`${what}: threw ${e && e.name} (${e && e.message}), expected ${type.name}`);
      if (pattern && !pattern.test(e.message)) fail(`${what}: message "${e.message}" does not match ${pattern}`);
      return e;
    }
    fail(`${what}: did not throw`);
  }
  let seed = 12345;
  const random = () => { seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0; return seed / 4294967296; };
  const hasStreams = typeof TransformStream === 'function';
  async function pipe(transform, chunks) {
    const writer = transform.writable.getWriter();
    const reader = transform.readable.getReader();
    const out = [];
    const reading = (async () => { for (;;) { const { value, done } = await reader.read(); if (done) return; out.push(value); } })();
    const writing = (async () => { for (const c of chunks) await writer.write(c); await writer.close(); })();
    const [w, r] = await Promise.allSettled([writing, reading]);
    if (w.status === 'rejected') throw w.reason;
    if (r.status === 'rejected') throw r.reason;
    return out;
  }
  const concat = (parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) { out.set(p, o); o += p.length; }
    return out;
  };

  const names = Object.keys(vectors);
  add('the fixture and the package agree on the 40 encodings', () => {
    if (names.length !== 40) fail(`fixture has ${names.length} encodings`);
    const ours = tc.encodings();
    if (ours.join() !== names.join()) fail(`encodings() = ${ours.join()}`);
  });

  for (const name of names) {
    const v = vectors[name];
    const bytes = fromB64(v.decode.bytes);
    const text = v.decode.text;
    add(`decode ${name}: decode(), Decoder in random chunks, fatal mode`, () => {
      equalText(tc.decode(bytes, name, { bom: 'keep' }), text, `decode(…, "${name}")`);
      const d = new tc.Decoder(name, { bom: 'keep' });
      let s = '';
      for (let i = 0; i < bytes.length;) {
        const n = 1 + Math.floor(random() * 9);
        s += d.decode(bytes.subarray(i, i + n), { stream: true });
        i += n;
      }
      s += d.decode();
      equalText(s, text, `Decoder(${name}) streamed`);
      if (v.decode.malformed) {
        throws(() => tc.decode(bytes, name, { fatal: true, bom: 'keep' }), TypeError, /not valid .* at byte \d+/, `fatal ${name}`);
      } else {
        equalText(tc.decode(bytes, name, { fatal: true, bom: 'keep' }), text, `fatal ${name}`);
      }
    });
    if (name !== 'replacement') {
      add(`decode ${name}: TextDecoder whole and streamed${hasStreams ? ', TextDecoderStream' : ''}`, async () => {
        const td = new tc.TextDecoder(name, { ignoreBOM: true });
        equalText(td.decode(bytes), text, `TextDecoder(${name})`);
        let s = '';
        for (let i = 0; i < bytes.length;) {
          const n = 1 + Math.floor(random() * 7);
          s += td.decode(bytes.subarray(i, i + n), { stream: true });
          i += n;
        }
        equalText(s + td.decode(), text, `TextDecoder(${name}) streamed`);
        if (hasStreams) {
          const third = Math.ceil(bytes.length / 3);
          const out = await pipe(new tc.TextDecoderStream(name, { ignoreBOM: true }),
            [bytes.slice(0, third), bytes.slice(third, 2 * third), bytes.slice(2 * third)]);
          equalText(out.join(''), text, `TextDecoderStream(${name})`);
        }
      });
    } else {
      add('replacement: TextDecoder refuses it, decode() gives one U+FFFD', () => {
        throws(() => new tc.TextDecoder('replacement'), RangeError, null, 'TextDecoder(replacement)');
        throws(() => tc.encode('a', 'replacement'), RangeError, /no encoder/, 'encode(replacement)');
      });
    }
    if (v.encode.length !== 0) {
      add(`encode ${name}: every vector in each error mode, and the Encoder in chunks`, () => {
        for (const e of v.encode) {
          const what = `encode(${JSON.stringify(e.text.slice(0, 20))}…, "${name}", {errors: "${e.mode}"})`;
          if (e.error) {
            const cp = e.error.codePoint.toString(16).toUpperCase().padStart(4, '0');
            throws(() => tc.encode(e.text, name, { errors: e.mode }), TypeError,
              new RegExp(`U\\+${cp} at index ${e.error.index} cannot be encoded in ${name}`), what);
            continue;
          }
          const want = fromB64(e.bytes);
          equalBytes(tc.encode(e.text, name, { errors: e.mode }), want, what);
          const enc = new tc.Encoder(name, { errors: e.mode });
          const parts = [];
          for (let i = 0; i < e.text.length;) {
            const n = 1 + Math.floor(random() * 5);
            parts.push(enc.encode(e.text.slice(i, i + n), { stream: true }));
            i += n;
          }
          parts.push(enc.encode());
          equalBytes(concat(parts), want, `${what} through an Encoder in chunks`);
        }
      });
    }
  }

  add('ISO-2022-JP: the Encoder keeps its state across calls', () => {
    const enc = new tc.Encoder('iso-2022-jp');
    const a = enc.encode('\u65E5', { stream: true });
    const b = enc.encode('\u672Ca', { stream: true });
    const c = enc.encode();
    equalBytes(a, new Uint8Array([0x1B, 0x24, 0x42, 0x46, 0x7C]), 'first chunk');
    equalBytes(b, new Uint8Array([0x4B, 0x5C, 0x1B, 0x28, 0x42, 0x61]), 'second chunk');
    equalBytes(c, new Uint8Array(0), 'end');
    const d = new tc.Decoder('iso-2022-jp');
    equalText(d.decode(a, { stream: true }) + d.decode(b, { stream: true }) + d.decode(), '\u65E5\u672Ca', 'decoded');
  });

  add('decode: the BOM options', () => {
    const le = new Uint8Array([0xFF, 0xFE, 0x41, 0x00]);
    equalText(tc.decode(le, 'utf-8'), 'A', 'sniff: a UTF-16LE BOM overrides the label');
    equalText(tc.decode(le, 'utf-16le', { bom: 'remove' }), 'A', 'remove');
    equalText(tc.decode(le, 'utf-16le', { bom: 'keep' }), '\uFEFFA', 'keep');
    equalText(tc.decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x41]), 'utf-8', { bom: 'remove' }), 'A', 'utf-8 remove');
    throws(() => tc.decode(le, 'utf-8', { bom: 'strip' }), RangeError, /options\.bom/, 'bad bom');
  });

  add('errors name what is wrong and where', () => {
    throws(() => tc.decode('abc', 'utf-8'), TypeError, /input must be a Uint8Array.*string "abc"/, 'string input');
    throws(() => tc.decode(new Uint8Array(1), 'no-such'), RangeError, /"no-such" is not an encoding label/, 'bad label');
    throws(() => tc.decode(new Uint8Array(1), 42), TypeError, /label must be a string/, 'label type');
    throws(() => tc.decode([1, 300], 'utf-8'), TypeError, /byte at index 1/, 'array of bytes');
    throws(() => tc.encode(new Uint8Array(1), 'utf-8'), TypeError, /input must be a string/, 'encode bytes');
    throws(() => tc.encode('a', 'shift_jis', { errors: 'ignore' }), RangeError, /options\.errors/, 'bad mode');
    throws(() => tc.decode(new Uint8Array([0x41, 0x42, 0x82]), 'shift_jis', { fatal: true }), TypeError,
      /not valid Shift_JIS: .* at byte 2/, 'cut sequence');
    throws(() => tc.decode(new Uint8Array([0x41, 0xFF, 0x42]), 'utf-8', { fatal: true }), TypeError,
      /malformed bytes 0xFF at byte 1/, 'malformed byte');
    const d = new tc.Decoder('utf-8', { fatal: true });
    d.decode(new Uint8Array([0x41, 0x42]), { stream: true });
    throws(() => d.decode(new Uint8Array([0x43, 0xC0])), TypeError, /at byte 3/, 'stream offsets');
    equalText(d.decode(new Uint8Array([0x44])), 'D', 'the decoder starts afresh after an error');
    throws(() => new tc.Encoder('utf-16le-bogus'), RangeError, null, 'Encoder label');
    throws(() => tc.decode(new Uint8Array(1), 'x'.repeat(100)), RangeError, /"x{40}…" \(100 characters\) is not/, 'long label');
    throws(() => tc.encode('ab\uD800', 'windows-1252'), TypeError, /U\+FFFD at index 2 .*lone surrogate, U\+D800/, 'lone surrogate');
    const e = new tc.Encoder('windows-1252');
    e.encode('ab', { stream: true });
    throws(() => e.encode('c\u4E2D'), TypeError, /U\+4E2D at index 1 .*2 code units came before/, 'encoder chunk');
  });

  add('decode accepts every kind of buffer source and arrays of bytes', () => {
    const buf = new Uint8Array([0x61, 0x62, 0x63, 0x64]);
    equalText(tc.decode(buf.buffer, 'utf-8'), 'abcd', 'ArrayBuffer');
    equalText(tc.decode(new DataView(buf.buffer, 1, 2), 'utf-8'), 'bc', 'DataView');
    equalText(tc.decode(new Uint16Array(buf.buffer, 2, 1), 'utf-8'), 'cd', 'Uint16Array');
    equalText(tc.decode([0x93, 0xFA], 'shift_jis'), '\u65E5', 'array');
    equalText(tc.decode(new Uint8Array(0), 'gbk'), '', 'empty');
    equalBytes(tc.encode('', 'big5'), new Uint8Array(0), 'empty encode');
  });

  add('lookup follows get an encoding', () => {
    const sj = tc.lookup('  SJIS\n');
    if (!sj || sj.name !== 'Shift_JIS' || !sj.labels.includes('ms932')) fail(`lookup(SJIS) = ${JSON.stringify(sj)}`);
    if (tc.lookup('latin1').name !== 'windows-1252') fail('latin1');
    if (tc.lookup('utf8').name !== 'UTF-8') fail('utf8');
    if (tc.lookup('x-mac-roman').name !== 'macintosh') fail('x-mac-roman');
    if (tc.lookup('shift_jis2') !== null || tc.lookup('') !== null) fail('non-labels');
    if (tc.lookup('iso-2022-kr').name !== 'replacement' || tc.lookup('iso-2022-kr').hasEncoder) fail('replacement');
  });

  add('encode: one-shot calls agree with the incremental Encoder on mixed text, every error mode', () => {
    // encode() takes the core's table fast path for the double-byte encoders (wasm/src/cjk.rs);
    // the Encoder class runs the library's loop alone. Text: ASCII, kana, kanji, hangul,
    // hanzi, symbols, astral characters, lone surrogates, in a fixed pseudo-random order.
    const pool = ['a', '~', '\\', '\u00A5', '\u203E', '\u2212', '\u00E9', '\u20AC', '\u3042', '\uFF71', '\u65E5', '\u4E2D',
      '\uAC00', '\u9F98', '\uE5E5', '\uFFFD', '\uD83D\uDE00', '\uD840\uDC0B', '\uD800', '\uDC00', '\u0080', '\u00A0'];
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 16;
    let text = '';
    for (let i = 0; i < 3000; i++) text += pool[next() % pool.length];
    for (const label of ['shift_jis', 'euc-jp', 'gbk', 'gb18030', 'big5', 'euc-kr', 'utf-16le', 'utf-16be']) {
      for (const errors of ['html', 'replace', 'fatal']) {
        const oneShot = (() => { try { return tc.encode(text, label, { errors }); } catch (e) { return e.message; } })();
        const streamed = (() => { try { return new tc.Encoder(label, { errors }).encode(text); } catch (e) { return e.message; } })();
        if (typeof oneShot === 'string' || typeof streamed === 'string') {
          if (oneShot !== streamed.replace('textcodec.Encoder.encode', 'textcodec.encode')) fail(`${label} ${errors}: ${oneShot} / ${streamed}`);
        } else {
          equalBytes(oneShot, streamed, `${label} ${errors}`);
        }
      }
    }
  });

  add('encode: single-byte text with characters the encoding lacks, every error mode, against the decode table', () => {
    // encode() and the Encoder class take the core's single-byte table path, which sends
    // each character its table lacks through the library's encoder and goes on after it.
    // The oracle is the Standard's single-byte encoder written out: a character's byte is
    // the first byte that decodes to it; else `?` (replace), `&#cp;` (html) or an error at
    // its index (fatal); a lone surrogate is U+FFFD first.
    const pool = ['a', ' ', '\u00E9', '\u00A0', '\u0416', '\u0436', '\u03A9', '\u05D0', '\u2014', '\u201C', '\u00AB',
      '\u20AC', '\u2500', '\u65E5', '\uFFFD', '\uD83D\uDE00', '\uD800', '\uDC00', '\u0080', '\u0000'];
    let seed = 4242;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 16;
    for (const label of ['windows-1252', 'koi8-r', 'iso-8859-7', 'windows-1255', 'ibm866', 'macintosh']) {
      const byteOf = new Map();
      for (let b = 255; b >= 0; b--) {
        const c = tc.decode(new Uint8Array([b]), label);
        if (c !== '\uFFFD') byteOf.set(c, b);
      }
      for (const length of [1, 15, 16, 17, 40, 1000]) {
        const chars = [];
        for (let i = 0; i < length; i++) chars.push(pool[next() % pool.length]);
        // Runs of mappable text between the others, so that 16-unit blocks without one occur.
        if (length > 16) chars.splice(length >> 1, 0, 'abcdefghijklmnopqrstuvwxyz0123456789');
        const text = chars.join('');
        for (const errors of ['replace', 'html', 'fatal']) {
          const want = [];
          let failAt = -1;
          for (let i = 0; i < text.length && failAt < 0; i++) {
            // Surrogates are paired here with charCodeAt rather than codePointAt: once, in
            // Chromium, this loop's codePointAt gave a pair's high surrogate alone.
            let cp = text.charCodeAt(i);
            const low = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
            if (cp >= 0xD800 && cp < 0xDC00 && low >= 0xDC00 && low < 0xE000) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
              i++;
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
            const b = byteOf.get(String.fromCodePoint(cp));
            if (b !== undefined) want.push(b);
            else if (errors === 'replace') want.push(0x3F);
            else if (errors === 'html') for (const ch of `&#${cp};`) want.push(ch.charCodeAt(0));
            else failAt = i - (cp > 0xFFFF ? 1 : 0);
          }
          const got = (() => { try { return tc.encode(text, label, { errors }); } catch (e) { return e; } })();
          const encoder = new tc.Encoder(label, { errors });
          const chunked = (() => {
            try {
              const parts = [];
              for (let i = 0; i < text.length; i += 7) parts.push(...encoder.encode(text.slice(i, i + 7), { stream: true }));
              parts.push(...encoder.encode());
              return new Uint8Array(parts);
            } catch (e) { return e; }
          })();
          for (const [what, result] of [['encode()', got], ['Encoder in 7-unit chunks', chunked]]) {
            if (failAt >= 0) {
              if (!(result instanceof TypeError)) fail(`${label} ${errors} ${length} ${what}: no error, want one at ${failAt}`);
            } else if (result instanceof Error) {
              fail(`${label} ${errors} ${length} ${what}: ${result.message}`);
            } else {
              equalBytes(result, new Uint8Array(want), `${label} ${errors} ${length} ${what}`);
            }
          }
          if (failAt >= 0 && !String(got.message).includes(`index ${failAt} `)) fail(`${label} ${length}: ${got.message}, want index ${failAt}`);
        }
      }
    }
  });

  add('decode: long outputs of growing and shrinking sizes', () => {
    // Chromium builds these strings from an array it keeps between calls
    // (src/string-builder.js): it grows, and one of more than 8 M units is let go for a
    // call under a quarter of it. Every byte of windows-1251 in turn, against the
    // one-byte decodes.
    let cycle = '';
    for (let b = 0; b < 256; b++) cycle += tc.decode(new Uint8Array([b]), 'windows-1251');
    for (const n of [300, 70000, 65536, 9000001, 1000, 70001, 9000001, 257]) {
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) bytes[i] = i & 0xFF;
      const want = cycle.repeat(Math.ceil(n / 256)).slice(0, n);
      equalText(tc.decode(bytes, 'windows-1251'), want, `${n} bytes`);
    }
  });

  add('decode: one-shot UTF-16LE calls agree with the incremental Decoder, every BOM mode', () => {
    // decode() hands well-formed UTF-16LE to Buffer#ucs2Slice where there is one; the
    // Decoder class runs the core alone. Inputs: BOMs, lone and paired surrogates, odd ends.
    const inputs = [[], [0xFF, 0xFE], [0xFF, 0xFE, 0x41, 0], [0xFE, 0xFF, 0, 0x41], [0xEF, 0xBB, 0xBF, 0x41],
      [0x41, 0], [0x41], [0x41, 0, 0x42], [0x3D, 0xD8, 0x00, 0xDE], [0x3D, 0xD8, 0x41, 0], [0x00, 0xDE, 0x41, 0],
      [0x41, 0, 0x3D, 0xD8], [0xFF, 0xFE, 0x3D, 0xD8, 0x00, 0xDE, 0xFF, 0xFE]];
    let seed = 777;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 16;
    for (let k = 0; k < 40; k++) {
      const units = [0x0041, 0x3042, 0xD83D, 0xDE00, 0xFEFF, 0xDC00, 0xD800, 0x00E9];
      const bytes = [];
      for (let i = next() % 30; i > 0; i--) { const u = units[next() % units.length]; bytes.push(u & 0xFF, u >> 8); }
      if (next() % 4 === 0) bytes.push(0x41);
      inputs.push(bytes);
    }
    for (const bytes of inputs) {
      for (const bom of ['sniff', 'remove', 'keep']) {
        for (const fatal of [false, true]) {
          const b = new Uint8Array(bytes);
          const run = (f) => { try { return f(); } catch (e) { return `${e.name}: ${e.message.replace(/^textcodec\.\w+(\.\w+)?: /, '')}`; } };
          const oneShot = run(() => tc.decode(b, 'utf-16le', { bom, fatal }));
          const streamed = run(() => new tc.Decoder('utf-16le', { bom, fatal }).decode(b));
          if (oneShot !== streamed) fail(`${JSON.stringify(bytes)} ${bom} ${fatal}: ${JSON.stringify(oneShot)} / ${JSON.stringify(streamed)}`);
        }
      }
    }
  });

  add('detect: guesses, with the calibrated confidence and the language', async () => {
    // The second module: loaded on first use where files are read synchronously, by
    // loadDetect() in browsers (which must not be needed twice).
    await tc.loadDetect();
    await tc.loadDetect();
    const ja = tc.encode('これは日本語の文章です。文字コードを自動的に判定するためのテストをしています。', 'shift_jis');
    const g = tc.detect(ja, { tld: 'jp' });
    if (g.encoding !== 'shift_jis' || !(g.confidence > 0.5) || g.language !== 'ja' || g.languageName !== 'Japanese') fail(JSON.stringify({ ...g, ranking: undefined }));
    if (g.ranking[0].encoding !== 'shift_jis' || g.ranking.length < 10) fail('ranking');
    const ru = tc.encode('Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация южных губерний.', 'koi8-r');
    const r = tc.detect(ru);
    if (r.encoding !== 'koi8-r') fail(`koi8-r: ${r.encoding}`);
    const only = tc.detect(ru, { allow: ['windows-1251', 'iso-8859-5'] });
    if (!['windows-1251', 'iso-8859-5'].includes(only.encoding)) fail(`allow: ${only.encoding}`);
    const ascii = tc.detect(new Uint8Array([0x61, 0x62]), { tld: 'jp' });
    if (!ascii.asciiOnly || ascii.confidence !== 1) fail('ascii only');
    const png = tc.detect(new Uint8Array([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]));
    if (png.binary !== 'PNG' || png.confidence !== 0) fail(`png: ${png.binary}`);
    throws(() => tc.detect(ja, { allow: ['nope'] }), RangeError, /"nope"/, 'bad allow');
  });

  add('sniff: BOM > Content-Type > <meta>', async () => {
    await tc.loadDetect();
    const meta = new TextEncoder().encode('<!doctype html><meta charset="euc-kr"><p>x');
    let s = tc.sniff(meta);
    if (s.encoding !== 'euc-kr' || s.source !== 'meta' || s.confidence !== 'tentative') fail(JSON.stringify(s));
    s = tc.sniff(meta, { contentType: 'text/html; charset=Shift_JIS' });
    if (s.encoding !== 'shift_jis' || s.source !== 'content-type' || s.confidence !== 'certain') fail(JSON.stringify(s));
    const bom = new Uint8Array([0xEF, 0xBB, 0xBF, ...meta]);
    s = tc.sniff(bom, { contentType: 'text/html; charset=Shift_JIS' });
    if (s.encoding !== 'utf-8' || s.source !== 'bom' || s.bomLength !== 3) fail(JSON.stringify(s));
    s = tc.sniff(new TextEncoder().encode('@charset "iso-8859-5";'), { kind: 'css' });
    if (s.encoding !== 'iso-8859-5') fail(JSON.stringify(s));
    s = tc.sniff(new Uint8Array([0x61]), { locale: 'ja-JP' });
    if (s.encoding !== 'shift_jis' || s.source !== 'locale-default') fail(JSON.stringify(s));
    throws(() => tc.sniff(meta, { kind: 'pdf' }), RangeError, /options\.kind/, 'bad kind');
  });

  add('TextEncoder: encode and encodeInto, lone surrogates', () => {
    const te = new tc.TextEncoder();
    equalBytes(te.encode('a\u00E9\uD83D\uDE00\uD800'), new Uint8Array([0x61, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80, 0xEF, 0xBF, 0xBD]), 'encode');
    const dst = new Uint8Array(5);
    const r = te.encodeInto('a\u00E9\uD83D\uDE00', dst);
    if (r.read !== 2 || r.written !== 3) fail(`encodeInto: ${JSON.stringify(r)}`);
    equalBytes(dst, new Uint8Array([0x61, 0xC3, 0xA9, 0, 0]), 'encodeInto bytes');
    if (te.encoding !== 'utf-8') fail('encoding');
  });

  if (hasStreams) {
    add('streams: EncoderStream and DecoderStream for legacy encodings, TextEncoderStream', async () => {
      const out = await pipe(new tc.EncoderStream('shift_jis'), ['\u65E5\u672C', '\u8A9E,', 'csv\n']);
      const bytes = concat(out);
      equalBytes(bytes, tc.encode('\u65E5\u672C\u8A9E,csv\n', 'shift_jis'), 'EncoderStream');
      const back = await pipe(new tc.DecoderStream('shift_jis'), [bytes.slice(0, 1), bytes.slice(1, 5), bytes.slice(5)]);
      equalText(back.join(''), '\u65E5\u672C\u8A9E,csv\n', 'DecoderStream');
      const iso = await pipe(new tc.EncoderStream('iso-2022-jp'), ['\u65E5', '\u672C', 'a']);
      equalBytes(concat(iso), tc.encode('\u65E5\u672Ca', 'iso-2022-jp'), 'EncoderStream keeps ISO-2022-JP state');
      const te = await pipe(new tc.TextEncoderStream(), ['a\uD83D', '\uDE00b', '\uD800']);
      equalBytes(concat(te), new Uint8Array([0x61, 0xF0, 0x9F, 0x98, 0x80, 0x62, 0xEF, 0xBF, 0xBD]), 'TextEncoderStream surrogates');
      let error = null;
      try { await pipe(new tc.DecoderStream('utf-8', { fatal: true }), [new Uint8Array([0x61, 0xFF])]); } catch (e) { error = e; }
      if (!(error instanceof TypeError)) fail('a fatal DecoderStream errors the stream');
    });
  }

  add('the polyfill check accepts this package\'s TextDecoder', () => {
    // Every case the polyfill checks engines on is one this decoder gets right.
    const checks = [
      ['windows-1252', [0x80, 0x81, 0x9F], '\u20AC\u0081\u0178'],
      ['shift_jis', [0x80, 0x82, 0xA0, 0xFF], '\u0080\u3042\uFFFD'],
      ['gb18030', [0x81, 0x30, 0x81, 0x30, 0xA6, 0xD9], '\u0080\uFE10'],
      ['big5', [0x88, 0x62], '\u00CA\u0304'],
    ];
    for (const [label, b, want] of checks) equalText(new tc.TextDecoder(label).decode(new Uint8Array(b)), want, label);
  });

  return list;
}

/** Runs the cases; returns { passed, failed: [[name, message]] }. */
export async function run(list, log = () => {}) {
  let passed = 0;
  const failed = [];
  for (const [name, fn] of list) {
    try {
      await fn();
      passed++;
      log(`ok - ${name}`);
    } catch (e) {
      failed.push([name, String(e && e.stack || e)]);
      log(`not ok - ${name}\n  ${String(e && e.message || e)}`);
    }
  }
  return { passed, failed };
}
