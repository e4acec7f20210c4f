//! [`Utf8Sink`] and its adapters over `String` spare capacity and `&mut str`. The
//! sink's fields are private to this module, so the adapters may rely on its invariant
//! (whole UTF-8 sequences from the start) without re-validating.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use alloc::string::String;

use core::mem::MaybeUninit;

use super::{for_valid_utf8_chunks, long_ascii_run_at, BulkDecode, ByteMap, Sink};
use crate::slots::{slots, write_slots, Slots};

/// A UTF-8 output buffer. See the module docs for its invariant.
pub(crate) struct Utf8Sink<'a> {
    buf: &'a mut Slots<u8>,
    pos: usize,
    /// End of the bytes the run methods may have written past `pos` (three- and four-byte
    /// stores for shorter characters): scratch, repaired by `write_into_str`'s guard.
    scratch_end: usize,
}

impl<'a> Utf8Sink<'a> {
    /// A sink over `buf`; whatever `buf` held is overwritten from the start.
    pub(crate) fn new(buf: &'a mut [u8]) -> Self {
        // SAFETY: the sink writes only initialised values (its methods are the writers
        // of these slots; see `Slots`).
        Self::over_slots(unsafe { slots(buf) })
    }

    /// A sink over slots that need not be initialised (a `String`'s spare capacity);
    /// `buf[..written()]` is initialised afterwards (see [`Slots`]).
    pub(crate) fn over_slots(buf: &'a mut Slots<u8>) -> Self {
        Utf8Sink {
            buf,
            pos: 0,
            scratch_end: 0,
        }
    }
}

/// The UTF-8 bytes of a BMP code point (a surrogate becomes U+FFFD), packed little-endian
/// with zeros above them, and their count: computed without branches on the length.
#[inline(always)]
// Bounds: the length is 1 + two booleans, at most 3.
#[allow(clippy::arithmetic_side_effects)]
fn utf8_of_bmp(u: u16) -> (u32, usize) {
    let c = u32::from(if (u & 0xF800) == 0xD800 { 0xFFFD } else { u });
    let one = c;
    let two = (0xC0 | (c >> 6)) | ((0x80 | (c & 0x3F)) << 8);
    let three =
        (0xE0 | (c >> 12)) | ((0x80 | ((c >> 6) & 0x3F)) << 8) | ((0x80 | (c & 0x3F)) << 16);
    let len = 1 + usize::from(c >= 0x80) + usize::from(c >= 0x800);
    let packed = if c < 0x80 {
        one
    } else if c < 0x800 {
        two
    } else {
        three
    };
    (packed, len)
}

// The sink's bounds invariant: `pos <= buf.len()` (it starts at 0 and only ever advances by
// what was written into `buf[pos..]`).
impl Sink for Utf8Sink<'_> {
    const IS_UTF16: bool = false;
    // Hot path. Bounds: `pos <= buf.len()`.
    #[inline(always)]
    #[allow(clippy::arithmetic_side_effects)]
    fn room(&self) -> usize {
        self.buf.len() - self.pos
    }
    #[inline(always)]
    fn bmp_room(&self) -> usize {
        self.room() / 3
    }
    // Hot path. Bounds: `n` characters of at most three bytes each fit in the room, so
    // every three-byte store at `pos` is within `buf` (the room left is at least three
    // bytes per character still to write).
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn push_bmp_run(&mut self, src: &[u8], map: impl Fn(u8) -> u16) -> usize {
        let n = src.len().min(self.bmp_room());
        let mut pos = self.pos;
        for &b in &src[..n] {
            let (packed, len) = utf8_of_bmp(map(b));
            // Three bytes are stored whatever the length: the zeros past a shorter
            // character are overwritten by the next one, or stay as scratch.
            write_slots(&mut self.buf[pos..pos + 3], &packed.to_le_bytes()[..3]);
            pos += len;
        }
        if n > 0 {
            self.scratch_end = self.scratch_end.max(pos + 2);
        }
        self.pos = pos;
        n
    }
    // Hot path. Bounds: each character takes at most three bytes and one more byte of room
    // is kept, so every four-byte store at `pos` is within `buf`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn push_byte_map_run(&mut self, src: &[u8], map: &ByteMap<'_>) -> usize {
        let n = src.len().min(self.room().saturating_sub(1) / 3);
        let start = self.pos;
        let mut pos = start;
        let mut error = false;
        for &b in &src[..n] {
            let entry = map.utf8[usize::from(b)];
            // Four bytes stored (the top one is the length, 0 for an error): what lies past
            // the character is overwritten by the next one, or stays as scratch.
            write_slots(&mut self.buf[pos..pos + 4], &entry.to_le_bytes());
            pos += (entry >> 24) as usize;
            error |= entry == 0;
        }
        if n > 0 {
            // The last store ended at most four bytes past `pos`.
            self.scratch_end = self.scratch_end.max(pos + 4);
        }
        if !error {
            self.pos = pos;
            return n;
        }
        // Rare: keep the characters before the first error (already written).
        let valid = src[..n]
            .iter()
            .position(|&b| map.utf8[usize::from(b)] == 0)
            .unwrap_or(n);
        self.pos = start
            + src[..valid]
                .iter()
                .map(|&b| (map.utf8[usize::from(b)] >> 24) as usize)
                .sum::<usize>();
        valid
    }
    // Hot loop. Bounds: `i < src.len()` where `lead` is read and `i + 1 < src.len()` where
    // `trail` is; `i` advances by one or two within `src`. `pos` only grows by what was
    // written, at most three bytes, while `pos < limit`, so it stays below `buf.len()`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn push_double_byte_run<const ASCII_SINGLES: bool>(
        &mut self,
        src: &[u8],
        pair: impl Fn(u8, u8) -> u16,
    ) -> usize {
        // Every step stores four bytes at most (one character and scratch).
        let limit = self.buf.len().saturating_sub(3);
        let out = self.buf.as_mut_ptr().cast::<u8>();
        let (mut i, mut pos, mut in_ascii) = (0, self.pos, false);
        while i < src.len() && pos < limit {
            let lead = src[i];
            if ASCII_SINGLES && lead < 0x80 {
                if !in_ascii && long_ascii_run_at(src, i) {
                    break;
                }
                // SAFETY: `pos < limit <= buf.len()`.
                unsafe { out.add(pos).write(lead) };
                pos += 1;
                i += 1;
                in_ascii = true;
            } else {
                let Some(&trail) = src.get(i + 1) else { break };
                let c = pair(lead, trail);
                if c == 0 {
                    break;
                }
                let (packed, len) = if c >= 0x800 && (c & 0xF800) != 0xD800 {
                    // The common case (CJK): three bytes.
                    let c = u32::from(c);
                    let packed = (0xE0 | (c >> 12))
                        | ((0x80 | ((c >> 6) & 0x3F)) << 8)
                        | ((0x80 | (c & 0x3F)) << 16);
                    (packed, 3)
                } else {
                    utf8_of_bmp(c)
                };
                // Four bytes stored: past the character is scratch (or the next one).
                // SAFETY: `pos < limit = buf.len() - 3`: `buf[pos..pos + 4]` exists.
                unsafe {
                    out.add(pos)
                        .cast::<[u8; 4]>()
                        .write_unaligned(packed.to_le_bytes())
                };
                pos += len;
                i += 2;
                in_ascii = false;
            }
        }
        // The last store ended at most four bytes past `pos`.
        self.scratch_end = self.scratch_end.max(pos + 4);
        self.pos = pos;
        i
    }
    /// Keeps the invariant: a `BulkDecode` writes whole characters into `buf[pos..]` and
    /// nothing past what it reports (its `unsafe` contract).
    // Bounds: `pos <= buf.len()`, and the kernel reports at most the room it was given.
    #[inline]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn decode_bulk(&mut self, kernel: &impl BulkDecode, src: &[u8]) -> usize {
        let room = self.buf.len() - self.pos;
        let (read, written) = kernel.to_utf8(src, &mut self.buf[self.pos..]);
        self.pos += written.min(room);
        read
    }
    #[inline(always)]
    fn written(&self) -> usize {
        self.pos
    }
    #[inline(always)]
    fn units(c: char) -> usize {
        c.len_utf8()
    }
    // Hot path. Bounds: `pos` advances by the bytes written into `buf[pos..]`, so it stays
    // at most `buf.len()`.
    #[inline(always)]
    #[allow(clippy::arithmetic_side_effects)]
    fn push(&mut self, c: char) {
        let mut bytes = [0; 4];
        let bytes = c.encode_utf8(&mut bytes).as_bytes();
        if let Some(dst) = self
            .buf
            .get_mut(self.pos..)
            .and_then(|d| d.get_mut(..bytes.len()))
        {
            write_slots(dst, bytes);
            self.pos += bytes.len();
        }
    }
    // Hot path. Bounds: `pos <= buf.len()`, so `room` does not underflow and `buf[pos..]`
    // is in bounds; each branch writes `dst[0..k]` and advances `pos` by `k` only after
    // checking `room >= k`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn push_bmp(&mut self, c: u16) {
        let room = self.buf.len() - self.pos;
        let dst = &mut self.buf[self.pos..];
        if c < 0x80 {
            if room >= 1 {
                dst[0].write(c as u8);
                self.pos += 1;
            }
        } else if c < 0x800 {
            if room >= 2 {
                dst[0].write(0xC0 | (c >> 6) as u8);
                dst[1].write(0x80 | (c & 0x3F) as u8);
                self.pos += 2;
            }
        } else if (0xD800..=0xDFFF).contains(&c) {
            // Never produced by the decoders (tables hold scalar values only); stay valid.
            self.push('\u{FFFD}');
        } else if room >= 3 {
            dst[0].write(0xE0 | (c >> 12) as u8);
            dst[1].write(0x80 | ((c >> 6) & 0x3F) as u8);
            dst[2].write(0x80 | (c & 0x3F) as u8);
            self.pos += 3;
        }
    }
    // Hot path. Bounds: `pos <= buf.len()`, and `n` bytes were written into `buf[pos..]`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_ascii(&mut self, src: &[u8]) -> usize {
        let n = crate::simd::ascii::copy_ascii(src, &mut self.buf[self.pos..]);
        self.pos += n;
        n
    }
    // Bounds: all 16 bytes are stored only when 16 bytes of room are left (the ones past
    // `n` are ASCII scratch); `n <= 16`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_short_ascii(&mut self, block: &[u8], n: usize) -> usize {
        match block.get(..16) {
            Some(whole) if self.room() >= 16 && n <= 16 => {
                write_slots(&mut self.buf[self.pos..self.pos + 16], whole);
                self.scratch_end = self.scratch_end.max(self.pos + 16);
                self.pos += n;
                n
            }
            _ => self.copy_ascii(block.get(..n).unwrap_or_default()),
        }
    }
    // Bounds: `n <= src.len()` and `n <= room`, so `pos + n <= buf.len()`; it backs up to
    // a character boundary and stops at 0 at the latest (`is_char_boundary(0)` holds).
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_str(&mut self, src: &str) -> usize {
        let room = self.room();
        let mut n = src.len().min(room);
        while !src.is_char_boundary(n) {
            n -= 1;
        }
        crate::simd::copy_bytes(&mut self.buf[self.pos..self.pos + n], &src.as_bytes()[..n]);
        self.pos += n;
        n
    }
    /// Keeps the invariant: only a validated prefix that ends on a character boundary is
    /// copied (n valid bytes are n output bytes, so limiting the input to the room is
    /// exact).
    // Bounds: `limit` is at most `src.len()` and the room; `ascii <= limit` (a prefix of
    // `src[..limit]`), and the chunks copied are parts of `src[ascii..limit]`, so their
    // total fits in the room left after the ASCII run and `pos` stays at most `buf.len()`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_valid_utf8(&mut self, src: &[u8]) -> usize {
        let limit = src.len().min(self.room());
        // A leading ASCII run in one pass (ASCII is whole characters).
        let ascii = self.copy_ascii(&src[..limit]);
        // `copy_ascii` wrote `ascii` bytes, so `limit - ascii` bytes of room are left.
        if let Some(n) =
            crate::simd::utf8::copy_valid_prefix(&src[ascii..limit], &mut self.buf[self.pos..])
        {
            self.pos += n;
            return ascii + n;
        }
        ascii
            + for_valid_utf8_chunks(&src[ascii..limit], |valid| {
                crate::simd::copy_bytes(
                    &mut self.buf[self.pos..self.pos + valid.len()],
                    valid.as_bytes(),
                );
                self.pos += valid.len();
                valid.len()
            })
    }
    /// Keeps the invariant: the kernels write whole characters only, from `pos` on, and
    /// nothing past what they report as written.
    // Bounds: `pos <= buf.len()`, and `written` bytes were written into `buf[pos..]`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_utf16(&mut self, src: &[u8], big_endian: bool) -> usize {
        let (read, written) =
            crate::simd::utf16::bytes_to_utf8(src, big_endian, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
}

/// Runs `f` with a [`Utf8Sink`] over `additional` bytes of `s`'s spare capacity (reserved
/// here, not zero-filled), then appends exactly what `f` wrote. Returns `f`'s result.
pub(crate) fn append_to_string<R>(
    s: &mut String,
    additional: usize,
    f: impl FnOnce(&mut Utf8Sink<'_>) -> R,
) -> R {
    // SAFETY: the length is only changed below, to cover bytes a `Utf8Sink` wrote: whole
    // UTF-8 sequences from the start of the spare capacity (its invariant), so the
    // `String` holds valid UTF-8 whenever it is observable again, even if `f` panics
    // (the length is then unchanged).
    let vec = unsafe { s.as_mut_vec() };
    vec.reserve(additional);
    let old_len = vec.len();
    let spare = vec.spare_capacity_mut();
    let n = additional.min(spare.len());
    let mut sink = Utf8Sink::over_slots(spare.get_mut(..n).unwrap_or_default());
    let result = f(&mut sink);
    let new_len = old_len.saturating_add(sink.pos);
    // SAFETY: `sink.pos <= n` bytes of the capacity were written by the sink, initialised
    // and valid UTF-8 (see above and `Slots`).
    unsafe { vec.set_len(new_len) };
    result
}

/// The inner reader replaced the [`ReadBuf`](::tokio::io::ReadBuf) it was handed (safe
/// code can: `*buf = ReadBuf::new(other)`), so what it reports filled is not in the
/// memory offered.
#[cfg(feature = "tokio")]
#[derive(Debug)]
pub(crate) struct ReadBufReplaced;

/// Offers up to `most` bytes of `s`'s spare capacity (reserved here, not zero-filled) to
/// `read` as a `ReadBuf`; appends the longest valid UTF-8 prefix of what it filled to `s`
/// and hands the rest (from the first byte of a malformed or cut sequence on) to `rest`.
/// Returns `read`'s result, the bytes filled and the bytes appended. One copy of valid
/// UTF-8 from a reader into a `String`, validated in place.
///
/// Nothing of the reader is trusted: the filled bytes are the `ReadBuf`'s own (which are
/// initialised by its invariant), and only if the `ReadBuf` still covers the offered
/// memory (as tokio's `read_buf` asserts); otherwise [`ReadBufReplaced`] and `s` is
/// unchanged.
#[cfg(feature = "tokio")]
pub(crate) fn read_valid_utf8<R>(
    s: &mut String,
    most: usize,
    read: impl FnOnce(&mut ::tokio::io::ReadBuf<'_>) -> R,
    rest: impl FnOnce(&[u8]),
) -> Result<(R, usize, usize), ReadBufReplaced> {
    // SAFETY: the length is only changed below, to cover bytes checked to be valid UTF-8,
    // so the `String` holds valid UTF-8 whenever it is observable again (if `read` or
    // `rest` panics, the length is unchanged).
    let vec = unsafe { s.as_mut_vec() };
    vec.reserve(most);
    let old_len = vec.len();
    let spare = vec.spare_capacity_mut();
    let offered = most.min(spare.len());
    let slots = spare.get_mut(..offered).unwrap_or_default();
    let start = slots.as_ptr().cast::<u8>();
    let mut buf = ::tokio::io::ReadBuf::uninit(slots);
    let result = read(&mut buf);
    let filled = buf.filled();
    if filled.as_ptr() != start || filled.len() > offered {
        return Err(ReadBufReplaced);
    }
    let valid = crate::simd::valid_utf8_prefix(filled).len();
    rest(filled.get(valid..).unwrap_or_default());
    let filled = filled.len();
    // SAFETY: the `ReadBuf` over `vec`'s spare capacity from `old_len` on (the pointer
    // checked above) holds `filled <= offered` initialised bytes there, its filled part,
    // of which the first `valid` are valid UTF-8 (`valid_utf8_prefix`).
    unsafe { vec.set_len(old_len.saturating_add(valid)) };
    Ok((result, filled, valid))
}

/// Runs `f` with a [`Utf8Sink`] over `dst`. Afterwards `dst[..written]` holds what `f`
/// wrote, and any UTF-8 continuation bytes right after it (the rest of a character that
/// was partly overwritten) are set to 0 so `dst` stays valid UTF-8. Returns `f`'s result
/// and the number of bytes written.
pub(crate) fn write_into_str<R>(
    dst: &mut str,
    f: impl FnOnce(&mut Utf8Sink<'_>) -> R,
) -> (R, usize) {
    /// Zeroes orphaned continuation bytes after the written prefix when dropped, so the
    /// str is repaired even if `f` unwinds.
    struct TailGuard<'a> {
        sink: Utf8Sink<'a>,
    }
    impl Drop for TailGuard<'_> {
        fn drop(&mut self) {
            // `pos <= buf.len()` (the sink's invariant): the bytes after the written ones.
            // First the scratch bytes of the run methods' wide stores (set to 0), then any
            // orphaned continuation bytes of the str's earlier content.
            let pos = self.sink.pos;
            let scratch_end = self.sink.scratch_end.clamp(pos, self.sink.buf.len());
            if let Some(scratch) = self.sink.buf.get_mut(pos..scratch_end) {
                scratch.fill(MaybeUninit::new(0));
            }
            if let Some(after) = self.sink.buf.get_mut(scratch_end..) {
                // SAFETY: the slots came from an initialised `str`, and writers of `Slots`
                // only store initialised values.
                let continuation =
                    |b: &MaybeUninit<u8>| (unsafe { b.assume_init() } & 0xC0) == 0x80;
                for b in after.iter_mut().take_while(|b| continuation(b)) {
                    b.write(0);
                }
            }
        }
    }
    // SAFETY: writes go through a `Utf8Sink` (whole UTF-8 sequences only, each completed
    // before the next begins, plus at most three scratch bytes past the last one, which
    // `scratch_end` covers). The bytes after `written` were valid UTF-8 before;
    // `TailGuard` zeroes the scratch bytes and, if the writes split one of the old
    // characters, its orphaned continuation bytes (ASCII NUL), on every exit path, so the
    // str is valid UTF-8 when the borrow ends.
    let bytes = unsafe { dst.as_bytes_mut() };
    let mut guard = TailGuard {
        sink: Utf8Sink::new(bytes),
    };
    let result = f(&mut guard.sink);
    let written = guard.sink.pos;
    drop(guard);
    (result, written)
}
