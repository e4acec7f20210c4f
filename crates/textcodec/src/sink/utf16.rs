//! [`Utf16Sink`]: decoder output into UTF-16 code units.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::{for_valid_utf8_chunks, long_ascii_run_at, BulkDecode, ByteMap, Sink};
use crate::slots::{slots, write_slots, Slots};

/// A UTF-16 output buffer.
pub(crate) struct Utf16Sink<'a> {
    buf: &'a mut Slots<u16>,
    pos: usize,
}

impl<'a> Utf16Sink<'a> {
    pub(crate) fn new(buf: &'a mut [u16]) -> Self {
        // SAFETY: the sink writes only initialised values (its methods are the writers
        // of these slots; see `Slots`).
        Self::over_slots(unsafe { slots(buf) })
    }

    /// A sink over slots that need not be initialised (a `Vec`'s spare capacity);
    /// `buf[..written()]` is initialised afterwards (see [`Slots`]).
    pub(crate) fn over_slots(buf: &'a mut Slots<u16>) -> Self {
        Utf16Sink { buf, pos: 0 }
    }
}

// The sink's bounds invariant: `pos <= buf.len()` (it starts at 0 and only ever advances by
// what was written into `buf[pos..]`).
impl Sink for Utf16Sink<'_> {
    const IS_UTF16: bool = true;
    // Hot path. Bounds: `pos <= buf.len()`.
    #[inline(always)]
    #[allow(clippy::arithmetic_side_effects)]
    fn room(&self) -> usize {
        self.buf.len() - self.pos
    }
    #[inline(always)]
    fn bmp_room(&self) -> usize {
        self.room()
    }
    // Hot path. Bounds: `n` is at most the room, so `buf[pos..pos + n]` exists and `pos`
    // stays at most `buf.len()`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn push_bmp_run(&mut self, src: &[u8], map: impl Fn(u8) -> u16) -> usize {
        let n = src.len().min(self.room());
        for (slot, &b) in self.buf[self.pos..self.pos + n].iter_mut().zip(&src[..n]) {
            let u = map(b);
            // Never produced by the decoders (their tables hold scalar values only).
            slot.write(if (u & 0xF800) == 0xD800 { 0xFFFD } else { u });
        }
        self.pos += n;
        n
    }
    // Hot path. Bounds: as `push_bmp_run`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn push_byte_map_run(&mut self, src: &[u8], map: &ByteMap<'_>) -> usize {
        let n = src.len().min(self.room());
        let out = &mut self.buf[self.pos..self.pos + n];
        if !map.has_errors {
            for (slot, &b) in out.iter_mut().zip(&src[..n]) {
                slot.write(map.units[usize::from(b)]);
            }
            self.pos += n;
            return n;
        }
        // A unit of 0 is an error but for byte 0. `unit - 1` wraps to the largest value
        // only for a unit of 0 (no table holds U+FFFF: `has_error_bytes`), so one `max` per
        // byte finds the 0s; a NUL byte (rare among non-ASCII bytes) also gives one and the
        // exact search below tells the two apart.
        let mut highest = 0u16;
        for (slot, &b) in out.iter_mut().zip(&src[..n]) {
            let unit = map.units[usize::from(b)];
            slot.write(unit);
            highest = highest.max(unit.wrapping_sub(1));
        }
        // Rare: keep the units before the first error (what follows is scratch).
        let valid = if highest == u16::MAX {
            src[..n]
                .iter()
                .position(|&b| b != 0 && map.units[usize::from(b)] == 0)
                .unwrap_or(n)
        } else {
            n
        };
        self.pos += valid;
        valid
    }
    // Hot loop. Bounds: `i < src.len()` where `lead` is read and `i + 1 < src.len()` where
    // `trail` is; `i` advances by one or two within `src`. `pos` grows by one per step while
    // `pos < buf.len()`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn push_double_byte_run<const ASCII_SINGLES: bool>(
        &mut self,
        src: &[u8],
        pair: impl Fn(u8, u8) -> u16,
    ) -> usize {
        let limit = self.buf.len();
        let out = self.buf.as_mut_ptr().cast::<u16>();
        let (mut i, mut pos, mut in_ascii) = (0, self.pos, false);
        while i < src.len() && pos < limit {
            let lead = src[i];
            let unit = if ASCII_SINGLES && lead < 0x80 {
                if !in_ascii && long_ascii_run_at(src, i) {
                    break;
                }
                i += 1;
                in_ascii = true;
                u16::from(lead)
            } else {
                let Some(&trail) = src.get(i + 1) else { break };
                let c = pair(lead, trail);
                if c == 0 {
                    break;
                }
                i += 2;
                in_ascii = false;
                // As `push_bmp`: the tables hold scalar values only (tested), and a `u16`
                // buffer has no validity invariant to protect.
                c
            };
            // SAFETY: `pos < limit = buf.len()`.
            unsafe { out.add(pos).write(unit) };
            pos += 1;
        }
        self.pos = pos;
        i
    }
    // Bounds: `pos <= buf.len()`, and the kernel reports at most the room it was given.
    #[inline]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn decode_bulk(&mut self, kernel: &impl BulkDecode, src: &[u8]) -> usize {
        let room = self.buf.len() - self.pos;
        let (read, written) = kernel.to_utf16(src, &mut self.buf[self.pos..]);
        self.pos += written.min(room);
        read
    }
    #[inline(always)]
    fn written(&self) -> usize {
        self.pos
    }
    #[inline(always)]
    fn units(c: char) -> usize {
        c.len_utf16()
    }
    // Hot path. Bounds: `pos` advances by the units written into `buf[pos..]`, so it stays
    // at most `buf.len()`.
    #[inline(always)]
    #[allow(clippy::arithmetic_side_effects)]
    fn push(&mut self, c: char) {
        let mut units = [0; 2];
        let units = c.encode_utf16(&mut units);
        if let Some(dst) = self
            .buf
            .get_mut(self.pos..)
            .and_then(|d| d.get_mut(..units.len()))
        {
            write_slots(dst, units);
            self.pos += units.len();
        }
    }
    // Hot path. Bounds: `pos` advances by 1 only after writing `buf[pos]`, so it stays at
    // most `buf.len()`.
    #[inline(always)]
    #[allow(clippy::arithmetic_side_effects)]
    fn push_bmp(&mut self, c: u16) {
        if let Some(slot) = self.buf.get_mut(self.pos) {
            slot.write(c);
            self.pos += 1;
        }
    }
    // Hot path. Bounds: `pos <= buf.len()`, and `n` units were written into `buf[pos..]`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_ascii(&mut self, src: &[u8]) -> usize {
        let n = crate::simd::ascii::widen_ascii(src, &mut self.buf[self.pos..]);
        self.pos += n;
        n
    }
    // Bounds: `pos <= buf.len()`, and `written` units were written into `buf[pos..]`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_str(&mut self, src: &str) -> usize {
        let (read, written) = crate::simd::utf8::to_utf16(src, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
    // Bounds: `limit <= src.len()`, `ascii <= limit` (a prefix of `src[..limit]`), `read`
    // is a prefix length of `src[ascii..limit]` and the chunks' bytes taken are parts of
    // `src[done..limit]`, so every sum is at most `limit`; `pos <= buf.len()`, and
    // `written` units were written into `buf[pos..]`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_valid_utf8(&mut self, src: &[u8]) -> usize {
        // A leading ASCII run in one pass (one unit per byte).
        let ascii = self.copy_ascii(&src[..src.len().min(self.room())]);
        // n units of room take at most 3n bytes (a BMP character is 1-3 bytes and one
        // unit; a 4-byte one is two units). The kernels stop for room themselves: the
        // limit only bounds the validation done ahead of them.
        let limit = src
            .len()
            .min(ascii.saturating_add(self.room().saturating_mul(3)));
        // Validation and conversion in one pass where the kernel has it; then the rest
        // (the tail, or up to an error) in chunks, validated then converted.
        let (read, written) =
            crate::simd::utf8::validate_to_utf16(&src[ascii..limit], &mut self.buf[self.pos..]);
        self.pos += written;
        let done = ascii + read;
        let limit = src
            .len()
            .min(done.saturating_add(self.room().saturating_mul(3)));
        done + for_valid_utf8_chunks(&src[done..limit], |valid| self.copy_str(valid))
    }
    // Bounds: `pos <= buf.len()`, and `written` units were written into `buf[pos..]`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_utf16(&mut self, src: &[u8], big_endian: bool) -> usize {
        let (read, written) =
            crate::simd::utf16::bytes_to_units(src, big_endian, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
}

/// Runs `f` with a [`Utf16Sink`] over `additional` units of `vec`'s spare capacity
/// (reserved here, not zero-filled), then appends exactly what the sink wrote. Returns
/// `f`'s result. The count is the sink's own, not `f`'s: `f` cannot make `vec` cover
/// units nobody wrote.
pub(crate) fn append_to_utf16_vec<R>(
    vec: &mut alloc::vec::Vec<u16>,
    additional: usize,
    f: impl FnOnce(&mut Utf16Sink<'_>) -> R,
) -> R {
    vec.reserve(additional);
    let old_len = vec.len();
    let spare = vec.spare_capacity_mut();
    let n = additional.min(spare.len());
    let mut sink = Utf16Sink::over_slots(spare.get_mut(..n).unwrap_or_default());
    let result = f(&mut sink);
    let new_len = old_len.saturating_add(sink.pos.min(n));
    // SAFETY: the sink wrote `buf[..pos]`, `pos <= n` units of the capacity past the
    // length, initialised (its methods keep the `Slots` rules).
    unsafe { vec.set_len(new_len) };
    result
}
