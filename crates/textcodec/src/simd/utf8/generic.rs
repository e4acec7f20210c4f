//! The UTF-8 kernels written once over [`Lookup`] vectors, instantiated by each level's
//! file (`sse4.rs`, `avx2.rs`, `neon.rs`, `simd128.rs`):
//! - the nibble-lookup validator (tables in `lookup.rs`), 64 bytes per step, and its
//!   one-pass validate-and-copy (AVX2, simd128);
//! - valid UTF-8 → UTF-16 in 16-byte windows (the 16-byte vectors: SSE4, NEON, simd128;
//!   AVX2 has a 32-byte kernel of its own).

use super::lookup::{CUR_HIGH, INCOMPLETE_MAX, PREV_HIGH, PREV_LOW};
use super::{finish, pack, scalar};
use crate::simd::vector::{Block, Isa, Lookup, Vector, BLOCK};
use crate::simd::{out_ptr, Slots};

/// The validator's tables and constants, in vectors.
struct Tables<V> {
    prev_high: V,
    prev_low: V,
    cur_high: V,
    low_nibble: V,
    /// Subtracted (saturating) from the bytes two and three back: nonzero where they
    /// are a 3- or 4-byte lead.
    third: V,
    fourth: V,
    continuation: V,
    /// Per position of a block's last vector: the largest byte that does not start a
    /// character running past the block's end.
    incomplete_max: V,
}

impl<V: Lookup> Tables<V> {
    #[inline(always)]
    // Bounds: `LANES` is at most 64, the length of `INCOMPLETE_MAX`.
    #[allow(clippy::arithmetic_side_effects)]
    fn new(isa: Isa<V>) -> Self {
        Tables {
            prev_high: V::table(isa, &PREV_HIGH),
            prev_low: V::table(isa, &PREV_LOW),
            cur_high: V::table(isa, &CUR_HIGH),
            low_nibble: V::splat(isa, 0x0F),
            third: V::splat(isa, 0xE0 - 0x80),
            fourth: V::splat(isa, 0xF0 - 0x80),
            continuation: V::splat(isa, 0x80),
            // SAFETY: the last `LANES` of the table's 64 bytes.
            incomplete_max: unsafe { V::load(isa, INCOMPLETE_MAX.as_ptr().add(BLOCK - V::LANES)) },
        }
    }

    /// Nonzero bytes where the `LANES` bytes at `p` are invalid, given the bytes before
    /// them.
    ///
    /// # Safety
    /// `p - 3 .. p + LANES` must be readable.
    #[inline(always)]
    unsafe fn errors(&self, p: *const u8) -> V {
        let isa = self.low_nibble.isa();
        // SAFETY: the caller guarantees `p - 3 .. p + LANES` readable.
        let (input, back1, back2, back3) = unsafe {
            (
                V::load(isa, p),
                V::load(isa, p.sub(1)),
                V::load(isa, p.sub(2)),
                V::load(isa, p.sub(3)),
            )
        };
        let a = self.prev_high.lookup(back1.high_nibbles());
        let b = self.prev_low.lookup(back1.and(self.low_nibble));
        let c = self.cur_high.lookup(input.high_nibbles());
        let special = a.and(b).and(c);
        // Third byte of a 3- or 4-byte sequence, or fourth of a 4-byte one: must be a
        // continuation, exactly where the tables expect two continuations in a row.
        let third = back2.sub_sat8(self.third);
        let fourth = back3.sub_sat8(self.fourth);
        let must_be_cont = third.or(fourth).and(self.continuation);
        must_be_cont.xor(special)
    }

    /// Checks the 64 bytes at `p`: `None` if invalid, else whether the last character
    /// runs past them. `incomplete` says whether the previous 64 bytes ended so.
    ///
    /// # Safety
    /// `p - 3 .. p + 64` must be readable.
    #[inline(always)]
    // Bounds: the offsets are below 64 (`3 * LANES` only where `LANES` is 16).
    #[allow(clippy::arithmetic_side_effects)]
    unsafe fn step(&self, p: *const u8, incomplete: bool) -> Option<bool> {
        let isa = self.low_nibble.isa();
        // SAFETY: `p .. p + 64` is readable.
        let block = unsafe { Block::load(isa, p) };
        if !block.or_all().any_high() {
            // ASCII: valid unless the previous bytes ended inside a character.
            return (!incomplete).then_some(false);
        }
        // SAFETY: `p - 3 .. p + 64` is readable.
        if unsafe { self.block_invalid(p) } {
            return None;
        }
        Some(!block.last().sub_sat8(self.incomplete_max).is_zero())
    }

    /// Whether the 64 bytes at `p` hold an error, given the bytes before them (a
    /// character cut at the block before shows in the bytes 1–3 back).
    ///
    /// # Safety
    /// `p - 3 .. p + 64` must be readable.
    #[inline(always)]
    // Bounds: the offsets are below 64 (`3 * LANES` only where `LANES` is 16).
    #[allow(clippy::arithmetic_side_effects)]
    unsafe fn block_invalid(&self, p: *const u8) -> bool {
        let n = V::LANES;
        // SAFETY: `p - 3 .. p + 64` is readable.
        let errors = unsafe {
            let errors = self.errors(p).or(self.errors(p.add(n)));
            if Block::<V>::VECTORS == 4 {
                errors.or(self.errors(p.add(2 * n)).or(self.errors(p.add(3 * n))))
            } else {
                errors
            }
        };
        !errors.is_zero()
    }
}

/// The block loop of the validator: each 64 bytes checked by [`Tables::step`], given
/// whether the bytes before end inside a character. The first block gets three NUL bytes
/// in front (the stream's start is a character boundary); the tail and a failing block
/// go to [`finish`].
///
/// With `copy_to`, the valid prefix is also copied there in the same pass: each block
/// is stored once the next one has been checked (its bytes still in L1; the store comes
/// after the loads of the bytes right behind it, so an output that starts at the input's
/// offset modulo 4 KiB does not 4K-alias, see [`super::copy_valid_prefix`]). Nothing past
/// the returned length is written: a block is stored only after the next one is checked,
/// and what is left ends at the valid length.
///
/// # Safety
/// `copy_to`, if given, must be valid for writes of `src.len()` bytes and not overlap
/// `src`.
// Hot loop. Bounds: `src.len() >= 64` before `src[..64]`; `i` only advances by 64 while
// `i + 64 <= src.len()`, so `i <= src.len()` and the sum cannot overflow; `i >= 64` after
// the first block, and the valid length `n` from `finish` is at least `i - 3`.
#[inline(always)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
unsafe fn blocks<V: Lookup>(isa: Isa<V>, src: &[u8], copy_to: Option<*mut u8>) -> usize {
    let t = Tables::new(isa);
    // SAFETY (for every call): `from + len <= src.len()`, and the caller guarantees
    // `copy_to[..src.len()]` writable and apart from `src`.
    let copy = |from: usize, len: usize| {
        if let Some(d) = copy_to {
            unsafe { core::ptr::copy_nonoverlapping(src.as_ptr().add(from), d.add(from), len) }
        }
    };
    let valid_tail = |from: usize| {
        let n = from + scalar::valid_prefix_len(&src[from..]);
        copy(from, n - from);
        n
    };
    if src.len() < BLOCK {
        return valid_tail(0);
    }
    let mut first = [0u8; BLOCK + 3];
    first[3..].copy_from_slice(&src[..BLOCK]);
    // SAFETY: `first[0..67]` is 3 bytes before the 64 at index 3.
    let Some(mut incomplete) = (unsafe { t.step(first.as_ptr().add(3), false) }) else {
        return valid_tail(0);
    };
    let mut i = BLOCK;
    // Not at SSE4 (16-byte vectors on x86-64): see below.
    let dense = copy_to.is_none()
        && (Block::<V>::VECTORS == 2 || !cfg!(target_arch = "x86_64"))
        && mostly_non_ascii(isa, src);
    if dense {
        // Nearly every block holds a non-ASCII byte: each checked in full, with no ASCII
        // test and no note of where its last character ends (the bytes 1–3 back carry a
        // cut character). UTF-8 → `&str` on such text against simdutf8 (Zen 4 VM, two
        // rounds): AVX2 1.06–1.16× → 1.08–1.44×, geomean over 46 inputs 1.05–1.09× →
        // 1.11–1.13×; simd128 in V8 1.15–1.16× → 1.23–1.24× encoding_rs over seven
        // inputs; NEON not measured. Each copy of this loop costs the footprint budget
        // (`.ci/extra.d/size.sh`, where every x86-64 level is linked): it is left out of
        // the one-pass copy, where its gain did not show (→ `String` at AVX2 1.22–1.25×
        // either way), and out of SSE4 (dense rows 0–40 % faster, four vectors' checks
        // inlined). One loop with the choice made per block instead of two loops ran at
        // 0.94–0.96× simdutf8 at AVX2, against 1.11–1.12×.
        while i + BLOCK <= src.len() {
            // SAFETY: `3 <= i` and `i + 64 <= src.len()`: `src[i - 3 .. i + 64]` is
            // readable.
            if unsafe { t.block_invalid(src.as_ptr().add(i)) } {
                break;
            }
            i += BLOCK;
        }
    }
    // Blocks that may be skipped as ASCII (all but `dense` text).
    if !dense {
        loop {
            if !incomplete {
                // ASCII blocks after a character boundary are valid: the tight loop of
                // mostly-ASCII text (inside `step`, the same test costs two taken branches
                // per block, and its speed varied 2.5× with the code's placement).
                while i + BLOCK <= src.len() {
                    // SAFETY: `i + 64 <= src.len()`.
                    let block = unsafe { Block::load(isa, src.as_ptr().add(i)) };
                    if block.or_all().any_high() {
                        break;
                    }
                    copy(i - BLOCK, BLOCK);
                    i += BLOCK;
                }
            }
            if i + BLOCK > src.len() {
                break;
            }
            // SAFETY: `3 <= i` and `i + 64 <= src.len()`: `src[i - 3 .. i + 64]` is readable.
            match unsafe { t.step(src.as_ptr().add(i), incomplete) } {
                Some(ends_inside) => incomplete = ends_inside,
                None => break,
            }
            copy(i - BLOCK, BLOCK);
            i += BLOCK;
        }
    }
    let n = finish(src, i);
    if copy_to.is_some() {
        copy(i - BLOCK, n - (i - BLOCK));
    }
    n
}

/// Length of the longest valid UTF-8 prefix of `src`.
#[inline(always)]
pub(super) fn valid_prefix_len<V: Lookup>(isa: Isa<V>, src: &[u8]) -> usize {
    // SAFETY: no copy.
    unsafe { blocks(isa, src, None) }
}

/// [`valid_prefix_len`] of `src[..dst.len()]` (all of `src` when it fits), copying the
/// valid prefix to `dst`; nothing past it is written. In one pass ([`blocks`] storing
/// each block while it is in L1), unless the input starts with mostly ASCII
/// ([`mostly_ascii`]): then validated by `valid_prefix_len` (the level's own validator,
/// out of line) and copied by `memcpy` 16 KiB at a time, whose string moves write whole
/// cache lines without reading them first. On near-ASCII text the one-pass loop's vector
/// stores ran 0.94–0.96× encoding_rs's validate-then-copy at AVX2 (two passes 1.07–1.11×);
/// on other text one pass is 1.05–1.12× faster than two. (Chunks deciding one by one
/// cost the one-pass rows 5 %. The NEON level validates and copies in two passes: the
/// one-pass loop was measured on x86-64 only.)
#[cfg_attr(target_arch = "aarch64", allow(dead_code))]
// Bounds: `read <= end <= n <= src.len()`, and `valid <= end - read` (a prefix of the
// chunk; the validator's answer is clamped to it); `dst` holds `n` slots or more.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
#[inline(always)]
pub(super) fn copy_valid_prefix<V: Lookup>(
    isa: Isa<V>,
    src: &[u8],
    dst: &mut Slots<u8>,
    valid_prefix_len: impl Fn(&[u8]) -> usize,
) -> usize {
    const CHUNK: usize = 16 * 1024;
    let n = src.len().min(dst.len());
    let out = out_ptr(dst);
    if !mostly_ascii(isa, &src[..n]) {
        // SAFETY: `out[..n]` is writable (`n <= dst.len()`), and a `&mut` cannot overlap
        // the shared `src`.
        return unsafe { blocks(isa, &src[..n], Some(out)) };
    }
    let mut read = 0;
    loop {
        let end = n.min(read + CHUNK);
        let chunk = &src[read..end];
        let valid = valid_prefix_len(chunk).min(chunk.len());
        // SAFETY: as above, `out[read..read + valid]` is within `out[..n]`.
        unsafe { core::ptr::copy_nonoverlapping(chunk.as_ptr(), out.add(read), valid) };
        read += valid;
        // Done at the end or at an error. A chunk boundary may cut a character, leaving
        // at most three bytes unchecked before `end`: go on from there.
        if end == n || end - read >= 4 {
            return read;
        }
    }
}

/// Whether `src` is 4 KiB or more and starts with 1 KiB of which at most a quarter of
/// the 64-byte blocks hold a non-ASCII byte (English or Welsh text, markup: 76–93 % of
/// the blocks are ASCII; other Latin-script text 4–69 %). Shorter inputs gain nothing
/// from `memcpy`.
// Bounds: 16 blocks of 64 bytes are read only when `src` holds 4096 bytes or more.
#[allow(clippy::arithmetic_side_effects)]
#[inline(always)]
fn mostly_ascii<V: Lookup>(isa: Isa<V>, src: &[u8]) -> bool {
    const SAMPLE_BLOCKS: usize = 16;
    if src.len() < 4096 {
        return false;
    }
    let mut non_ascii = 0;
    for k in 0..SAMPLE_BLOCKS {
        // SAFETY: `(k + 1) * 64 <= 1024 <= src.len()`.
        let block = unsafe { Block::load(isa, src.as_ptr().add(k * BLOCK)) };
        non_ascii += usize::from(block.or_all().any_high());
    }
    non_ascii * 4 <= SAMPLE_BLOCKS
}

/// Whether `src` is 4 KiB or more and at least 55 of 64 blocks of 64 bytes spread evenly
/// over it (86 %) hold a non-ASCII byte: text in a non-Latin script, or Latin text with a
/// letter in nearly every 64 bytes. The share is higher than AVX-512's 70 %
/// (`ascii::avx512::mostly_non_ascii`): with two or four vectors per block, a block's
/// ASCII test costs less against its check, and at AVX2 checking every block lost on
/// catalogs with 64–80 % non-ASCII blocks (ru.po, zh_Hant.po 1.08–1.10× → 0.81–0.95×
/// simdutf8) while it gained from 87 % on (ru.text 0.87–0.95× → 1.08–1.33×).
// Bounds: block `k` starts at `(len - 64) * k / 64 <= len - 64`; `(len - 64) * k` cannot
// overflow for a slice's length (`len <= isize::MAX`, `k < 64`).
#[allow(clippy::arithmetic_side_effects)]
#[inline(always)]
fn mostly_non_ascii<V: Lookup>(isa: Isa<V>, src: &[u8]) -> bool {
    if src.len() < 4096 {
        return false;
    }
    let span = src.len() - BLOCK;
    let mut non_ascii = 0;
    for k in 0..64 {
        // SAFETY: the block lies within `src` (see above).
        let block = unsafe { Block::load(isa, src.as_ptr().add(span * k / 64)) };
        non_ascii += usize::from(block.or_all().any_high());
    }
    non_ascii >= 55
}

/// The code point each of `LANES / 2` byte positions would start (as a one-, two- or
/// three-byte lead), from the bytes `b` and the next two, `n1` and `n2`, widened to
/// `u16` lanes.
#[inline(always)]
fn units<V: Vector>(b: V, n1: V, n2: V) -> V {
    let isa = b.isa();
    let six = V::splat16(isa, 0x3F);
    let low1 = n1.and(six);
    let two = b.and(V::splat16(isa, 0x1F)).shl16::<6>().or(low1);
    // The lead's top four bits shift out of the lane.
    let three = b.shl16::<12>().or(low1.shl16::<6>()).or(n2.and(six));
    let lead = b.gt16(V::splat16(isa, 0xBF));
    let lead_3 = b.gt16(V::splat16(isa, 0xDF));
    V::select(lead_3, three, V::select(lead, two, b))
}

/// [`units`] where no position holds a three-byte lead.
#[inline(always)]
fn units_2<V: Vector>(b: V, n1: V) -> V {
    let isa = b.isa();
    let two = b
        .and(V::splat16(isa, 0x1F))
        .shl16::<6>()
        .or(n1.and(V::splat16(isa, 0x3F)));
    V::select(b.gt16(V::splat16(isa, 0xBF)), two, b)
}

/// Bytes 0, 3, 6, 9 and 12 of a window: where five three-byte characters start.
const THREE_BYTE_STARTS: u32 = 0b0001_0010_0100_1001;

/// Lookup indexes that gather the first, second and third bytes of five three-byte
/// characters (window bytes 0-14) into the low bytes of `u16` lanes 0-4 (0x80: zero).
const THREE_BYTE_LEADS: [u8; 16] = three_byte_gather(0);
const THREE_BYTE_SECONDS: [u8; 16] = three_byte_gather(1);
const THREE_BYTE_THIRDS: [u8; 16] = three_byte_gather(2);

// Bounds: evaluated at compile time; `2k < 10` and `3k + byte < 15`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn three_byte_gather(byte: u8) -> [u8; 16] {
    let mut t = [0x80u8; 16];
    let mut k = 0;
    while k < 5 {
        t[2 * k] = 3 * k as u8 + byte;
        k += 1;
    }
    t
}

/// Converts valid UTF-8 to UTF-16, 16 bytes per step, with 16-byte vectors; stops at a
/// four-byte character, the last 32 bytes or the last 16 units of room (the scalar twin
/// does the rest). Every byte position's would-be code point is computed in a `u16` lane
/// from it and the next two bytes ([`units`]), then the lanes at character starts are
/// packed by a table lookup with `pack::KEPT_UNITS` (its 0x80 entries give 0), 8 lanes
/// at a time; a window that starts with five three-byte characters takes a shorter way
/// (15 bytes to 5 units). Returns (bytes read, units written); `dst` past `written` may be
/// overwritten. `src` must be valid UTF-8 (otherwise the output is unspecified, though
/// memory safe).
// Hot loop. Bounds: `read` advances by at most 16 while `read + 32 <= src.len()`, and
// `written` by at most 16 while `written + 16 <= dst.len()`, so neither passes its
// slice's length and the sums cannot overflow; the table indexes are 8-bit masks.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
#[inline(always)]
pub(super) fn to_utf16<V: Lookup>(isa: Isa<V>, src: &str, dst: &mut Slots<u16>) -> (usize, usize) {
    const { assert!(V::LANES == 16) };
    let src = src.as_bytes();
    let (four, lead, lead_3) = (
        V::splat(isa, 0xF0),
        V::splat(isa, 0xC0),
        V::splat(isa, 0xE0),
    );
    let continuation = V::splat(isa, 0x80);
    let (mut read, mut written) = (0, 0);
    while read + 32 <= src.len() && written + 16 <= dst.len() {
        let p = src[read..].as_ptr();
        let d = out_ptr(&mut dst[written..]);
        // SAFETY: `read + 32 <= src.len()`: the loads read within `src[read..read + 18]`.
        let w = unsafe { V::load(isa, p) };
        if !w.any_high() {
            let (low, high) = w.widen();
            // SAFETY: `written + 16 <= dst.len()`: the stores write 16 units.
            unsafe {
                low.store(d.cast());
                high.store(d.add(8).cast());
            }
            read += 16;
            written += 16;
            continue;
        }
        if w.ge8(four).any_high() {
            break;
        }
        let leads_3 = w.ge8(lead_3).high_bits();
        if leads_3 & THREE_BYTE_STARTS == THREE_BYTE_STARTS {
            // Five three-byte characters in bytes 0..15 (CJK text): the input is valid
            // and holds no four-byte lead here, so each of those leads has its two
            // continuations after it. Each character's bytes gathered into `u16` lanes by
            // three fixed lookups, then combined.
            let six = V::splat16(isa, 0x3F);
            let units = w
                .lookup(V::table(isa, &THREE_BYTE_LEADS))
                .shl16::<12>()
                .or(w
                    .lookup(V::table(isa, &THREE_BYTE_SECONDS))
                    .and(six)
                    .shl16::<6>())
                .or(w.lookup(V::table(isa, &THREE_BYTE_THIRDS)).and(six));
            // SAFETY: `written + 16 <= dst.len()`: the store writes 8 units (5 count).
            unsafe { units.store(d.cast()) };
            read += 15;
            written += 5;
            continue;
        }
        let (starts, taken) = pack::whole_characters::<16>(
            w.and(lead).eq8(continuation).high_bits().into(),
            w.ge8(lead).high_bits().into(),
            leads_3.into(),
        );
        // SAFETY: as above.
        let w1 = unsafe { V::load(isa, p.add(1)) };
        let (b, n1) = (w.widen(), w1.widen());
        let (low, high) = if leads_3 == 0 {
            // One- and two-byte characters only (Cyrillic, Greek, Arabic, Hebrew text).
            (units_2(b.0, n1.0), units_2(b.1, n1.1))
        } else {
            // SAFETY: as above.
            let n2 = unsafe { V::load(isa, p.add(2)) }.widen();
            (units(b.0, n1.0, n2.0), units(b.1, n1.1, n2.1))
        };
        let (s0, s1) = ((starts & 0xFF) as usize, ((starts >> 8) & 0xFF) as usize);
        let (keep0, keep1) = (
            V::table(isa, &pack::KEPT_UNITS[s0]),
            V::table(isa, &pack::KEPT_UNITS[s1]),
        );
        let n0 = s0.count_ones() as usize;
        // SAFETY: each store writes 8 units, the second from `n0 <= 8` on: within the
        // 16 units from `written` on.
        unsafe {
            low.lookup(keep0).store(d.cast());
            high.lookup(keep1).store(d.add(n0).cast());
        }
        written += n0 + s1.count_ones() as usize;
        read += taken;
    }
    (read, written)
}
