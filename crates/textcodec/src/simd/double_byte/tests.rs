use super::super::dispatch::available_levels;
use super::super::level::Level;
use super::*;
use crate::index::{big5_pairs, euc_kr_pairs, gb18030_pairs, jis0208_pairs, shift_jis_pairs};
use crate::simd::test_slots as slots;
use alloc::string::String;
use alloc::vec::Vec;

/// The block size of `k`'s kernel for UTF-16 (`utf8` false) or UTF-8 output, `None` where
/// it has none (it takes nothing).
fn kernel_block(k: &Level, utf8: bool) -> Option<usize> {
    match k.name() {
        "avx512" => Some(64),
        "avx2" | "neon" => Some(32),
        "simd128" if !utf8 => Some(32),
        _ => None,
    }
}

/// Where `k`'s UTF-8 path runs two passes only over mostly non-ASCII text: (the fewest
/// non-ASCII bytes a block must have, how many bytes ahead must be such blocks for it to
/// start). It also probes two bytes first: `src[64]` and the last of those ahead.
fn utf8_gate(k: &Level) -> Option<(usize, usize)> {
    match k.name() {
        #[cfg(target_arch = "x86_64")]
        "avx2" => Some((avx2::UTF8_MIN_NON_ASCII as usize, avx2::UTF8_DENSE_AHEAD)),
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        "neon" => Some((neon::UTF8_MIN_NON_ASCII as usize, neon::UTF8_DENSE_AHEAD)),
        _ => None,
    }
}

/// Byte-by-byte: bit j set where byte j is lead-capable and starts a character.
fn naive_leads(capable: u64) -> u64 {
    let (mut leads, mut j) = (0, 0);
    while j < 64 {
        if capable >> j & 1 == 1 {
            leads |= 1 << j;
            j += 2;
        } else {
            j += 1;
        }
    }
    leads
}

#[test]
fn leads_of_matches_a_walk() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        // Sparse, dense and mixed masks.
        for capable in [x, x & x.rotate_left(7), x | x.rotate_left(3), !x & (x >> 1)] {
            assert_eq!(leads_of(capable), naive_leads(capable), "{capable:064b}");
        }
    }
    for capable in [0, u64::MAX, 1, 1 << 63, 0x8000_0000_0000_0001] {
        assert_eq!(leads_of(capable), naive_leads(capable));
    }
}

/// Whether a block has at least `min` non-ASCII bytes.
fn mostly_non_ascii(block: &[u8], min: usize) -> bool {
    block.iter().filter(|&&b| b >= 0x80).count() >= min
}

/// Naive decoding of the prefix a kernel of `block`-byte blocks may take: whole blocks
/// (one byte less when the last one is a lead) of ASCII and pairs of `table`, each while
/// `need` more units (UTF-16) or bytes (UTF-8) fit in `room`; stops before the first
/// block with anything else, and as `gate` says (see [`utf8_gate`]) for UTF-8. Returns
/// (bytes, the UTF-16).
fn naive(
    src: &[u8],
    table: &PairTable,
    room: usize,
    utf8: bool,
    block: usize,
    gate: Option<(usize, usize)>,
) -> (usize, Vec<u16>) {
    let need = match (utf8, block) {
        (true, 64) => 96,
        (true, _) => 48,
        (false, 64) => 64,
        (false, _) => block + 8,
    };
    let (mut i, mut out) = (0, Vec::new());
    let gate = gate.filter(|_| utf8);
    // A gated UTF-8 path starts only on a few blocks of mostly non-ASCII bytes, after a
    // probe of two of their bytes.
    if let Some((min, ahead)) = gate {
        if src.len() < ahead
            || src.get(64).is_none_or(|&b| b < 0x80)
            || src[ahead - 1] < 0x80
            || !src[..ahead].chunks(32).all(|b| mostly_non_ascii(b, min))
        {
            return (0, out);
        }
    }
    'blocks: while i + block <= src.len() {
        let written = if utf8 {
            String::from_utf16(&out).unwrap().len()
        } else {
            out.len()
        };
        if written + need > room {
            break;
        }
        // A gated UTF-8 path leaves mostly-ASCII blocks to the codec.
        if gate.is_some_and(|(min, _)| !mostly_non_ascii(&src[i..i + block], min)) {
            break;
        }
        let (mut j, mut units) = (i, Vec::new());
        while j < i + block {
            let b = src[j];
            if b < 0x80 {
                units.push(u16::from(b));
                j += 1;
            } else if table.lead_map()[usize::from(b - 0x80)] != 0 {
                if j + 1 == i + block {
                    break; // the lead's pair is in the next block
                }
                let c = table.get(b, src[j + 1]);
                if c == 0 {
                    break 'blocks;
                }
                units.push(c);
                j += 2;
            } else {
                break 'blocks;
            }
        }
        out.extend(units);
        i = j;
    }
    (i, out)
}

/// Text from pairs of `table` (every valid pair in turn, and some of the most common),
/// ASCII runs of many lengths, and a few bytes that stop a block: an invalid pair, a
/// non-lead non-ASCII byte, a lone lead at the end.
fn samples(table: &PairTable, seed: u64) -> Vec<Vec<u8>> {
    let mut pairs = Vec::new();
    for lead in 0x80..=0xFFu8 {
        for trail in 0..=0xFFu8 {
            if table.get(lead, trail) != 0 {
                pairs.push([lead, trail]);
            }
        }
    }
    let mut x = seed | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut out = Vec::new();
    for stopper in [
        None,
        Some(&[0xFFu8][..]),
        Some(&[0x80][..]),
        Some(&[0xA5][..]),
    ] {
        for ascii_share in [0, 3, 10, 13] {
            let mut text = Vec::new();
            let mut k = next() as usize;
            while text.len() < 700 {
                if (next() % 16) < ascii_share {
                    let n = (next() % 20) as usize;
                    text.extend((0..n).map(|m| b' ' + (m % 90) as u8));
                } else {
                    k = (k + (next() % 97) as usize) % pairs.len();
                    text.extend_from_slice(&pairs[k]);
                }
                if let Some(s) = stopper {
                    if next() % 300 == 0 {
                        text.extend_from_slice(s);
                    }
                }
            }
            out.push(text);
        }
    }
    out
}

fn tables() -> [(&'static str, &'static PairTable); 5] {
    [
        ("gb18030", gb18030_pairs()),
        ("EUC-KR", euc_kr_pairs()),
        ("Big5", big5_pairs()),
        ("EUC-JP", jis0208_pairs()),
        ("Shift_JIS", shift_jis_pairs()),
    ]
}

#[test]
fn every_kernel_matches_the_naive_decoder() {
    // What the samples made the kernel do: bytes read, calls that ended on a block cut
    // at 63, calls that stopped before a block with something else.
    let (mut taken, mut odd_blocks, mut stopped) = (0, 0, 0);
    for k in available_levels() {
        // Bytes this level's UTF-8 kernel read.
        let mut taken_utf8 = 0;
        for (name, table) in tables() {
            for (n, text) in samples(table, 7 + name.len() as u64).iter().enumerate() {
                for start in [0, 1, 2, 5, 63] {
                    let src = &text[start..];
                    for room in [0, 63, 64, 95, 96, 150, 200, 1000, 1500] {
                        let mut dst = alloc::vec![0xAAAAu16; room];
                        let got = to_utf16_with(k, src, table, slots(&mut dst));
                        if let Some(block) = kernel_block(k, false) {
                            let (want_read, want) = naive(src, table, room, false, block, None);
                            let (r, w) = got;
                            taken += r;
                            odd_blocks += usize::from(r % block != 0);
                            stopped += usize::from(r + block <= src.len() && room == 1500);
                            assert_eq!(
                                (r, &dst[..w]),
                                (want_read, &want[..]),
                                "{k:?} {name} {n} {start} {room}"
                            );
                            assert!(
                                dst[w..].iter().all(|&u| u == 0xAAAA),
                                "{k:?} {name}: wrote past"
                            );
                        } else {
                            assert_eq!(got, (0, 0));
                        }
                        let mut dst = alloc::vec![0xAAu8; room];
                        let got = to_utf8_with(k, src, table, slots(&mut dst));
                        if let Some(block) = kernel_block(k, true) {
                            let (want_read, want) =
                                naive(src, table, room, true, block, utf8_gate(k));
                            let want = String::from_utf16(&want).unwrap();
                            let (r, w) = got;
                            taken_utf8 += r;
                            assert_eq!(
                                (r, &dst[..w]),
                                (want_read, want.as_bytes()),
                                "{k:?} {name} {n} {start} {room} UTF-8"
                            );
                            assert!(
                                dst[w..].iter().all(|&u| u == 0xAA),
                                "{k:?} {name}: wrote past"
                            );
                        } else {
                            assert_eq!(got, (0, 0));
                        }
                    }
                }
            }
        }
        // The gated paths (AVX2, NEON) take the dense samples only.
        if kernel_block(k, true).is_some() {
            assert!(taken_utf8 > 50_000, "{k:?}: {taken_utf8}");
        }
    }
    if available_levels().any(|k| kernel_block(k, false).is_some()) {
        assert!(
            taken > 100_000 && odd_blocks > 100 && stopped > 50,
            "{taken} {odd_blocks} {stopped}"
        );
    }
}
