// detect() and sniff(), on the core's second WebAssembly module (wasm/src/detect.rs: the
// detector's models are most of its size), which the main one does not carry. It is
// instantiated on first use: synchronously where the runtime reads files (Node, Deno, Bun:
// `load.sync`), and in browsers by `loadDetect()`, which a page awaits before its first
// detect() or sniff() (a browser compiles a module of this size only asynchronously on its
// main thread). No imports (see core.js).

/**
 * @param {object} api the helpers of src/api.js the two share (argument checks, labels)
 * @param {{ sync: (() => WebAssembly.Instance) | null, async: () => Promise<WebAssembly.Instance> }} load
 */
export function createDetect(api, load) {
  const { lowerNameOf, bytesArgument, encodingId, describe, utf8Encode } = api;
  const { Uint8Array, Uint32Array, Float64Array, TypeError, RangeError, Error } = globalThis;
  let loaded = null;
  let loading = null;

  /** The module's memory helpers over an instance. */
  function attach(inst) {
    const w = inst.exports;
    let inPtr = 0;
    let inCap = 0;
    const u8 = () => new Uint8Array(w.memory.buffer);
    const resultBase = w.tc_result() >>> 2;
    return {
      w,
      putBytes(bytes) {
        if (bytes.length > inCap) {
          if (inPtr !== 0) w.tc_free(inPtr, inCap);
          const cap = Math.max(65536, bytes.length);
          inPtr = w.tc_alloc(cap);
          if (inPtr === 0) {
            inCap = 0;
            throw new RangeError(`textcodec: out of memory for ${bytes.length} bytes of input`);
          }
          inCap = cap;
        }
        u8().set(bytes, inPtr);
        return inPtr;
      },
      slot: (i) => new Uint32Array(w.memory.buffer)[resultBase + i],
      /** The output the last call left, as Latin-1 (it is ASCII). */
      lastString() {
        const r = new Uint32Array(w.memory.buffer);
        const ptr = r[resultBase];
        const len = r[resultBase + 1];
        const bytes = u8();
        let s = '';
        for (let i = 0; i < len; i++) s += String.fromCharCode(bytes[ptr + i]);
        return s;
      },
      numbers: (count) => new Float64Array(w.memory.buffer, w.tc_numbers(), count).slice(),
    };
  }

  function instance() {
    if (loaded !== null) return loaded;
    if (load.sync === null) {
      throw new Error('textcodec: detect() and sniff() run on a second WebAssembly module that ' +
        'this runtime loads asynchronously: `await loadDetect()` once before the first call');
    }
    loaded = attach(load.sync());
    return loaded;
  }

  /** Resolves once detect() and sniff() can run (at once where the module loads synchronously). */
  function loadDetect() {
    if (loaded !== null) return Promise.resolve();
    if (load.sync !== null) {
      try { instance(); return Promise.resolve(); } catch (e) { return Promise.reject(e); }
    }
    loading ??= load.async().then((inst) => { loaded ??= attach(inst); }, (e) => { loading = null; throw e; });
    return loading;
  }

  function optionalString(value, what, context) {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') throw new TypeError(`${context}: ${what} must be a string, got ${describe(value)}`);
    return value;
  }

  /** Writes a string and an id list into the core for detect/sniff; returns [ptr, len] pairs. */
  function scratchArgs(strings, lists) {
    // One buffer: strings as UTF-8, then the id lists, one byte per id.
    const parts = [];
    let total = 0;
    const enc = (s) => utf8Encode(s);
    for (const s of strings) { const b = s === null ? null : enc(s); parts.push(b); total += b ? b.length : 0; }
    for (const l of lists) { parts.push(l); total += l ? l.length : 0; }
    const all = new Uint8Array(total);
    const at = [];
    let o = 0;
    for (const part of parts) {
      if (part === null) { at.push(null); continue; }
      all.set(part, o);
      at.push([o, part.length]);
      o += part.length;
    }
    return [all, at];
  }

  /**
   * Copies `view` into the core, followed by the strings and id lists of scratchArgs;
   * returns [core, address of the bytes, [ptr, len] of each argument ([0, 0] for null)].
   */
  function putArgs(view, strings, lists) {
    const [extra, at] = scratchArgs(strings, lists);
    const all = new Uint8Array(view.length + extra.length);
    all.set(view, 0);
    all.set(extra, view.length);
    const m = instance();
    const p = all.length === 0 ? 0 : m.putBytes(all);
    return [m, p, at.map((a) => (a === null ? [0, 0] : [p + view.length + a[0], a[1]]))];
  }

  /**
   * detect(bytes, { tld, locale, allowUTF8 = true, allow, deny }) → the statistical
   * detector's guess for unlabelled bytes: { encoding, confidence, language,
   * languageName, binary, score, margin, asciiOnly, stoppedEarly, ranking }.
   */
  function detect(bytes, options = undefined) {
    const context = 'textcodec.detect';
    const view = bytesArgument(bytes, context);
    let tld = null, locale = null, allowUTF8 = true, allow = null, deny = [];
    if (options !== undefined && options !== null) {
      if (typeof options !== 'object') throw new TypeError(`${context}: options must be an object, got ${describe(options)}`);
      const ids = (v, what) => {
        if (v === undefined || v === null) return null;
        if (typeof v === 'string' || typeof v[Symbol.iterator] !== 'function') throw new TypeError(`${context}: ${what} must be an array of labels`);
        return Array.from(v, (label) => encodingId(label, `${context} (${what})`));
      };
      allow = ids(options.allow, 'options.allow');
      if (options.allowUTF8 !== undefined) allowUTF8 = !!options.allowUTF8;
      deny = ids(options.deny, 'options.deny') ?? [];
      locale = optionalString(options.locale, 'options.locale', context);
      tld = optionalString(options.tld, 'options.tld', context);
    }
    const [m, p, [[tp, tl], [lp, ll], [ap0, al], [dp, dl]]] = putArgs(view, [tld, locale], [allow, deny]);
    let ap = ap0;
    if (allow !== null && al === 0) ap = p + view.length; // an empty allow list is not "any"
    if (allow !== null && ap === 0) ap = 8;
    const count = m.w.tc_detect(p, view.length, tp, tl, allowUTF8 ? 1 : 0, lp, ll, ap, al, dp, dl);
    const [language, languageName, binary] = m.lastString().split('\t');
    const nums = m.numbers(5 + 4 * count);
    const num = (x) => (Number.isNaN(x) ? null : x);
    const ranking = [];
    for (let i = 0; i < count; i++) {
      const b = 5 + 4 * i;
      ranking.push({
        encoding: lowerNameOf(nums[b]),
        confidence: nums[b + 1],
        score: num(nums[b + 2]),
        disqualified: (nums[b + 3] & 1) !== 0,
        excluded: (nums[b + 3] & 2) !== 0,
      });
    }
    return {
      encoding: lowerNameOf(nums[0]),
      confidence: nums[1],
      language: language || null,
      languageName: languageName || null,
      binary: binary || null,
      score: num(nums[2]),
      margin: num(nums[3]),
      asciiOnly: (nums[4] & 1) !== 0,
      stoppedEarly: (nums[4] & 2) !== 0,
      ranking,
    };
  }

  const KINDS = { __proto__: null, html: 0, xml: 1, css: 2, text: 3, json: 4 };

  /**
   * sniff(bytes, { contentType, kind, userOverride, fallback, locale, detect, tld }) → how a
   * browser picks a web resource's encoding from its first bytes: BOM, then the
   * Content-Type charset, then (HTML) the <meta> prescan or (XML) the declaration or (CSS)
   * @charset, then fallbacks. Returns { encoding, confidence: "certain" | "tentative" |
   * "irrelevant", source, kind, bomLength, detection }.
   */
  function sniff(bytes, options = undefined) {
    const context = 'textcodec.sniff';
    const view = bytesArgument(bytes, context);
    let contentType = null, kind = null, userOverride = -1, fallback = -1, locale = null, tld = null, runDetect = false;
    if (options !== undefined && options !== null) {
      if (typeof options !== 'object') throw new TypeError(`${context}: options must be an object, got ${describe(options)}`);
      contentType = optionalString(options.contentType, 'options.contentType', context);
      if (options.kind !== undefined && options.kind !== null) {
        kind = KINDS[options.kind];
        if (kind === undefined) throw new RangeError(`${context}: options.kind must be "html", "xml", "css", "text" or "json", got ${describe(options.kind)}`);
      }
      if (options.userOverride != null) userOverride = encodingId(options.userOverride, `${context} (options.userOverride)`);
      if (options.fallback != null) fallback = encodingId(options.fallback, `${context} (options.fallback)`);
      locale = optionalString(options.locale, 'options.locale', context);
      tld = optionalString(options.tld, 'options.tld', context);
      runDetect = !!options.detect;
    }
    if (kind === null) kind = contentType !== null ? 5 : 0;
    const [m, p, [[cp0, cl], [lp, ll], [tp, tl]]] = putArgs(view, [contentType, locale, tld], []);
    const cp = contentType !== null && cp0 === 0 ? 8 : cp0;
    m.w.tc_sniff(p, view.length, kind, cp, cl, userOverride, fallback, lp, ll, runDetect ? 1 : 0, tp, tl);
    const id = m.slot(2);
    const bomLength = m.slot(3);
    const detected = m.slot(5);
    const [confidence, source, kindName] = m.lastString().split('\t');
    const detection = detected === 0xFFFFFFFF ? null
      : { encoding: lowerNameOf(detected), confidence: m.numbers(1)[0] };
    return { encoding: lowerNameOf(id), confidence, source, kind: kindName, bomLength, detection };
  }

  return { detect, sniff, loadDetect };
}
