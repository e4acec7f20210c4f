//! <https://encoding.spec.whatwg.org/#interface-textdecoder>
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use alloc::string::String;
use alloc::vec::Vec;

use super::ApiError;
use crate::decoder::{BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions};
use crate::Encoding;

/// `TextDecoderOptions` (`fatal`, `ignoreBOM`, both default false).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct TextDecoderOptions {
    /// Throw `TypeError` on malformed input instead of emitting U+FFFD.
    pub fatal: bool,
    /// Keep a leading U+FEFF (UTF-8 and UTF-16 only).
    pub ignore_bom: bool,
}

/// The state shared by `TextDecoder` and `TextDecoderStream` (#textdecodercommon).
#[derive(Clone, Debug)]
pub(crate) struct DecoderCommon {
    pub(crate) encoding: Encoding,
    pub(crate) decoder: Decoder,
    pub(crate) ignore_bom: bool,
    pub(crate) bom_seen: bool,
    /// Bytes of the I/O queue not yet read (only after a fatal error mid-chunk).
    pub(crate) queue: Vec<u8>,
}

impl DecoderCommon {
    /// Constructor steps 1–5 (shared with `TextDecoderStream`).
    pub(crate) fn new(label: &str, options: TextDecoderOptions) -> Result<Self, ApiError> {
        let encoding = match Encoding::for_label_str(label) {
            None | Some(Encoding::Replacement) => return Err(ApiError::RangeError),
            Some(e) => e,
        };
        Ok(DecoderCommon {
            encoding,
            decoder: Self::new_decoder(encoding, options.fatal),
            ignore_bom: options.ignore_bom,
            bom_seen: false,
            queue: Vec::new(),
        })
    }

    fn new_decoder(encoding: Encoding, fatal: bool) -> Decoder {
        // BOM handling happens on the output, in `serialize` (#concept-td-serialize), not on
        // bytes: that is what makes *BOM seen* exact across errors and chunks.
        Decoder::with_options(
            encoding,
            DecoderOptions {
                error_mode: if fatal {
                    DecodeErrorMode::Fatal
                } else {
                    DecodeErrorMode::Replacement
                },
                bom: BomHandling::Keep,
            },
        )
    }

    pub(crate) fn fatal(&self) -> bool {
        self.decoder.options().error_mode == DecodeErrorMode::Fatal
    }

    /// A new decoder instance, an empty I/O queue, *BOM seen* false.
    pub(crate) fn reset(&mut self) {
        self.decoder = Self::new_decoder(self.encoding, self.fatal());
        self.queue.clear();
        self.bom_seen = false;
    }

    /// Processes the I/O queue plus `input` (then end-of-queue if `flush`), appending to
    /// `out` before serialization, or `TypeError` (keeping the unread bytes queued: a
    /// streaming caller's next call starts with them, #dom-textdecoder-decode step 5).
    fn process<O: ApiOutput>(
        &mut self,
        input: &[u8],
        flush: bool,
        out: &mut O,
    ) -> Result<(), ApiError> {
        let mut owned;
        let bytes: &[u8] = if self.queue.is_empty() {
            input
        } else {
            owned = core::mem::take(&mut self.queue);
            owned.extend_from_slice(input);
            &owned
        };
        let r = out.decode(&mut self.decoder, bytes, flush);
        match r.status {
            DecodeStatus::Malformed(_) => {
                self.queue = bytes.get(r.read..).unwrap_or_default().to_vec();
                Err(ApiError::TypeError)
            }
            _ => Ok(()),
        }
    }

    /// *serialize I/O queue*: drop one leading U+FEFF for UTF-8/UTF-16 unless *ignore BOM*,
    /// deciding on the first scalar value ever serialized.
    fn serialize<O: ApiOutput>(&mut self, output: &mut O) {
        let bom_encoding = matches!(
            self.encoding,
            Encoding::Utf8 | Encoding::Utf16Be | Encoding::Utf16Le
        );
        if bom_encoding && !self.ignore_bom && !self.bom_seen && !output.is_empty() {
            self.bom_seen = true;
            output.strip_leading_bom();
        }
    }

    /// Decodes a chunk and serializes it, as UTF-8 (`String`) or UTF-16 (`Vec<u16>`).
    pub(crate) fn decode_chunk<O: ApiOutput>(
        &mut self,
        input: &[u8],
        flush: bool,
    ) -> Result<O, ApiError> {
        let mut out = O::default();
        self.process(input, flush, &mut out)?;
        self.serialize(&mut out);
        Ok(out)
    }
}

/// The two output forms of the API: a Rust `String` or JavaScript-style UTF-16.
pub(crate) trait ApiOutput: Default {
    fn decode(&mut self, decoder: &mut Decoder, bytes: &[u8], last: bool) -> crate::DecodeResult;
    fn is_empty(&self) -> bool;
    /// Removes a leading U+FEFF, if there is one.
    fn strip_leading_bom(&mut self);
}

impl ApiOutput for String {
    fn decode(&mut self, decoder: &mut Decoder, bytes: &[u8], last: bool) -> crate::DecodeResult {
        decoder.decode_to_string(bytes, self, last)
    }
    fn is_empty(&self) -> bool {
        str::is_empty(self)
    }
    fn strip_leading_bom(&mut self) {
        if self.starts_with('\u{FEFF}') {
            self.drain(..'\u{FEFF}'.len_utf8());
        }
    }
}

impl ApiOutput for Vec<u16> {
    fn decode(&mut self, decoder: &mut Decoder, bytes: &[u8], last: bool) -> crate::DecodeResult {
        decoder.decode_to_utf16_vec(bytes, self, last)
    }
    fn is_empty(&self) -> bool {
        <[u16]>::is_empty(self)
    }
    fn strip_leading_bom(&mut self) {
        if self.first() == Some(&0xFEFF) {
            self.remove(0);
        }
    }
}

/// `TextDecoder` (#interface-textdecoder).
///
/// ```
/// use textcodec::api::{TextDecoder, TextDecoderOptions};
/// let mut d = TextDecoder::new("utf-8", TextDecoderOptions::default()).unwrap();
/// let mut s = d.decode(Some(b"\xEF\xBB\xBFa\xE2"), true).unwrap();
/// s += &d.decode(Some(b"\x82\xAC"), false).unwrap();
/// assert_eq!(s, "a€");
/// assert_eq!(d.encoding(), "utf-8");
/// ```
#[derive(Clone, Debug)]
pub struct TextDecoder {
    common: DecoderCommon,
    /// do not flush
    do_not_flush: bool,
}

impl TextDecoder {
    /// `new TextDecoder(label, options)`: `RangeError` for a non-label or a label of
    /// replacement (#dom-textdecoder).
    pub fn new(label: &str, options: TextDecoderOptions) -> Result<TextDecoder, ApiError> {
        Ok(TextDecoder {
            common: DecoderCommon::new(label, options)?,
            do_not_flush: false,
        })
    }

    /// `encoding`: the encoding's name, lowercased.
    pub fn encoding(&self) -> &'static str {
        self.common.encoding.lowercase_name()
    }

    /// `fatal`.
    pub fn fatal(&self) -> bool {
        self.common.fatal()
    }

    /// `ignoreBOM`.
    pub fn ignore_bom(&self) -> bool {
        self.common.ignore_bom
    }

    /// `decode(input, {stream})` (#dom-textdecoder-decode). `input: None` is the omitted
    /// argument. `TypeError` in fatal mode on malformed input.
    pub fn decode(&mut self, input: Option<&[u8]>, stream: bool) -> Result<String, ApiError> {
        self.decode_as(input, stream)
    }

    /// [`TextDecoder::decode`] returning UTF-16 code units (what a JavaScript string holds),
    /// decoded straight to UTF-16.
    pub fn decode_to_utf16(
        &mut self,
        input: Option<&[u8]>,
        stream: bool,
    ) -> Result<Vec<u16>, ApiError> {
        self.decode_as(input, stream)
    }

    /// The `decode()` method steps, for either output form.
    fn decode_as<O: ApiOutput>(
        &mut self,
        input: Option<&[u8]>,
        stream: bool,
    ) -> Result<O, ApiError> {
        // Step 1.
        if !self.do_not_flush {
            self.common.reset();
        }
        // Step 2.
        self.do_not_flush = stream;
        // Steps 3–5: end-of-queue is processed only when not streaming.
        self.common.decode_chunk(input.unwrap_or(&[]), !stream)
    }
}
