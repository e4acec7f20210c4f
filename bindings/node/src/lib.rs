//! The native half of the `textcodec` Node.js module: thin napi-rs wrappers around
//! `textcodec::api`, the Rust model of the Encoding Standard's JavaScript API (§7).
//!
//! All conversion work happens here; `index.js` does the Web IDL part (argument conversion,
//! brand checks, exceptions of the right realm, `TransformStream` plumbing). Conventions:
//!
//! - bytes come in as a `Uint8Array` view borrowed for the duration of the call (`&[u8]`).
//!   JavaScript cannot run while we hold it, so an `ArrayBuffer`'s bytes cannot change under
//!   us and the Standard's "copy of the buffer source" needs no actual copy; the JavaScript
//!   layer copies `SharedArrayBuffer` memory (which other threads may write) before calling.
//! - strings come in as UTF-16 code units (`Utf16String`), so lone surrogates reach the
//!   encoder intact and become U+FFFD exactly as USVString conversion says.
//! - a decoder error is reported as `null`; the JavaScript layer throws the `TypeError`.

use napi::bindgen_prelude::{Env, Float64ArraySlice, Uint8Array, Uint8ArraySlice, Utf16String};
use napi::{Error, Result, Status};
use napi_derive::napi;
use textcodec::api;

/// Byte counts below which a result is copied into a V8-owned `ArrayBuffer` rather than
/// handed over as an external buffer: registering a finalizer costs more than copying a
/// small buffer.
const EXTERNAL_THRESHOLD: usize = 4096;

fn to_uint8array(env: &Env, bytes: Vec<u8>) -> Result<Uint8ArrayOut<'_>> {
    if bytes.len() < EXTERNAL_THRESHOLD {
        Ok(Uint8ArrayOut::Copied(Uint8ArraySlice::copy_from(
            env, &bytes,
        )?))
    } else {
        Ok(Uint8ArrayOut::Owned(Uint8Array::new(bytes)))
    }
}

/// A `Uint8Array` result, either copied into V8's heap or wrapping a Rust `Vec`.
pub enum Uint8ArrayOut<'env> {
    /// Small: bytes copied into a fresh `ArrayBuffer`.
    Copied(Uint8ArraySlice<'env>),
    /// Large: the `Vec` becomes the `ArrayBuffer`'s backing store.
    Owned(Uint8Array),
}

impl napi::bindgen_prelude::ToNapiValue for Uint8ArrayOut<'_> {
    unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
        match val {
            // SAFETY: forwarding to napi-rs's own conversions with the same env.
            Uint8ArrayOut::Copied(s) => unsafe { Uint8ArraySlice::to_napi_value(env, s) },
            Uint8ArrayOut::Owned(a) => unsafe { Uint8Array::to_napi_value(env, a) },
        }
    }
}

impl napi::bindgen_prelude::TypeName for Uint8ArrayOut<'_> {
    fn type_name() -> &'static str {
        "Uint8Array"
    }
    fn value_type() -> napi::ValueType {
        napi::ValueType::Object
    }
}

/// A decoded string on its way to JavaScript. V8 stores strings either as Latin-1 bytes or
/// as UTF-16 code units and builds either with a plain copy. Encodings whose text is mostly
/// Latin (UTF-8, the single-byte ones) are decoded to UTF-8 and handed over as Latin-1 when
/// every character is below U+0100 (ASCII borrows the bytes); the others (CJK, UTF-16) are
/// decoded straight to UTF-16.
pub enum JsText {
    Utf8(String),
    Utf16(Vec<u16>),
}

/// Whether text in this encoding is best decoded via UTF-8 (see [`JsText`]).
fn prefers_utf8(encoding: &str) -> bool {
    encoding == "utf-8"
        || textcodec::Encoding::for_label_str(encoding)
            .is_some_and(|e| e.is_single_byte() || e == textcodec::Encoding::XUserDefined)
}

/// The Latin-1 bytes of `s` (borrowed when it is ASCII), or `None` if it has a character
/// above U+00FF.
fn latin1(s: &str) -> Option<std::borrow::Cow<'_, [u8]>> {
    if s.is_ascii() {
        return Some(std::borrow::Cow::Borrowed(s.as_bytes()));
    }
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        out.push(u8::try_from(u32::from(c)).ok()?);
    }
    Some(std::borrow::Cow::Owned(out))
}

impl napi::bindgen_prelude::ToNapiValue for JsText {
    unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
        let text = match val {
            JsText::Utf16(units) => {
                // SAFETY: forwarding to napi-rs's own conversion with the same env.
                return unsafe { Utf16String::to_napi_value(env, Utf16String::from(units)) };
            }
            JsText::Utf8(text) => text,
        };
        if let Some(bytes) = latin1(&text) {
            let mut value = std::ptr::null_mut();
            // SAFETY: `bytes` is a live buffer of exactly `bytes.len()` bytes; V8 copies it.
            let status = unsafe {
                napi::sys::napi_create_string_latin1(
                    env,
                    bytes.as_ptr().cast(),
                    bytes.len() as isize,
                    &mut value,
                )
            };
            if status != napi::sys::Status::napi_ok {
                return Err(Error::new(
                    Status::GenericFailure,
                    "creating a string failed",
                ));
            }
            Ok(value)
        } else {
            let units: Vec<u16> = text.encode_utf16().collect();
            // SAFETY: forwarding to napi-rs's own conversion with the same env.
            unsafe { Utf16String::to_napi_value(env, Utf16String::from(units)) }
        }
    }
}

impl napi::bindgen_prelude::TypeName for JsText {
    fn type_name() -> &'static str {
        "String"
    }
    fn value_type() -> napi::ValueType {
        napi::ValueType::String
    }
}

fn options(fatal: bool, ignore_bom: bool) -> api::TextDecoderOptions {
    api::TextDecoderOptions { fatal, ignore_bom }
}

fn range_error() -> Error {
    Error::new(Status::InvalidArg, "RangeError")
}

/// The name (lowercased) of the encoding a label names, or `null` for failure and for
/// replacement: the constructors' steps 1–2.
#[napi]
pub fn encoding_for_label(label: String) -> Option<&'static str> {
    match textcodec::Encoding::for_label_str(&label)? {
        textcodec::Encoding::Replacement => None,
        e => Some(e.lowercase_name()),
    }
}

/// `TextDecoder`'s state.
#[napi]
pub struct NativeDecoder {
    inner: api::TextDecoder,
}

#[napi]
impl NativeDecoder {
    /// Throws if the label is not usable (the JavaScript layer checks first and throws a
    /// `RangeError`).
    #[napi(constructor)]
    pub fn new(label: String, fatal: bool, ignore_bom: bool) -> Result<Self> {
        let inner =
            api::TextDecoder::new(&label, options(fatal, ignore_bom)).map_err(|_| range_error())?;
        Ok(NativeDecoder { inner })
    }

    /// `decode(input, {stream})`; `input` undefined means not given. `null` on a fatal error.
    #[napi(ts_return_type = "string | null")]
    pub fn decode(&mut self, input: Option<&[u8]>, stream: bool) -> Option<JsText> {
        if prefers_utf8(self.inner.encoding()) {
            self.inner.decode(input, stream).ok().map(JsText::Utf8)
        } else {
            self.inner
                .decode_to_utf16(input, stream)
                .ok()
                .map(JsText::Utf16)
        }
    }
}

/// `TextDecoderStream`'s conversion state.
#[napi]
pub struct NativeDecoderStream {
    inner: api::TextDecoderStream,
}

#[napi]
impl NativeDecoderStream {
    /// Throws if the label is not usable (checked first in JavaScript).
    #[napi(constructor)]
    pub fn new(label: String, fatal: bool, ignore_bom: bool) -> Result<Self> {
        let inner = api::TextDecoderStream::new(&label, options(fatal, ignore_bom))
            .map_err(|_| range_error())?;
        Ok(NativeDecoderStream { inner })
    }

    /// *decode and enqueue a chunk*: the string to enqueue ("" for none), `null` on error.
    #[napi(ts_return_type = "string | null")]
    pub fn transform(&mut self, chunk: &[u8]) -> Option<JsText> {
        if prefers_utf8(self.inner.encoding()) {
            self.inner.transform(chunk).ok().map(JsText::Utf8)
        } else {
            self.inner.transform_to_utf16(chunk).ok().map(JsText::Utf16)
        }
    }

    /// *flush and enqueue*: the string to enqueue ("" for none), `null` on error.
    #[napi(ts_return_type = "string | null")]
    pub fn flush(&mut self) -> Option<JsText> {
        if prefers_utf8(self.inner.encoding()) {
            self.inner.flush().ok().map(JsText::Utf8)
        } else {
            self.inner.flush_to_utf16().ok().map(JsText::Utf16)
        }
    }
}

/// `TextEncoderStream`'s conversion state (the *leading surrogate*).
#[napi]
pub struct NativeEncoderStream {
    inner: api::TextEncoderStream,
}

impl Default for NativeEncoderStream {
    fn default() -> Self {
        Self::new()
    }
}

#[napi]
impl NativeEncoderStream {
    #[napi(constructor)]
    pub fn new() -> Self {
        NativeEncoderStream {
            inner: api::TextEncoderStream::new(),
        }
    }

    /// *encode and enqueue a chunk*: the bytes to enqueue (empty for none).
    #[napi(ts_return_type = "Uint8Array")]
    pub fn transform<'env>(
        &mut self,
        env: &'env Env,
        chunk: Utf16String,
    ) -> Result<Uint8ArrayOut<'env>> {
        to_uint8array(env, self.inner.transform(&chunk))
    }

    /// *encode and flush*: EF BF BD if a leading surrogate is left, else `null`.
    #[napi(ts_return_type = "Uint8Array | null")]
    pub fn flush<'env>(&mut self, env: &'env Env) -> Result<Option<Uint8ArrayOut<'env>>> {
        let bytes = self.inner.flush();
        if bytes.is_empty() {
            Ok(None)
        } else {
            to_uint8array(env, bytes).map(Some)
        }
    }
}

/// `TextEncoder.prototype.encode`: USVString conversion, then UTF-8.
#[napi(ts_return_type = "Uint8Array")]
pub fn encode<'env>(env: &'env Env, input: Utf16String) -> Result<Uint8ArrayOut<'env>> {
    to_uint8array(env, api::TextEncoder::new().encode_utf16(&input))
}

/// `TextEncoder.prototype.encodeInto`, writing straight into `destination` (never a
/// `SharedArrayBuffer` view: the JavaScript layer encodes those into a private buffer and
/// copies). `read` and `written` are stored in `result[0]` and `result[1]`.
#[napi]
pub fn encode_into(
    source: Utf16String,
    mut destination: Uint8ArraySlice<'_>,
    mut result: Float64ArraySlice<'_>,
) -> Result<()> {
    // Two views of one `ArrayBuffer` would make two aliasing `&mut` slices below.
    let (d, r) = (destination.as_ptr() as usize, result.as_ptr() as usize);
    let (d_len, r_len) = (destination.len(), result.len().saturating_mul(8));
    if d_len != 0 && r_len != 0 && d < r.saturating_add(r_len) && r < d.saturating_add(d_len) {
        return Err(Error::from_reason(
            "encodeInto: the destination and the result views overlap",
        ));
    }
    // SAFETY: the call is synchronous, so no JavaScript runs while these slices live;
    // neither view is backed by a `SharedArrayBuffer` (the JavaScript layer guarantees it),
    // so nothing else can touch the memory; they do not overlap (checked above). `source`
    // is our own copy.
    let (destination, result) = unsafe { (destination.as_mut(), result.as_mut()) };
    let r = api::TextEncoder::new().encode_into(&source, destination);
    if let [read, written, ..] = result {
        *read = r.read as f64;
        *written = r.written as f64;
    }
    Ok(())
}

/// Not part of the public module (index.js does not export it): the Standard's *encode*
/// hook (HTML error mode: unmappable characters become `&#NNNN;`), used by the benchmark to
/// produce legacy-encoded inputs and by tests. `null` for a label that is not a label.
#[napi(js_name = "_encodeHtml", ts_return_type = "Uint8Array | null")]
pub fn encode_html<'env>(
    env: &'env Env,
    label: String,
    text: String,
) -> Result<Option<Uint8ArrayOut<'env>>> {
    let Some(encoding) = textcodec::Encoding::for_label_str(&label) else {
        return Ok(None);
    };
    let (bytes, _) = textcodec::encode(&text, encoding);
    to_uint8array(env, bytes.into_owned()).map(Some)
}

/// What [`kernel_info`] returns: the SIMD kernel level textcodec runs at, and how it was
/// chosen (`textcodec::kernel_info`).
#[napi(object)]
pub struct KernelInfo {
    /// The level in use (`scalar`, `sse2`, …, as `TEXTCODEC_KERNEL` spells it).
    pub active: String,
    /// What became of `TEXTCODEC_KERNEL`: `unset`, `honoured`, `capped` (the CPU lacks the
    /// level: the best one below runs) or `unknown` (names no level: ignored).
    pub request: String,
    /// The `TEXTCODEC_KERNEL` value, unless `request` is `unset`.
    pub requested: Option<String>,
    /// Every level of this target, most portable first.
    pub levels: Vec<String>,
    /// The levels this CPU supports.
    pub supported: Vec<String>,
}

/// Not part of the public module (index.js does not export it): the kernel level in use,
/// so that tests run with `TEXTCODEC_KERNEL` can check that the level they asked for runs.
#[napi(js_name = "_kernelInfo")]
pub fn kernel_info() -> KernelInfo {
    use textcodec::KernelRequest;
    let info = textcodec::kernel_info();
    let (request, requested) = match info.request {
        KernelRequest::Unset => ("unset", None),
        KernelRequest::Honoured(name) => ("honoured", Some(name.to_string())),
        KernelRequest::Capped(name) => ("capped", Some(name.to_string())),
        KernelRequest::Unknown(value) => ("unknown", Some(value)),
        // A kind of request added later: reported, not guessed at.
        _ => ("other", None),
    };
    let names = |list: &[&str]| list.iter().map(|s| (*s).to_string()).collect();
    KernelInfo {
        active: info.active.to_string(),
        request: request.to_string(),
        requested,
        levels: names(info.levels),
        supported: names(info.supported),
    }
}

/// One candidate of [`detect`]'s ranking.
#[napi(object)]
pub struct DetectCandidate {
    /// The encoding's name, lowercased (as `TextDecoder.prototype.encoding` gives it).
    pub encoding: String,
    /// The probability that decoding with it gives the input's text (0 when
    /// disqualified).
    pub confidence: f64,
    /// Its plausibility score (higher is better); `null` when not finite.
    pub score: Option<f64>,
    /// Its decoder found a malformed sequence in the input, or the options rule it out.
    pub disqualified: bool,
    /// The options rule it out (`allow`, `deny`, `allowUTF8`).
    pub excluded: bool,
}

/// What [`detect`] returns.
#[napi(object)]
pub struct DetectResult {
    /// The guess's name, lowercased (pass it to `new TextDecoder(...)`).
    pub encoding: String,
    /// The probability that decoding with `encoding` gives the text, calibrated on
    /// held-out text; 1 for ASCII-only input, 0 for binary data.
    pub confidence: f64,
    /// The text's language (`"ru"`, `"ja"`) where the model knows it, else `null`.
    pub language: Option<String>,
    /// The language's English name (`"Russian"`), else `null`.
    pub language_name: Option<String>,
    /// Not text: the binary format (`"PNG"`, `"gzip"`, `"control bytes"`), else `null`.
    pub binary: Option<String>,
    /// The guess's score; `null` when not finite.
    pub score: Option<f64>,
    /// The guess's score minus the runner-up's: the larger, the surer.
    pub margin: Option<f64>,
    /// No byte told encodings apart: the guess is the hints' default.
    pub ascii_only: bool,
    /// The detector stopped looking before the end: it had enough evidence.
    pub stopped_early: bool,
    /// Every candidate, best first; disqualified ones last.
    pub ranking: Vec<DetectCandidate>,
}

fn finite(value: f32) -> Option<f64> {
    value.is_finite().then_some(f64::from(value))
}

/// Labels to encodings; an unknown label is a `RangeError`, as for `TextDecoder`.
fn encodings(labels: Option<Vec<String>>) -> Result<Option<Vec<textcodec::Encoding>>> {
    labels
        .map(|labels| {
            labels
                .iter()
                .map(|label| {
                    textcodec::Encoding::for_label_str(label).ok_or_else(|| {
                        Error::new(
                            Status::InvalidArg,
                            format!("RangeError: unknown encoding label \"{label}\""),
                        )
                    })
                })
                .collect()
        })
        .transpose()
}

/// `detect(bytes, tld, allowUTF8, locale, allow, deny)`: the statistical detector
/// (`textcodec::detect`) on unlabelled bytes. The JavaScript layer validates and defaults
/// the options.
#[napi(js_name = "detect")]
pub fn detect_encoding(
    input: &[u8],
    tld: Option<String>,
    allow_utf8: bool,
    locale: Option<String>,
    allow: Option<Vec<String>>,
    deny: Option<Vec<String>>,
) -> Result<DetectResult> {
    use textcodec::detect::{Detector, Hints};
    let allow = encodings(allow)?;
    let deny = encodings(deny)?.unwrap_or_default();
    let hints = Hints {
        tld: tld.as_deref().map(str::as_bytes),
        allow_utf8,
        locale: locale.as_deref(),
        allow: allow.as_deref(),
        deny: &deny,
    };
    let mut detector = Detector::new();
    detector.feed(input, true);
    let guess = detector.guess(&hints);
    let ranking = detector
        .ranking(&hints)
        .into_iter()
        .map(|c| DetectCandidate {
            encoding: c.encoding.lowercase_name().to_string(),
            confidence: f64::from(c.confidence),
            score: finite(c.score),
            disqualified: c.disqualified,
            excluded: c.excluded,
        })
        .collect();
    Ok(DetectResult {
        encoding: guess.encoding.lowercase_name().to_string(),
        confidence: f64::from(guess.confidence),
        language: guess.language.map(|l| l.code().to_string()),
        language_name: guess.language.map(|l| l.name().to_string()),
        binary: guess.binary.map(|b| b.name().to_string()),
        score: finite(guess.score),
        margin: finite(guess.margin),
        ascii_only: guess.ascii_only,
        stopped_early: guess.stopped_early,
        ranking,
    })
}
