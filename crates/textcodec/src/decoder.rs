//! The streaming decoder: <https://encoding.spec.whatwg.org/#concept-encoding-run> with
//! error modes (#error-mode), BOM handling (#decode, #utf-8-decode, #concept-td-serialize)
//! and caller-provided output buffers.
//!
//! The Standard describes decoding as a handler reading from an *I/O queue* that supports
//! *restore*. Here the caller hands over input in slices; the driver keeps what the queue
//! would hold between calls: up to four restored bytes (`replay`), the bytes of the
//! sequence in progress (`seq`, for error reports) and the stream offset. Splitting the
//! input anywhere therefore gives the same output as decoding it whole (the property
//! tests check this for every encoding).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::codecs::{
    big5::Big5Decoder, euc_jp::EucJpDecoder, euc_kr::EucKrDecoder, gb18030::Gb18030Decoder,
    iso_2022_jp::Iso2022JpDecoder, replacement::ReplacementDecoder, shift_jis::ShiftJisDecoder,
    single_byte::SingleByteDecoder, utf_16::Utf16Decoder, utf_8::Utf8Decoder,
    x_user_defined::XUserDefinedDecoder, DecodeKernel, Restore, Step,
};
use crate::sink::{self, Sink, Utf16Sink, Utf8Sink};
use crate::Encoding;

mod queue;
use queue::{drop_bytes, low_bytes, pack, Queue};

/// A decoder's *error mode* (#error-mode).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum DecodeErrorMode {
    /// Emit U+FFFD for each error and go on (what browsers do).
    #[default]
    Replacement,
    /// Stop at the first error and report it ([`DecodeStatus::Malformed`]); decoding can
    /// resume after it.
    Fatal,
}

/// What to do with a byte order mark at the start of the input.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum BomHandling {
    /// The *decode* hook (#decode): a UTF-8, UTF-16BE or UTF-16LE BOM (#bom-sniff) overrides
    /// the encoding and is removed.
    #[default]
    Sniff,
    /// Remove the BOM of the decoder's own encoding if it is UTF-8, UTF-16BE or UTF-16LE; do
    /// not switch encodings. This is *UTF-8 decode* (#utf-8-decode) for UTF-8 and what
    /// `TextDecoder` does when *ignore BOM* is false (#concept-td-serialize).
    Remove,
    /// No BOM handling: a BOM decodes to U+FEFF like any other bytes (*UTF-8 decode
    /// without BOM*, `TextDecoder` with `ignoreBOM: true`).
    Keep,
}

/// Options for [`Decoder::with_options`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct DecoderOptions {
    /// Replacement (default) or fatal.
    pub error_mode: DecodeErrorMode,
    /// BOM handling (default: sniff, as the *decode* hook).
    pub bom: BomHandling,
}

/// A malformed byte sequence found in fatal mode.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MalformedSequence {
    offset: u64,
    bytes: [u8; 8],
    len: u8,
}

impl MalformedSequence {
    /// Offset in the whole stream (counting from the first byte ever given to this decoder,
    /// BOM included) of the first byte of the malformed sequence. For an error at the end
    /// of the stream with nothing pending this is the stream length.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The malformed bytes: those the Standard's handler consumed for this error and did not
    /// restore or keep for the next sequence (at most 8). Bytes that the handler restored,
    /// such as the ASCII byte in Shift_JIS `82 22`, are not part of the sequence: they are
    /// decoded next. For ISO-2022-JP, a redundant escape sequence is itself the error.
    pub fn bytes(&self) -> &[u8] {
        self.bytes.get(..usize::from(self.len)).unwrap_or_default()
    }
}

impl MalformedSequence {
    /// The same error with its offset moved `by` bytes later (for callers that decoded a
    /// suffix of their stream).
    pub(crate) fn shifted(mut self, by: u64) -> Self {
        self.offset = self.offset.saturating_add(by);
        self
    }
}

impl core::fmt::Display for MalformedSequence {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "malformed byte sequence")?;
        for b in self.bytes() {
            write!(f, " {b:02X}")?;
        }
        if self.bytes().is_empty() {
            write!(f, " (truncated at end of input)")?;
        }
        write!(f, " at byte offset {}", self.offset)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for MalformedSequence {}

/// Why a decode call returned.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DecodeStatus {
    /// All input was consumed (and, if `last` was set, the stream was flushed and the
    /// decoder reset for a new stream).
    InputEmpty,
    /// The output buffer cannot take the next character: call again with more room and the
    /// unread input.
    OutputFull,
    /// Fatal mode only: a malformed sequence. `read` includes it; call again with the rest
    /// of the input to go on.
    Malformed(MalformedSequence),
}

/// The result of a decode call.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[must_use]
pub struct DecodeResult {
    /// Why the call returned.
    pub status: DecodeStatus,
    /// Bytes of the input consumed.
    pub read: usize,
    /// Code units written to the output (bytes for UTF-8, `u16` for UTF-16).
    pub written: usize,
}

/// Runs one kernel over `src` (#concept-encoding-run, one call's worth).
// Out of line in WebAssembly: inlined, every encoding's loop lands in `Decoder::run`, and
// an engine compiling on first call (V8) compiles them all for the first decode of one.
#[cfg_attr(target_arch = "wasm32", inline(never))]
fn drive<K: DecodeKernel, S: Sink>(
    kernel: &mut K,
    q: &mut Queue,
    replacements: &mut u64,
    fatal: bool,
    src: &[u8],
    dst: &mut S,
    last: bool,
) -> (DecodeStatus, usize) {
    // `read <= src.len()` throughout: the fast path reports what it took from `src[read..]`
    // and the handler path takes one byte that `src.get(read)` found.
    let mut read = 0usize;
    loop {
        if q.replay_len == 0 && kernel.is_ground() {
            let n = kernel.fast(src.get(read..).unwrap_or_default(), dst);
            read = read.saturating_add(n);
            q.pos = q.pos.saturating_add(n as u64);
        }
        // Read the next item: restored bytes first, then input, then end-of-queue.
        let from_replay = q.replay_len > 0;
        let byte = if from_replay {
            Some(q.front())
        } else if let Some(&b) = src.get(read) {
            Some(b)
        } else if last {
            None
        } else {
            return (DecodeStatus::InputEmpty, read);
        };
        // Run the handler on a copy so nothing changes unless the output fits.
        let mut next = *kernel;
        let step = next.handle(byte);
        let need = match step {
            Step::Emit(c) => S::units(c),
            Step::Emit2(a, b) => S::units(a).saturating_add(S::units(b)),
            Step::Error(_) if !fatal => S::units('\u{FFFD}'),
            _ => 0,
        };
        if dst.room() < need {
            return (DecodeStatus::OutputFull, read);
        }
        *kernel = next;
        let unread = matches!(step, Step::Error(Restore { unread: true, .. }));
        if let (Some(b), false) = (byte, unread) {
            q.push_seq(b);
            q.pos = q.pos.saturating_add(1);
            if from_replay {
                q.pop_replay();
            } else {
                read = read.saturating_add(1);
            }
        }
        match step {
            Step::Continue => {
                if kernel.is_ground() {
                    q.seq_len = 0;
                }
            }
            Step::Emit(c) => {
                dst.push(c);
                q.seq_len = 0;
            }
            Step::Emit2(a, b) => {
                dst.push(a);
                dst.push(b);
                q.seq_len = 0;
            }
            Step::Finished => return (DecodeStatus::InputEmpty, read),
            Step::Error(restore) => {
                // The sequence splits into « malformed | held | prior »: the malformed bytes
                // are reported, the held ones begin the next sequence, the prior ones are
                // restored to the queue. `bad_len + held + prior = len <= 8`.
                let len = usize::from(q.seq_len);
                let prior = usize::from(restore.prior).min(len);
                let held = usize::from(restore.held).min(len.saturating_sub(prior));
                let bad_len = len.saturating_sub(prior).saturating_sub(held);
                let malformed = MalformedSequence {
                    offset: if len == 0 { q.pos } else { q.seq_start },
                    bytes: low_bytes(q.seq, bad_len).to_le_bytes(),
                    len: bad_len as u8,
                };
                // Restore the prior bytes in front of whatever comes next.
                let after_bad = drop_bytes(q.seq, bad_len);
                q.prepend(drop_bytes(after_bad, held), prior);
                q.pos = q.pos.saturating_sub(prior as u64);
                // Held bytes begin the next sequence.
                q.seq = low_bytes(after_bad, held);
                q.seq_start = q.seq_start.saturating_add(bad_len as u64);
                q.seq_len = held as u8;
                if fatal {
                    return (DecodeStatus::Malformed(malformed), read);
                }
                dst.push('\u{FFFD}');
                *replacements = replacements.saturating_add(1);
            }
        }
    }
}

/// The kernels, one variant per decoder algorithm of the Standard.
#[derive(Clone, Copy, Debug)]
enum Kernel {
    Utf8(Utf8Decoder),
    Utf16(Utf16Decoder),
    SingleByte(SingleByteDecoder),
    Gb18030(Gb18030Decoder),
    Big5(Big5Decoder),
    EucJp(EucJpDecoder),
    Iso2022Jp(Iso2022JpDecoder),
    ShiftJis(ShiftJisDecoder),
    EucKr(EucKrDecoder),
    Replacement(ReplacementDecoder),
    XUserDefined(XUserDefinedDecoder),
}

impl Kernel {
    fn for_encoding(encoding: Encoding) -> Kernel {
        use Encoding::*;
        match encoding {
            Utf8 => Kernel::Utf8(Utf8Decoder::default()),
            Utf16Be => Kernel::Utf16(Utf16Decoder::new(true)),
            Utf16Le => Kernel::Utf16(Utf16Decoder::new(false)),
            Gbk | Gb18030 => Kernel::Gb18030(Gb18030Decoder::default()),
            Big5 => Kernel::Big5(Big5Decoder::default()),
            EucJp => Kernel::EucJp(EucJpDecoder::default()),
            Iso2022Jp => Kernel::Iso2022Jp(Iso2022JpDecoder::default()),
            ShiftJis => Kernel::ShiftJis(ShiftJisDecoder::default()),
            EucKr => Kernel::EucKr(EucKrDecoder::default()),
            Replacement => Kernel::Replacement(ReplacementDecoder::default()),
            XUserDefined => Kernel::XUserDefined(XUserDefinedDecoder),
            single => match single.single_byte_tables() {
                Some(index) => Kernel::SingleByte(SingleByteDecoder::new(index)),
                None => Kernel::Replacement(ReplacementDecoder::default()),
            },
        }
    }
}

/// BOM handling progress.
#[derive(Clone, Copy, Debug)]
enum BomState {
    /// Still looking: the bytes seen so far are a proper prefix of a candidate BOM.
    Looking {
        buf: [u8; 3],
        len: u8,
    },
    Done,
}

/// A streaming decoder for one encoding (#decoder), with an error mode and BOM handling.
///
/// Feed input in slices of any size with `last == false`, then once with `last == true`
/// (possibly with an empty slice) to process end-of-queue. Output goes into buffers you
/// provide, in UTF-8 ([`Decoder::decode_to_utf8`], [`Decoder::decode_to_str`],
/// [`Decoder::decode_to_string`]) or UTF-16 ([`Decoder::decode_to_utf16`]). After the
/// `last` call returns [`DecodeStatus::InputEmpty`] the decoder is ready for a new stream.
///
/// ```
/// use textcodec::{Decoder, DecodeStatus, Encoding};
///
/// let mut decoder = Decoder::new(Encoding::ShiftJis);
/// let mut out = String::new();
/// // "日本" in Shift_JIS, split inside a character.
/// for (chunk, last) in [(&b"\x93\xfa\x96"[..], false), (&b"\x7b"[..], true)] {
///     let result = decoder.decode_to_string(chunk, &mut out, last);
///     assert_eq!(result.status, DecodeStatus::InputEmpty);
/// }
/// assert_eq!(out, "日本");
/// ```
#[derive(Clone, Debug)]
pub struct Decoder {
    initial_encoding: Encoding,
    encoding: Encoding,
    kernel: Kernel,
    queue: Queue,
    options: DecoderOptions,
    bom: BomState,
    replacements: u64,
}

impl Decoder {
    /// A decoder in replacement mode that sniffs a BOM, as the *decode* hook does.
    pub fn new(encoding: Encoding) -> Decoder {
        Decoder::with_options(encoding, DecoderOptions::default())
    }

    /// A decoder with the given error mode and BOM handling.
    ///
    /// ```
    /// use textcodec::{BomHandling, DecodeErrorMode, Decoder, DecoderOptions, Encoding};
    /// let options = DecoderOptions { error_mode: DecodeErrorMode::Fatal, bom: BomHandling::Keep };
    /// let decoder = Decoder::with_options(Encoding::Utf8, options);
    /// assert_eq!(decoder.encoding(), Encoding::Utf8);
    /// ```
    pub fn with_options(encoding: Encoding, options: DecoderOptions) -> Decoder {
        Decoder {
            initial_encoding: encoding,
            encoding,
            kernel: Kernel::for_encoding(encoding),
            queue: Queue::default(),
            options,
            bom: BomState::Looking {
                buf: [0; 3],
                len: 0,
            },
            replacements: 0,
        }
    }

    /// The encoding in use: the one given at construction, or the one a sniffed BOM chose.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The options: those given at construction, with the error mode last set by
    /// [`Decoder::set_error_mode`].
    pub fn options(&self) -> DecoderOptions {
        self.options
    }

    /// Changes the error mode from the next call on, keeping the stream's state (and across
    /// [`Decoder::reset`]). A caller that wants only its first error's position, and U+FFFD
    /// for the rest, decodes in fatal mode until the first error and then switches to
    /// replacement: the output is the same as replacement mode throughout, without a return
    /// per error.
    ///
    /// ```
    /// use textcodec::{DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, Encoding};
    /// let options = DecoderOptions { error_mode: DecodeErrorMode::Fatal, ..Default::default() };
    /// let mut decoder = Decoder::with_options(Encoding::Utf8, options);
    /// let mut out = String::new();
    /// let input = b"a\xFFb\xFFc";
    /// let r = decoder.decode_to_string(input, &mut out, true);
    /// let DecodeStatus::Malformed(first) = r.status else { panic!() };
    /// assert_eq!(first.offset(), 1);
    /// out.push('\u{FFFD}');
    /// decoder.set_error_mode(DecodeErrorMode::Replacement);
    /// let r = decoder.decode_to_string(&input[r.read..], &mut out, true);
    /// assert_eq!(r.status, DecodeStatus::InputEmpty);
    /// assert_eq!(out, "a\u{FFFD}b\u{FFFD}c");
    /// assert_eq!(decoder.replacements(), 1); // the second error, replaced by the decoder
    /// ```
    pub fn set_error_mode(&mut self, mode: DecodeErrorMode) {
        self.options.error_mode = mode;
    }

    /// How many U+FFFD this decoder emitted for errors (replacement mode), over its life.
    pub fn replacements(&self) -> u64 {
        self.replacements
    }

    /// Offset in the stream of the next byte to be decoded (bytes given so far minus those
    /// still pending inside the decoder).
    pub fn position(&self) -> u64 {
        self.queue.pos
    }

    /// Forgets all state and starts a new stream with the construction-time encoding.
    pub fn reset(&mut self) {
        let replacements = self.replacements;
        *self = Decoder::with_options(self.initial_encoding, self.options);
        self.replacements = replacements;
    }

    /// Whether the decoder holds no pending bytes (a stream may end here without error).
    pub fn is_idle(&self) -> bool {
        self.queue.replay_len == 0
            && self.queue.seq_len == 0
            && matches!(self.bom, BomState::Done | BomState::Looking { len: 0, .. })
    }

    /// How many bytes at the start of `src` this decoder, as it stands, would decode each
    /// to the code point of the same value (U+0000–U+00FF, "Latin-1"), so that a caller
    /// may widen them itself, as a JavaScript engine's one-byte strings do; `None` when
    /// the decoder holds bytes or state from earlier calls (a partial sequence, a BOM
    /// prefix, an ISO-2022-JP mode other than ASCII), so that nothing can be said
    /// without decoding. Per the Standard's decoders: ASCII bytes in every
    /// ASCII-compatible encoding, also 0x80 in Shift_JIS (#shift_jis-decoder step 4),
    /// the bytes an index maps to themselves in single-byte encodings (windows-1252's
    /// 0xA0–0xFF); not 0x0E, 0x0F and 0x1B in ISO-2022-JP's ASCII state; none in UTF-16
    /// and replacement. A first byte that may begin a BOM still being looked for ends it.
    ///
    /// ```
    /// use textcodec::{Decoder, Encoding};
    /// let decoder = Decoder::new(Encoding::Windows1252);
    /// assert_eq!(decoder.latin1_byte_compatible_up_to(b"caf\xE9 \x80"), Some(5));
    /// let decoder = Decoder::new(Encoding::Utf8);
    /// assert_eq!(decoder.latin1_byte_compatible_up_to(b"caf\xC3\xA9"), Some(3));
    /// ```
    pub fn latin1_byte_compatible_up_to(&self, src: &[u8]) -> Option<usize> {
        if self.queue.replay_len != 0 || self.queue.seq_len != 0 {
            return None;
        }
        match self.bom {
            BomState::Looking { len: 0, .. } => {
                let first = src.first().copied();
                if self
                    .bom_candidates()
                    .iter()
                    .any(|(bom, _)| bom.first().copied() == first)
                {
                    return Some(0);
                }
            }
            BomState::Looking { .. } => return None,
            BomState::Done => {}
        }
        let up_to =
            |stop: &dyn Fn(u8) -> bool| src.iter().position(|&b| stop(b)).unwrap_or(src.len());
        Some(match &self.kernel {
            Kernel::Utf8(k) if !k.is_ground() => return None,
            Kernel::Gb18030(k) if !k.is_ground() => return None,
            Kernel::Big5(k) if !k.is_ground() => return None,
            Kernel::EucJp(k) if !k.is_ground() => return None,
            Kernel::EucKr(k) if !k.is_ground() => return None,
            Kernel::ShiftJis(k) if !k.is_ground() => return None,
            Kernel::Iso2022Jp(k) if !k.in_ascii_state() => return None,
            Kernel::Utf8(_)
            | Kernel::Gb18030(_)
            | Kernel::Big5(_)
            | Kernel::EucJp(_)
            | Kernel::EucKr(_)
            | Kernel::XUserDefined(_) => crate::mem::ascii_prefix_len(src),
            Kernel::ShiftJis(_) => up_to(&|b| b > 0x80),
            Kernel::Iso2022Jp(_) => up_to(&|b| b >= 0x80 || matches!(b, 0x0E | 0x0F | 0x1B)),
            Kernel::SingleByte(k) => up_to(&|b| !k.maps_to_itself(b)),
            Kernel::Utf16(_) | Kernel::Replacement(_) => 0,
        })
    }

    /// Bytes the decoder may be holding from earlier calls (a BOM prefix, restored bytes,
    /// a partial sequence).
    fn max_pending(&self) -> usize {
        let bom = match self.bom {
            BomState::Looking { len, .. } => usize::from(len),
            BomState::Done => 0,
        };
        bom.saturating_add(usize::from(self.queue.replay_len))
            .saturating_add(usize::from(self.queue.seq_len))
    }

    /// The worst-case UTF-8 output, in bytes, of decoding `byte_length` more bytes with
    /// `last == true`: three bytes per input byte (every byte can become U+FFFD or a
    /// three-byte character; longer characters need more input bytes), counting bytes
    /// pending from earlier calls. `None` if that overflows `usize`.
    ///
    /// ```
    /// let decoder = textcodec::Decoder::new(textcodec::Encoding::Big5);
    /// assert_eq!(decoder.max_utf8_buffer_length(10), Some(30));
    /// assert_eq!(decoder.max_utf8_buffer_length(usize::MAX), None);
    /// ```
    pub fn max_utf8_buffer_length(&self, byte_length: usize) -> Option<usize> {
        byte_length.checked_add(self.max_pending())?.checked_mul(3)
    }

    /// The worst-case UTF-16 output, in code units, of decoding `byte_length` more bytes with
    /// `last == true`: one unit per input byte (a surrogate pair always takes at least two
    /// input bytes), counting bytes pending from earlier calls. `None` on overflow.
    ///
    /// ```
    /// let decoder = textcodec::Decoder::new(textcodec::Encoding::Utf16Le);
    /// assert_eq!(decoder.max_utf16_buffer_length(8), Some(8));
    /// ```
    pub fn max_utf16_buffer_length(&self, byte_length: usize) -> Option<usize> {
        byte_length.checked_add(self.max_pending())
    }

    /// Decodes into `dst` as UTF-8. `dst[..written]` is valid UTF-8 on return; the bulk
    /// paths may also have written a few bytes after it (scratch: treat `dst[written..]`
    /// as unspecified).
    ///
    /// ```
    /// use textcodec::{Decoder, DecodeStatus, Encoding};
    /// let mut decoder = Decoder::new(Encoding::Windows1252);
    /// let mut buf = [0u8; 16];
    /// let r = decoder.decode_to_utf8(b"caf\xE9", &mut buf, true);
    /// assert_eq!((r.status, r.read, r.written), (DecodeStatus::InputEmpty, 4, 5));
    /// assert_eq!(&buf[..5], "café".as_bytes());
    /// ```
    pub fn decode_to_utf8(&mut self, src: &[u8], dst: &mut [u8], last: bool) -> DecodeResult {
        let mut sink = Utf8Sink::new(dst);
        self.run(src, &mut sink, last)
    }

    /// Decodes into a `&mut str` buffer. Bytes of `dst` after `written` that the bulk paths
    /// used as scratch, or that belonged to a character partly overwritten, are set to
    /// U+0000 so `dst` stays a valid `str`.
    ///
    /// ```
    /// let mut decoder = textcodec::Decoder::new(textcodec::Encoding::Koi8R);
    /// let mut buf = String::from("          ");
    /// let r = decoder.decode_to_str(b"\xD2\xC1\xC4", buf.as_mut_str(), true);
    /// assert_eq!(&buf[..r.written], "рад");
    /// ```
    pub fn decode_to_str(&mut self, src: &[u8], dst: &mut str, last: bool) -> DecodeResult {
        let (result, _) = sink::write_into_str(dst, |sink| self.run(src, sink, last));
        result
    }

    /// Decodes all of `src` and appends it to `dst`, growing it as needed. Returns when the
    /// input is consumed or, in fatal mode, at a malformed sequence (`status` is never
    /// [`DecodeStatus::OutputFull`]). `written` counts bytes appended.
    ///
    /// ```
    /// let mut decoder = textcodec::Decoder::new(textcodec::Encoding::EucKr);
    /// let mut s = String::from("> ");
    /// let r = decoder.decode_to_string(b"\xC7\xD1\xB1\xDB", &mut s, true);
    /// assert_eq!(s, "> 한글");
    /// assert_eq!(r.written, 6);
    /// ```
    pub fn decode_to_string(&mut self, src: &[u8], dst: &mut String, last: bool) -> DecodeResult {
        let mut read = self.push_valid_utf8(src, dst);
        let mut written = read;
        loop {
            // `read` never passes the end: each round reports what it took from `rest`.
            let rest = src.get(read..).unwrap_or_default();
            // Usually enough at once (offered as spare capacity, not zero-filled); a round
            // that fills it ends with `OutputFull` and the next asks for more.
            let additional = rest.len().saturating_add(rest.len() / 2).saturating_add(16);
            let r = sink::append_to_string(dst, additional, |sink| self.run(rest, sink, last));
            read = read.saturating_add(r.read);
            written = written.saturating_add(r.written);
            if r.status != DecodeStatus::OutputFull {
                return DecodeResult {
                    status: r.status,
                    read,
                    written,
                };
            }
        }
    }

    /// UTF-8 into a `String` with nothing pending: the valid prefix of `src` is validated
    /// and appended as it is, 16 KiB at a time (a vector pass and a `memcpy` from L1,
    /// with no sink and no decoder state to carry). Returns its length; the rest of `src`
    /// (an error, or a character cut off at the end) goes through the kernel as usual.
    fn push_valid_utf8(&mut self, src: &[u8], dst: &mut String) -> usize {
        let Kernel::Utf8(kernel) = &self.kernel else {
            return 0;
        };
        // The first byte decides the BOM question unless it can start one (0xEF; 0xFE and
        // 0xFF are never in valid UTF-8, so they end the prefix before it starts).
        let bom_decided = match self.bom {
            BomState::Done => true,
            BomState::Looking { len: 0, .. } => src.first().is_some_and(|&b| b != 0xEF),
            BomState::Looking { .. } => false,
        };
        if !bom_decided || !self.is_idle_utf8(kernel) {
            return 0;
        }
        // Validated and copied by the sink: in one pass where the level has it, else a
        // cache-sized chunk at a time, so the copy reads from L1. Not `push_str`: its
        // `memcpy` runs at a tenth of its speed when the `String`'s end lies a few bytes
        // after `src` modulo 4 KiB (see `simd::copy_bytes`).
        let taken = sink::append_to_string(dst, src.len(), |sink| sink.copy_valid_utf8(src));
        if taken == 0 {
            return 0;
        }
        self.bom = BomState::Done;
        self.queue.pos = self.queue.pos.saturating_add(taken as u64);
        taken
    }

    /// Whether valid UTF-8 starting with the byte `first` (`None`: whatever comes) would
    /// come out of this decoder as it is, with no state of the decoder involved: a UTF-8
    /// decoder holding no bytes, the BOM question decided (or decided by `first`). The io
    /// adapters then use such input without decoding it, and report it with
    /// [`Decoder::passed_through`].
    #[cfg(feature = "std")]
    pub(crate) fn passes_through(&self, first: Option<u8>) -> bool {
        let Kernel::Utf8(kernel) = &self.kernel else {
            return false;
        };
        let bom_decided = match self.bom {
            BomState::Done => true,
            // As in `push_valid_utf8`: 0xFE and 0xFF never begin valid UTF-8.
            BomState::Looking { len: 0, .. } => first.is_some_and(|b| b != 0xEF),
            BomState::Looking { .. } => false,
        };
        bom_decided && self.is_idle_utf8(kernel)
    }

    /// Records `n` bytes of valid UTF-8 used as they are, after [`Decoder::passes_through`]
    /// said they would decode to themselves: the stream offset moves past them.
    #[cfg(feature = "std")]
    pub(crate) fn passed_through(&mut self, n: usize) {
        if n > 0 {
            self.bom = BomState::Done;
            self.queue.pos = self.queue.pos.saturating_add(n as u64);
        }
    }

    /// Whether a UTF-8 decoder holds no bytes: no partial character, nothing to replay.
    fn is_idle_utf8(&self, kernel: &Utf8Decoder) -> bool {
        kernel.is_idle() && self.queue.replay_len == 0 && self.queue.seq_len == 0
    }

    /// Decodes into `dst` as UTF-16. Only `dst[..written]` is meaningful afterwards: the
    /// vector kernels may use the rest of `dst` as scratch space (they never write outside
    /// it).
    ///
    /// ```
    /// let mut decoder = textcodec::Decoder::new(textcodec::Encoding::Gb18030);
    /// let mut buf = [0u16; 4];
    /// let r = decoder.decode_to_utf16(b"\x94\x39\xFC\x36", &mut buf, true);
    /// assert_eq!(&buf[..r.written], &[0xD83D, 0xDE00]); // U+1F600
    /// ```
    pub fn decode_to_utf16(&mut self, src: &[u8], dst: &mut [u16], last: bool) -> DecodeResult {
        let mut sink = Utf16Sink::new(dst);
        self.run(src, &mut sink, last)
    }

    /// Decodes all of `src` and appends UTF-16 to `dst`; see [`Decoder::decode_to_string`].
    pub fn decode_to_utf16_vec(
        &mut self,
        src: &[u8],
        dst: &mut Vec<u16>,
        last: bool,
    ) -> DecodeResult {
        let mut read = 0usize;
        let mut written = 0usize;
        // One unit per byte is the most any decoder writes for a byte, but for the bytes
        // pending from earlier calls (at most 8): offered at once as spare capacity, not
        // zero-filled.
        loop {
            let rest = src.get(read..).unwrap_or_default();
            let r = sink::append_to_utf16_vec(dst, rest.len().saturating_add(8), |sink| {
                self.run(rest, sink, last)
            });
            read = read.saturating_add(r.read);
            written = written.saturating_add(r.written);
            if r.status != DecodeStatus::OutputFull {
                return DecodeResult {
                    status: r.status,
                    read,
                    written,
                };
            }
        }
    }

    fn run<S: Sink>(&mut self, src: &[u8], dst: &mut S, last: bool) -> DecodeResult {
        let mut read = 0;
        if let BomState::Looking { .. } = self.bom {
            read = self.look_for_bom(src, last);
            if let BomState::Looking { .. } = self.bom {
                // Still undecided: everything was consumed into the BOM buffer.
                return DecodeResult {
                    status: DecodeStatus::InputEmpty,
                    read,
                    written: 0,
                };
            }
        }
        let fatal = self.options.error_mode == DecodeErrorMode::Fatal;
        let rest = src.get(read..).unwrap_or_default();
        let q = &mut self.queue;
        let n = &mut self.replacements;
        let (status, used) = match &mut self.kernel {
            Kernel::Utf8(k) => drive(k, q, n, fatal, rest, dst, last),
            Kernel::Utf16(k) => drive(k, q, n, fatal, rest, dst, last),
            Kernel::SingleByte(k) => drive(k, q, n, fatal, rest, dst, last),
            Kernel::Gb18030(k) => drive(k, q, n, fatal, rest, dst, last),
            Kernel::Big5(k) => drive(k, q, n, fatal, rest, dst, last),
            Kernel::EucJp(k) => drive(k, q, n, fatal, rest, dst, last),
            Kernel::Iso2022Jp(k) => drive(k, q, n, fatal, rest, dst, last),
            Kernel::ShiftJis(k) => drive(k, q, n, fatal, rest, dst, last),
            Kernel::EucKr(k) => drive(k, q, n, fatal, rest, dst, last),
            Kernel::Replacement(k) => drive(k, q, n, fatal, rest, dst, last),
            Kernel::XUserDefined(k) => drive(k, q, n, fatal, rest, dst, last),
        };
        if last && status == DecodeStatus::InputEmpty {
            // The stream is over: start afresh next time (same encoding as constructed).
            self.encoding = self.initial_encoding;
            self.kernel = Kernel::for_encoding(self.initial_encoding);
            self.bom = BomState::Looking {
                buf: [0; 3],
                len: 0,
            };
            self.queue = Queue::default();
        }
        DecodeResult {
            status,
            read: read.saturating_add(used),
            written: dst.written(),
        }
    }

    /// The BOMs this decoder looks for (#bom-sniff with `Sniff`; its own encoding's with
    /// `Remove`), with the encoding each selects.
    fn bom_candidates(&self) -> &'static [(&'static [u8], Encoding)] {
        const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
        const BE_BOM: &[u8] = b"\xFE\xFF";
        const LE_BOM: &[u8] = b"\xFF\xFE";
        match self.options.bom {
            BomHandling::Keep => &[],
            BomHandling::Sniff => &[
                (UTF8_BOM, Encoding::Utf8),
                (BE_BOM, Encoding::Utf16Be),
                (LE_BOM, Encoding::Utf16Le),
            ],
            BomHandling::Remove => match self.encoding {
                Encoding::Utf8 => &[(UTF8_BOM, Encoding::Utf8)],
                Encoding::Utf16Be => &[(BE_BOM, Encoding::Utf16Be)],
                Encoding::Utf16Le => &[(LE_BOM, Encoding::Utf16Le)],
                _ => &[],
            },
        }
    }

    /// Consumes input into the BOM buffer until a BOM is recognised or ruled out
    /// (#bom-sniff). Returns the bytes of `src` consumed. When it rules a BOM out, the
    /// buffered bytes are queued for the kernel (they were consumed from the caller's
    /// input, so they count as read).
    fn look_for_bom(&mut self, src: &[u8], last: bool) -> usize {
        let BomState::Looking { mut buf, mut len } = self.bom else {
            return 0;
        };
        let candidates = self.bom_candidates();
        let mut read = 0;
        loop {
            let seen = buf.get(..usize::from(len)).unwrap_or_default();
            if let Some(&(bom, encoding)) = candidates.iter().find(|c| c.0 == seen) {
                // A BOM: switch (when sniffing) and drop it.
                self.encoding = encoding;
                self.kernel = Kernel::for_encoding(encoding);
                self.queue.pos = self.queue.pos.saturating_add(bom.len() as u64);
                self.bom = BomState::Done;
                return read;
            }
            let could_be = candidates.iter().any(|c| c.0.starts_with(seen));
            if !could_be || (read == src.len() && last) {
                self.queue.prepend(pack(seen), seen.len());
                self.bom = BomState::Done;
                return read;
            }
            // `len` < 3 here: a longer `seen` would have matched or been ruled out.
            let (Some(&byte), Some(slot)) = (src.get(read), buf.get_mut(usize::from(len))) else {
                self.bom = BomState::Looking { buf, len };
                return read;
            };
            *slot = byte;
            len = len.saturating_add(1);
            read = read.saturating_add(1);
        }
    }
}

/// Decodes a whole byte string with `encoding`'s decoder in replacement mode, no BOM
/// handling, borrowing the input when it is already the exact output (valid UTF-8 for
/// UTF-8; ASCII for ASCII-compatible encodings). Returns the text and whether any error
/// was replaced.
///
/// ```
/// use std::borrow::Cow;
/// use textcodec::{decode_without_bom, Encoding};
/// let (text, had_errors) = decode_without_bom(Encoding::Windows1252, b"plain ascii");
/// assert!(matches!(text, Cow::Borrowed(_)) && !had_errors);
/// let (text, had_errors) = decode_without_bom(Encoding::Utf8, b"bad \xFF");
/// assert_eq!((text.as_ref(), had_errors), ("bad \u{FFFD}", true));
/// ```
pub fn decode_without_bom(encoding: Encoding, bytes: &[u8]) -> (Cow<'_, str>, bool) {
    decode_whole(encoding, bytes, BomHandling::Keep)
}

pub(crate) fn decode_whole(
    encoding: Encoding,
    bytes: &[u8],
    bom: BomHandling,
) -> (Cow<'_, str>, bool) {
    let has_bom = bytes.starts_with(b"\xEF\xBB\xBF")
        || bytes.starts_with(b"\xFE\xFF")
        || bytes.starts_with(b"\xFF\xFE");
    let mut out = String::new();
    let mut rest = bytes;
    let mut bom = bom;
    if bom == BomHandling::Keep || !has_bom {
        if let Some(s) = borrowable(encoding, bytes) {
            return (Cow::Borrowed(s), false);
        }
        // UTF-16 (§ 14.2, utf-16be and utf-16le decoders): the longest prefix of whole
        // characters without a lone surrogate converts in one kernel call, exactly as the
        // decoder would convert it, and a short input is done without building a decoder.
        // The decoder takes what is left (an odd byte, a lone surrogate), from a character
        // boundary, where its state is the initial one and the BOM stage is past.
        let big_endian = match encoding {
            Encoding::Utf16Be => Some(true),
            Encoding::Utf16Le => Some(false),
            _ => None,
        };
        if let Some(big_endian) = big_endian {
            // At most three bytes of UTF-8 per two bytes of UTF-16.
            let room = (bytes.len() / 2).saturating_mul(3);
            let read =
                sink::append_to_string(&mut out, room, |sink| sink.copy_utf16(bytes, big_endian));
            rest = bytes.get(read..).unwrap_or_default();
            if rest.is_empty() {
                return (Cow::Owned(out), false);
            }
            bom = BomHandling::Keep;
        }
    }
    let mut decoder = Decoder::with_options(
        encoding,
        DecoderOptions {
            error_mode: DecodeErrorMode::Replacement,
            bom,
        },
    );
    out.reserve(rest.len());
    let _ = decoder.decode_to_string(rest, &mut out, true);
    (Cow::Owned(out), decoder.replacements() > 0)
}

/// The input itself, if decoding it would give exactly the same bytes.
pub(crate) fn borrowable(encoding: Encoding, bytes: &[u8]) -> Option<&str> {
    match encoding {
        Encoding::Utf8 => crate::simd::utf8_str(bytes).ok(),
        Encoding::Iso2022Jp => {
            let ascii = crate::simd::ascii::ascii_prefix_len(bytes) == bytes.len();
            // In the ASCII state every ASCII byte but ESC, SO and SI decodes to itself.
            if ascii && !bytes.iter().any(|&b| matches!(b, 0x0E | 0x0F | 0x1B)) {
                crate::simd::utf8_str(bytes).ok()
            } else {
                None
            }
        }
        e if e.is_ascii_compatible() => {
            if crate::simd::ascii::ascii_prefix_len(bytes) == bytes.len() {
                crate::simd::utf8_str(bytes).ok()
            } else {
                None
            }
        }
        _ => None,
    }
}
