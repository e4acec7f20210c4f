//! The streaming encoder: <https://encoding.spec.whatwg.org/#concept-encoding-run> for
//! encoders, with the error modes "fatal" and "html" (#error-mode), plus textcodec's
//! "replace" (`?`) extension, input as UTF-8 (`&str`) or UTF-16 (`&[u16]`).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::slots::{slots, write_packed, write_slots, Slots};
use alloc::vec::Vec;

use crate::codecs::{
    big5::Big5Encoder, euc_jp::EucJpEncoder, euc_kr::EucKrEncoder, gb18030::Gb18030Encoder,
    iso_2022_jp::Iso2022JpEncoder, shift_jis::ShiftJisEncoder, single_byte::SingleByteEncoder,
    utf_16::Utf16Encoder, utf_8::Utf8Encoder, x_user_defined::XUserDefinedEncoder, EncodeKernel,
    Encoded,
};
use crate::Encoding;

/// An encoder's *error mode* (#error-mode), plus one extension.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum EncodeErrorMode {
    /// Stop at an unencodable scalar value and report it ([`EncodeStatus::Unmappable`]);
    /// encoding can resume after it (this is *encode or fail*, #encode-or-fail).
    #[default]
    Fatal,
    /// Write `&#NNNN;` (the code point in decimal) and go on, as HTML forms do (*encode*,
    /// #encode). Beware: the result cannot be told apart from text that contained
    /// `&#NNNN;` literally.
    Html,
    /// textcodec extension: write `?` (0x3F) and go on, like iconv's substitution. `?` is
    /// safe in every encoder state, ISO-2022-JP's included.
    Replace,
}

/// A scalar value the encoding cannot represent.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Unmappable {
    character: char,
    code_point: char,
}

impl Unmappable {
    /// The input character (U+FFFD for a lone surrogate in UTF-16 input).
    pub fn character(&self) -> char {
        self.character
    }

    /// The code point the Standard's *error* carries, which *encode or fail* returns and the
    /// html mode writes. It is the character itself except for U+000E, U+000F and U+001B in
    /// ISO-2022-JP, reported as U+FFFD "to prevent attacks" (#iso-2022-jp-encoder step 3).
    pub fn code_point(&self) -> char {
        self.code_point
    }
}

impl core::fmt::Display for Unmappable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "U+{:04X} cannot be encoded", u32::from(self.character))
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Unmappable {}

/// Why an encode call returned.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EncodeStatus {
    /// All input was consumed (and, if `last` was set, the encoder's final bytes written).
    InputEmpty,
    /// The output buffer cannot take the next character's bytes.
    OutputFull,
    /// Fatal mode only: this character cannot be encoded. `read` includes it (it ends at
    /// `read`); any bytes the encoder had to emit first (ISO-2022-JP's return to ASCII) are
    /// written. Call again with the rest of the input to go on.
    Unmappable(Unmappable),
}

/// The result of an encode call.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[must_use]
pub struct EncodeResult {
    /// Why the call returned.
    pub status: EncodeStatus,
    /// Input consumed: bytes of the `&str`, or `u16` units.
    pub read: usize,
    /// Bytes written.
    pub written: usize,
}

#[derive(Clone, Copy, Debug)]
enum Kernel {
    Utf8(Utf8Encoder),
    Utf16(Utf16Encoder),
    SingleByte(SingleByteEncoder),
    Gb18030(Gb18030Encoder),
    Big5(Big5Encoder),
    EucJp(EucJpEncoder),
    Iso2022Jp(Iso2022JpEncoder),
    ShiftJis(ShiftJisEncoder),
    EucKr(EucKrEncoder),
    XUserDefined(XUserDefinedEncoder),
}

impl Kernel {
    fn for_encoding(encoding: Encoding) -> Option<Kernel> {
        use Encoding::*;
        Some(match encoding {
            Utf8 => Kernel::Utf8(Utf8Encoder),
            Utf16Be => Kernel::Utf16(Utf16Encoder { big_endian: true }),
            Utf16Le => Kernel::Utf16(Utf16Encoder { big_endian: false }),
            Gbk => Kernel::Gb18030(Gb18030Encoder { is_gbk: true }),
            Gb18030 => Kernel::Gb18030(Gb18030Encoder { is_gbk: false }),
            Big5 => Kernel::Big5(Big5Encoder),
            EucJp => Kernel::EucJp(EucJpEncoder),
            Iso2022Jp => Kernel::Iso2022Jp(Iso2022JpEncoder::default()),
            ShiftJis => Kernel::ShiftJis(ShiftJisEncoder),
            EucKr => Kernel::EucKr(EucKrEncoder),
            XUserDefined => Kernel::XUserDefined(XUserDefinedEncoder),
            Replacement => return None,
            single => Kernel::SingleByte(SingleByteEncoder {
                index: single.single_byte_tables()?,
            }),
        })
    }
}

/// A streaming encoder for one encoding (#encoder, *get an encoder*).
///
/// ```
/// use textcodec::{EncodeErrorMode, EncodeStatus, Encoder, Encoding};
///
/// let mut encoder = Encoder::new(Encoding::ShiftJis, EncodeErrorMode::Html).unwrap();
/// let mut out = Vec::new();
/// let r = encoder.encode_from_utf8_to_vec("日本😀", &mut out, true);
/// assert_eq!(r.status, EncodeStatus::InputEmpty);
/// assert_eq!(out, b"\x93\xfa\x96\x7b&#128512;");
/// ```
#[derive(Clone, Debug)]
pub struct Encoder {
    encoding: Encoding,
    kernel: Kernel,
    initial: Kernel,
    mode: EncodeErrorMode,
    /// A leading surrogate at the end of the previous UTF-16 input.
    pending_surrogate: Option<u16>,
    unmappables: u64,
}

/// What the encoder does with one character: bytes to write, and an error to report. The
/// bytes are packed little-endian in a register (written byte by byte to memory and read
/// back whole, they stalled the store forwarding: a third of the html-mode error path).
struct Planned {
    bytes: u128,
    len: usize,
    error: Option<Unmappable>,
}

// Bounds: lengths and counts are at most 16 bytes, shifts below 128 bits, digits at most 7.
#[allow(clippy::arithmetic_side_effects, clippy::cast_possible_truncation)]
impl Planned {
    /// The first `n` (at most 8) bytes of `b`, little-endian (an [`Encoded::Bytes`]).
    fn bytes_of(b: u64, n: u8) -> Planned {
        let mut planned = Planned {
            bytes: 0,
            len: 0,
            error: None,
        };
        planned.append(b, usize::from(n).min(8));
        planned
    }

    /// Nothing yet, to report `error`.
    fn error(error: Unmappable) -> Planned {
        Planned {
            bytes: 0,
            len: 0,
            error: Some(error),
        }
    }

    /// Appends `count` bytes packed little-endian in `more` (callers append at most 8 +
    /// 10: an escape, then an html reference or `?`; the escapes callers have are 3 bytes,
    /// so this always fits 16).
    fn append(&mut self, more: u64, count: usize) {
        let end = self.len.saturating_add(count);
        // The bytes past `count` are 0 (`count` ≤ 8).
        let more = more
            & u64::MAX
                .checked_shr(64u32.saturating_sub(8 * count as u32))
                .unwrap_or(0);
        if end <= 16 {
            // `self.len < 16`: the shift is below 128.
            self.bytes |= u128::from(more) << (8 * self.len);
            self.len = end;
        }
    }

    /// Appends `&#` + the code point in decimal + `;` (#encode-or-fail's html mode).
    fn push_html_reference(&mut self, code_point: char) {
        let mut v = u32::from(code_point);
        // At most 7 digits (U+10FFFF is 1114111), packed from the last: each new digit
        // shifts the others up a byte.
        let (mut digits, mut count) = (0u64, 0);
        loop {
            // `v % 10` < 10: OR-ing it into b'0' (0x30) is adding it.
            digits = digits << 8 | u64::from(b'0' | (v % 10) as u8);
            count += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        self.append(u64::from(u16::from_le_bytes(*b"&#")), 2);
        self.append(digits, count);
        self.append(u64::from(b';'), 1);
    }
}

impl Encoder {
    /// An encoder for `encoding`: the Standard's encoder, or textcodec's UTF-16BE/LE
    /// extension. `None` for replacement, which has no encoder (use
    /// [`Encoding::output_encoding`] first, as the Standard's callers do).
    ///
    /// ```
    /// use textcodec::{EncodeErrorMode, Encoder, Encoding};
    /// assert!(Encoder::new(Encoding::Replacement, EncodeErrorMode::Fatal).is_none());
    /// assert!(Encoder::new(Encoding::Replacement.output_encoding(), EncodeErrorMode::Fatal).is_some());
    /// ```
    pub fn new(encoding: Encoding, mode: EncodeErrorMode) -> Option<Encoder> {
        let kernel = Kernel::for_encoding(encoding)?;
        Some(Encoder {
            encoding,
            kernel,
            initial: kernel,
            mode,
            pending_surrogate: None,
            unmappables: 0,
        })
    }

    /// The encoding this encoder writes.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The error mode.
    pub fn error_mode(&self) -> EncodeErrorMode {
        self.mode
    }

    /// Changes the error mode from the next call on, keeping the stream's state
    /// (ISO-2022-JP's state, a pending surrogate). The worst-case lengths
    /// ([`Encoder::max_buffer_length_from_utf8`]) follow the new mode.
    ///
    /// ```
    /// use textcodec::{EncodeErrorMode, EncodeStatus, Encoder, Encoding};
    /// let mut e = Encoder::new(Encoding::Windows1252, EncodeErrorMode::Fatal).unwrap();
    /// let mut buf = [0u8; 16];
    /// let r = e.encode_from_utf8("a☃b", &mut buf, true);
    /// assert!(matches!(r.status, EncodeStatus::Unmappable(_)));
    /// e.set_error_mode(EncodeErrorMode::Html);
    /// let r = e.encode_from_utf8("☃b", &mut buf, true);
    /// assert_eq!(&buf[..r.written], b"&#9731;b");
    /// ```
    pub fn set_error_mode(&mut self, mode: EncodeErrorMode) {
        self.mode = mode;
    }

    /// How many unencodable characters were met so far (in any mode).
    pub fn unmappables(&self) -> u64 {
        self.unmappables
    }

    /// Starts over (ISO-2022-JP back in its ASCII state, no pending surrogate).
    pub fn reset(&mut self) {
        self.kernel = self.initial;
        self.pending_surrogate = None;
    }

    /// Worst-case bytes per input unit, and a constant for the end of the stream.
    fn worst_case(&self, utf16: bool) -> (usize, usize) {
        use Encoding::*;
        let html = self.mode == EncodeErrorMode::Html;
        match (self.encoding, utf16) {
            // One byte of UTF-8 in, one out; one unit in, up to three out.
            (Utf8, false) => (1, 0),
            (Utf8, true) => (3, 0),
            (Utf16Be | Utf16Le, _) => (2, 0),
            // '\' after '¥': ESC ( B then the byte; a kanji from ASCII: ESC $ B + 2 bytes;
            // in html mode, ESC ( B then "&#65533;" for a single ESC/SO/SI input unit.
            (Iso2022Jp, _) if html => (11, 3),
            (Iso2022Jp, false) => (4, 3),
            (Iso2022Jp, true) => (5, 3),
            // "&#2047;" for a two-byte character; "&#65533;" for one UTF-16 unit.
            (_, false) if html => (4, 0),
            (_, true) if html => (8, 0),
            // U+0080 (two bytes of UTF-8, one unit) becomes four bytes.
            (Gb18030, false) => (2, 0),
            (Gb18030, true) => (4, 0),
            (_, false) => (1, 0),
            (_, true) => (2, 0),
        }
    }

    /// The most bytes encoding `length` bytes of UTF-8 with `last == true` can write;
    /// `None` if that overflows `usize`.
    ///
    /// ```
    /// use textcodec::{EncodeErrorMode, Encoder, Encoding};
    /// let e = Encoder::new(Encoding::Windows1252, EncodeErrorMode::Fatal).unwrap();
    /// assert_eq!(e.max_buffer_length_from_utf8(100), Some(100));
    /// ```
    pub fn max_buffer_length_from_utf8(&self, length: usize) -> Option<usize> {
        let (per, constant) = self.worst_case(false);
        length.checked_mul(per)?.checked_add(constant)
    }

    /// The most bytes encoding `length` UTF-16 units with `last == true` can write
    /// (counting a leading surrogate left over from the previous call); `None` on overflow.
    pub fn max_buffer_length_from_utf16(&self, length: usize) -> Option<usize> {
        let (per, constant) = self.worst_case(true);
        let units = length.checked_add(usize::from(self.pending_surrogate.is_some()))?;
        units.checked_mul(per)?.checked_add(constant)
    }

    /// Runs the handler for `c` on a copy of the kernel state; commit with `self.kernel =`.
    fn plan(&self, c: char) -> (Kernel, Planned) {
        let mut kernel = self.kernel;
        let encoded = match &mut kernel {
            Kernel::Utf8(k) => k.encode_char(c),
            Kernel::Utf16(k) => k.encode_char(c),
            Kernel::SingleByte(k) => k.encode_char(c),
            Kernel::Gb18030(k) => k.encode_char(c),
            Kernel::Big5(k) => k.encode_char(c),
            Kernel::EucJp(k) => k.encode_char(c),
            Kernel::Iso2022Jp(k) => k.encode_char(c),
            Kernel::ShiftJis(k) => k.encode_char(c),
            Kernel::EucKr(k) => k.encode_char(c),
            Kernel::XUserDefined(k) => k.encode_char(c),
        };
        let planned = match encoded {
            Encoded::Bytes(b, n) => Planned::bytes_of(b, n),
            Encoded::Unmappable {
                code_point,
                prefix,
                prefix_len,
            } => {
                let mut planned = Planned::error(Unmappable {
                    character: c,
                    code_point,
                });
                planned.append(u64::from_le_bytes(prefix), usize::from(prefix_len).min(8));
                match self.mode {
                    EncodeErrorMode::Fatal => {}
                    EncodeErrorMode::Html => planned.push_html_reference(code_point),
                    EncodeErrorMode::Replace => planned.append(u64::from(b'?'), 1),
                }
                planned
            }
        };
        (kernel, planned)
    }

    /// Encodes one character into `dst[*written..]` if its bytes fit. Returns `None` when
    /// they do not fit (nothing changed), else the error to report (fatal mode) if any.
    #[inline]
    fn put(
        &mut self,
        c: char,
        dst: &mut Slots<u8>,
        written: &mut usize,
    ) -> Option<Option<Unmappable>> {
        let (kernel, planned) = self.plan(c);
        let end = written.checked_add(planned.len)?;
        write_packed(dst.get_mut(*written..end)?, planned.bytes);
        *written = end;
        self.kernel = kernel;
        if planned.error.is_some() {
            self.unmappables = self.unmappables.saturating_add(1);
        }
        Some(
            planned
                .error
                .filter(|_| self.mode == EncodeErrorMode::Fatal),
        )
    }

    /// End-of-queue: the kernel's final bytes (ISO-2022-JP's ESC ( B), if they fit.
    fn finish(&mut self, dst: &mut Slots<u8>, written: &mut usize) -> bool {
        let mut kernel = self.kernel;
        let encoded = match &mut kernel {
            Kernel::Iso2022Jp(k) => k.finish(),
            _ => return true,
        };
        if let Encoded::Bytes(b, n) = encoded {
            let bytes = b.to_le_bytes();
            let bytes = bytes.get(..usize::from(n)).unwrap_or_default();
            let end = written.saturating_add(bytes.len());
            let Some(slot) = dst.get_mut(*written..end) else {
                return false;
            };
            write_slots(slot, bytes);
            *written = end;
        }
        self.kernel = kernel;
        true
    }

    /// Encodes UTF-8 text into `dst`. With `last`, the encoder's final bytes are written
    /// once all input is consumed, and the encoder is reset for a new stream.
    ///
    /// ```
    /// use textcodec::{EncodeErrorMode, EncodeStatus, Encoder, Encoding};
    /// let mut e = Encoder::new(Encoding::Windows1252, EncodeErrorMode::Fatal).unwrap();
    /// let mut buf = [0u8; 8];
    /// let r = e.encode_from_utf8("a€☃b", &mut buf, true);
    /// assert_eq!(&buf[..r.written], b"a\x80");
    /// match r.status {
    ///     EncodeStatus::Unmappable(u) => assert_eq!(u.character(), '☃'),
    ///     other => panic!("{other:?}"),
    /// }
    /// // The caller decides what to do, then resumes after the character.
    /// let r2 = e.encode_from_utf8(&"a€☃b"[r.read..], &mut buf, true);
    /// assert_eq!(&buf[..r2.written], b"b");
    /// ```
    pub fn encode_from_utf8(&mut self, src: &str, dst: &mut [u8], last: bool) -> EncodeResult {
        // SAFETY: the encoder's driver and kernels write `Slots` by its rules.
        #[allow(unsafe_code)]
        let dst = unsafe { slots(dst) };
        self.encode_utf8_into(src, dst, last)
    }

    /// [`Encoder::encode_from_utf8`] over bytes that may not be UTF-8 (`io::EncodeWriter`'s
    /// input, C strings), never the end of the stream: encodes whole well-formed characters
    /// and stops before a malformed sequence or one cut by the end of `src` (`InputEmpty`
    /// with `read < src.len()`; the caller finds out which, e.g. with
    /// `core::str::from_utf8` on the next few bytes). Validation is folded into the encoding
    /// loops instead of being a pass of its own. End the stream with
    /// `encode_from_utf8("", dst, true)`.
    ///
    /// ```
    /// use textcodec::{EncodeErrorMode, EncodeStatus, Encoder, Encoding};
    /// let mut e = Encoder::new(Encoding::Windows1252, EncodeErrorMode::Fatal).unwrap();
    /// let mut buf = [0u8; 8];
    /// let r = e.encode_from_maybe_utf8(b"caf\xC3\xA9\xFFx", &mut buf);
    /// assert_eq!((r.status, r.read, &buf[..r.written]), (EncodeStatus::InputEmpty, 5, &b"caf\xE9"[..]));
    /// ```
    #[cfg(feature = "std")]
    pub fn encode_from_maybe_utf8(&mut self, src: &[u8], dst: &mut [u8]) -> EncodeResult {
        // SAFETY: the encoder's driver and kernels write `Slots` by its rules.
        #[allow(unsafe_code)]
        let dst = unsafe { slots(dst) };
        self.encode_utf8_into(MaybeUtf8(src), dst, false)
    }

    /// [`Encoder::encode_from_utf8`] into slots that need not be initialised (the growing
    /// APIs' spare capacity); `dst[..written]` is initialised afterwards.
    fn encode_utf8_into<S: Utf8Input>(
        &mut self,
        src: S,
        dst: &mut Slots<u8>,
        last: bool,
    ) -> EncodeResult {
        let mut read = 0;
        let mut written = 0;
        if let Some(lead) = self.pending_surrogate {
            // A leading surrogate from UTF-16 input followed by UTF-8 input is lone.
            match self.put('\u{FFFD}', dst, &mut written) {
                None => return self.result(EncodeStatus::OutputFull, read, written),
                Some(error) => {
                    let _ = lead;
                    self.pending_surrogate = None;
                    if let Some(u) = error {
                        return self.result(EncodeStatus::Unmappable(u), read, written);
                    }
                }
            }
        }
        loop {
            // `read`/`written` never pass the ends: the bulk path reports what it took from
            // the slices it was given, and `put` writes within `dst`.
            let (r, w) = src.fast(self, read, dst.get_mut(written..).unwrap_or_default());
            read = read.saturating_add(r);
            written = written.saturating_add(w);
            let Some((c, len)) = src.char_at(read) else {
                break;
            };
            match self.put(c, dst, &mut written) {
                None => return self.result(EncodeStatus::OutputFull, read, written),
                Some(error) => {
                    read = read.saturating_add(len);
                    if let Some(u) = error {
                        return self.result(EncodeStatus::Unmappable(u), read, written);
                    }
                }
            }
        }
        if last {
            if !self.finish(dst, &mut written) {
                return self.result(EncodeStatus::OutputFull, read, written);
            }
            self.reset();
        }
        self.result(EncodeStatus::InputEmpty, read, written)
    }

    fn result(&self, status: EncodeStatus, read: usize, written: usize) -> EncodeResult {
        EncodeResult {
            status,
            read,
            written,
        }
    }

    /// The kernels' bulk paths for UTF-8 input (each a loop monomorphised for its kernel).
    #[inline]
    fn fast_utf8(&mut self, src: &str, dst: &mut Slots<u8>) -> (usize, usize) {
        match &mut self.kernel {
            Kernel::Utf8(k) => k.fast(src, dst),
            Kernel::Utf16(k) => k.fast(src, dst),
            Kernel::SingleByte(k) => k.fast(src, dst),
            Kernel::Gb18030(k) => k.fast(src, dst),
            Kernel::Big5(k) => k.fast(src, dst),
            Kernel::EucJp(k) => k.fast(src, dst),
            Kernel::Iso2022Jp(k) => k.fast(src, dst),
            Kernel::ShiftJis(k) => k.fast(src, dst),
            Kernel::EucKr(k) => k.fast(src, dst),
            Kernel::XUserDefined(k) => k.fast(src, dst),
        }
    }

    /// [`Encoder::fast_utf8`] over bytes that may not be UTF-8.
    #[cfg(feature = "std")]
    #[inline]
    fn fast_maybe_utf8(&mut self, src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
        match &mut self.kernel {
            Kernel::Utf8(k) => k.fast_bytes(src, dst),
            Kernel::Utf16(k) => k.fast_bytes(src, dst),
            Kernel::SingleByte(k) => k.fast_bytes(src, dst),
            Kernel::Gb18030(k) => k.fast_bytes(src, dst),
            Kernel::Big5(k) => k.fast_bytes(src, dst),
            Kernel::EucJp(k) => k.fast_bytes(src, dst),
            Kernel::Iso2022Jp(k) => k.fast_bytes(src, dst),
            Kernel::ShiftJis(k) => k.fast_bytes(src, dst),
            Kernel::EucKr(k) => k.fast_bytes(src, dst),
            Kernel::XUserDefined(k) => k.fast_bytes(src, dst),
        }
    }

    /// The kernels' bulk paths for UTF-16 input.
    #[inline]
    fn fast_utf16(&mut self, src: &[u16], dst: &mut Slots<u8>) -> (usize, usize) {
        match &mut self.kernel {
            // UTF-8 maps every scalar value: convert non-surrogates and pairs in bulk.
            Kernel::Utf8(_) => crate::simd::utf16::units_to_utf8(src, dst),
            Kernel::Utf16(k) => k.fast_utf16(src, dst),
            Kernel::SingleByte(k) => k.fast_utf16(src, dst),
            Kernel::Gb18030(k) => k.fast_utf16(src, dst),
            Kernel::Big5(k) => k.fast_utf16(src, dst),
            Kernel::EucJp(k) => k.fast_utf16(src, dst),
            Kernel::Iso2022Jp(k) => k.fast_utf16(src, dst),
            Kernel::ShiftJis(k) => k.fast_utf16(src, dst),
            Kernel::EucKr(k) => k.fast_utf16(src, dst),
            Kernel::XUserDefined(k) => k.fast_utf16(src, dst),
        }
    }

    /// Encodes UTF-16 text into `dst`. Lone surrogates become U+FFFD (as converting a string
    /// to a scalar value string does); a leading surrogate at the end of `src` is kept until
    /// the next call so a pair split across calls is rejoined (with `last`, it becomes
    /// U+FFFD). `read` counts `u16` units.
    ///
    /// ```
    /// use textcodec::{EncodeErrorMode, Encoder, Encoding};
    /// let mut e = Encoder::new(Encoding::Utf8, EncodeErrorMode::Fatal).unwrap();
    /// let mut buf = [0u8; 8];
    /// let a = e.encode_from_utf16(&[0x61, 0xD83D], &mut buf, false);
    /// let b = e.encode_from_utf16(&[0xDE00], &mut buf[a.written..], true);
    /// assert_eq!(&buf[..a.written + b.written], "a😀".as_bytes());
    /// ```
    pub fn encode_from_utf16(&mut self, src: &[u16], dst: &mut [u8], last: bool) -> EncodeResult {
        // SAFETY: the encoder's driver and kernels write `Slots` by its rules.
        #[allow(unsafe_code)]
        let dst = unsafe { slots(dst) };
        self.encode_utf16_into(src, dst, last)
    }

    /// [`Encoder::encode_from_utf16`] into slots that need not be initialised (the growing
    /// APIs' spare capacity); `dst[..written]` is initialised afterwards.
    fn encode_utf16_into(&mut self, src: &[u16], dst: &mut Slots<u8>, last: bool) -> EncodeResult {
        let mut read = 0;
        let mut written = 0;
        loop {
            // The bulk path; lone surrogates (U+FFFD), a pair cut by the end of `src` and
            // unmappable characters are left to the steps below.
            if self.pending_surrogate.is_none() {
                let (r, w) = self.fast_utf16(
                    src.get(read..).unwrap_or_default(),
                    dst.get_mut(written..).unwrap_or_default(),
                );
                read = read.saturating_add(r);
                written = written.saturating_add(w);
            }
            // The next scalar value, and how many units of `src` it takes.
            let (c, units) = match (self.pending_surrogate, src.get(read).copied()) {
                (Some(_), Some(u @ 0xDC00..=0xDFFF)) => (pair(self.pending_surrogate, u), 1),
                (Some(_), _) if src.get(read).is_some() || last => ('\u{FFFD}', 0),
                (Some(_), _) => break,
                (None, None) => break,
                (None, Some(u @ 0xD800..=0xDBFF)) => match src.get(read.saturating_add(1)).copied()
                {
                    Some(t @ 0xDC00..=0xDFFF) => (pair(Some(u), t), 2),
                    Some(_) => ('\u{FFFD}', 1),
                    None if last => ('\u{FFFD}', 1),
                    None => {
                        self.pending_surrogate = Some(u);
                        read = read.saturating_add(1);
                        break;
                    }
                },
                (None, Some(0xDC00..=0xDFFF)) => ('\u{FFFD}', 1),
                (None, Some(u)) => (char::from_u32(u32::from(u)).unwrap_or('\u{FFFD}'), 1),
            };
            match self.put(c, dst, &mut written) {
                None => return self.result(EncodeStatus::OutputFull, read, written),
                Some(error) => {
                    self.pending_surrogate = None;
                    read = read.saturating_add(units);
                    if let Some(u) = error {
                        return self.result(EncodeStatus::Unmappable(u), read, written);
                    }
                }
            }
        }
        if last && read == src.len() && self.pending_surrogate.is_none() {
            if !self.finish(dst, &mut written) {
                return self.result(EncodeStatus::OutputFull, read, written);
            }
            self.reset();
        }
        self.result(EncodeStatus::InputEmpty, read, written)
    }

    /// Encodes all of `src` and appends to `dst`, growing it. Returns at the end of the
    /// input or, in fatal mode, at an unencodable character (never `OutputFull`).
    pub fn encode_from_utf8_to_vec(
        &mut self,
        src: &str,
        dst: &mut Vec<u8>,
        last: bool,
    ) -> EncodeResult {
        self.encode_to_vec(ToVecInput::Utf8(src), dst, last)
    }

    /// Encodes all of `src` (UTF-16) and appends to `dst`; see
    /// [`Encoder::encode_from_utf8_to_vec`].
    pub fn encode_from_utf16_to_vec(
        &mut self,
        src: &[u16],
        dst: &mut Vec<u8>,
        last: bool,
    ) -> EncodeResult {
        self.encode_to_vec(ToVecInput::Utf16(src), dst, last)
    }

    /// The grow loop of the `_to_vec` methods: the encoder's driver encodes the input from
    /// `read` on into fresh space at the end of `dst`, until it stops for another reason
    /// than a full buffer. The capacity for the rest of the input at one byte per UTF-8
    /// byte or two per UTF-16 unit (the common case, not the worst: most text is mostly
    /// ASCII) plus 16 bytes (any one character's worst case) is offered at once as spare
    /// capacity, not zero-filled ([`sink::append_to_vec`]); a round that fills it asks for
    /// more.
    ///
    /// [`sink::append_to_vec`]: crate::sink::append_to_vec
    fn encode_to_vec(
        &mut self,
        src: ToVecInput<'_>,
        dst: &mut Vec<u8>,
        last: bool,
    ) -> EncodeResult {
        let (input_len, bytes_per_unit) = match src {
            ToVecInput::Utf8(s) => (s.len(), 1),
            ToVecInput::Utf16(u) => (u.len(), 2),
        };
        let (mut read, mut written) = (0usize, 0usize);
        loop {
            let additional = input_len
                .saturating_sub(read)
                .saturating_mul(bytes_per_unit)
                .saturating_add(16);
            let step = |e: &mut Self, out: &mut Slots<u8>| match src {
                ToVecInput::Utf8(s) => {
                    e.encode_utf8_into(s.get(read..).unwrap_or_default(), out, last)
                }
                ToVecInput::Utf16(u) => {
                    e.encode_utf16_into(u.get(read..).unwrap_or_default(), out, last)
                }
            };
            // SAFETY: the closure runs the encoder's drivers, writers of `Slots` whose
            // `written` counts the bytes they initialised from the start (see `Slots`;
            // every encoder's output is checked against the Standard's by the tests).
            #[allow(unsafe_code)]
            let r = unsafe {
                crate::sink::append_to_vec(dst, additional, |out| {
                    let r = step(self, out);
                    (r, r.written)
                })
            };
            read = read.saturating_add(r.read);
            written = written.saturating_add(r.written);
            if r.status != EncodeStatus::OutputFull {
                return self.result(r.status, read, written);
            }
        }
    }
}

/// The input of [`Encoder::encode_to_vec`].
#[derive(Clone, Copy)]
enum ToVecInput<'a> {
    Utf8(&'a str),
    Utf16(&'a [u16]),
}

/// UTF-8 input of the encoder's driver: a `&str`, or bytes that may not be UTF-8.
trait Utf8Input: Copy {
    /// The kernel's bulk path over the input from `from`: (bytes read, bytes written).
    fn fast(self, encoder: &mut Encoder, from: usize, dst: &mut Slots<u8>) -> (usize, usize);
    /// The character at `i` and its length; `None` at the end (and, for bytes, before a
    /// sequence that is not UTF-8).
    fn char_at(self, i: usize) -> Option<(char, usize)>;
}

impl Utf8Input for &str {
    #[inline(always)]
    fn fast(self, encoder: &mut Encoder, from: usize, dst: &mut Slots<u8>) -> (usize, usize) {
        encoder.fast_utf8(self.get(from..).unwrap_or_default(), dst)
    }
    #[inline(always)]
    fn char_at(self, i: usize) -> Option<(char, usize)> {
        let c = self.get(i..)?.chars().next()?;
        Some((c, c.len_utf8()))
    }
}

/// Bytes that may not be UTF-8 ([`Encoder::encode_from_maybe_utf8`]).
#[cfg(feature = "std")]
#[derive(Clone, Copy)]
struct MaybeUtf8<'a>(&'a [u8]);

#[cfg(feature = "std")]
impl Utf8Input for MaybeUtf8<'_> {
    #[inline(always)]
    fn fast(self, encoder: &mut Encoder, from: usize, dst: &mut Slots<u8>) -> (usize, usize) {
        encoder.fast_maybe_utf8(self.0.get(from..).unwrap_or_default(), dst)
    }
    #[inline(always)]
    fn char_at(self, i: usize) -> Option<(char, usize)> {
        crate::codecs::utf8_char_checked(self.0, i)
    }
}

/// The scalar value of a surrogate pair.
// Bounds: callers pass a leading surrogate (0xD800..=0xDBFF) and a trailing one
// (0xDC00..=0xDFFF), so the subtractions cannot wrap and the sum is at most 0x10FFFF.
#[allow(clippy::arithmetic_side_effects)]
fn pair(lead: Option<u16>, trail: u16) -> char {
    let lead = u32::from(lead.unwrap_or(0xD800));
    let c = 0x10000 + ((lead - 0xD800) << 10) + (u32::from(trail) - 0xDC00);
    char::from_u32(c).unwrap_or('\u{FFFD}')
}
