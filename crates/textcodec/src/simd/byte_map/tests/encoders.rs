//! The single-byte encoders' kernels (hot pairs, x-user-defined) against the index,
//! across mixes of text, room and every stop position. The decode kernels' tests are in
//! `mod.rs`.
use crate::index::byte_map::hot_pairs;
use crate::simd::byte_map::*;
use crate::simd::dispatch::available_levels;
use crate::simd::level::Level;
use crate::simd::test_slots as slots;
use alloc::string::String;
use alloc::vec::Vec;

/// `len` characters from `takeable` but one from `others` at `other_at` (none if out
/// of range), and the byte offset of that one (the text's length if none).
fn mixed_text(len: usize, other_at: usize, takeable: &[char], others: &[char]) -> (String, usize) {
    let text: String = (0..len)
        .map(|i| {
            if i == other_at {
                others[(i / 5 + len) % others.len()]
            } else {
                takeable[(i * 31 + len) % takeable.len()]
            }
        })
        .collect();
    let stop = text
        .char_indices()
        .nth(other_at)
        .map_or(text.len(), |(at, _)| at);
    (text, stop)
}

/// Which encoder kernel is under test.
#[derive(Clone, Copy)]
enum Encoder {
    HotPairs,
    XUserDefined,
}

/// An encoder kernel's step and the output room it needs to take one (its step's worst
/// case plus any scratch bytes it saves and restores), `None` for levels without one
/// (they take nothing).
fn encoder_step(k: &Level, encoder: Encoder) -> Option<(usize, usize)> {
    let _ = encoder;
    match k.name() {
        "avx512" => Some((64, 64)),
        "avx2" if matches!(encoder, Encoder::XUserDefined) => Some((32, 48)),
        "neon" if cfg!(target_endian = "little") => Some((16, 32)),
        _ => None,
    }
}

/// The bytes `text` encodes to, character by character, up to `stop` (`encode` of each
/// character), and for each byte offset up to `stop` that starts a character the length
/// of the output before it.
fn expected_output(text: &str, stop: usize, encode: impl Fn(char) -> u8) -> (Vec<u8>, Vec<usize>) {
    let mut out = Vec::new();
    let mut out_at = alloc::vec![usize::MAX; stop + 1];
    for (at, c) in text[..stop].char_indices() {
        out_at[at] = out.len();
        out.push(encode(c));
    }
    out_at[stop] = out.len();
    (out, out_at)
}

/// Runs one encoder kernel over `text` (at byte `align` of its buffer) into `room` bytes
/// (at byte `align` of theirs, full of 0xAA) and checks the contract: a prefix of whole
/// characters, none past `stop` (the first character it must not take), exactly their
/// bytes, nothing written after them; and that it went as far as its steps allow: up to
/// `stop`, or to where a whole step no longer fits the input or the room.
#[allow(clippy::too_many_arguments)]
fn check_encoder(
    k: &Level,
    encoder: Encoder,
    hot: &HotPairs,
    text: &str,
    stop: usize,
    (want, out_at): (&[u8], &[usize]),
    align: usize,
    room: usize,
) {
    let mut src = alloc::vec![b'!'; align];
    src.extend_from_slice(text.as_bytes());
    let src = &src[align..];
    let mut dst = alloc::vec![0xAAu8; align + room];
    let out = slots(&mut dst[align..]);
    let (read, written) = match encoder {
        Encoder::HotPairs => encode_hot_pairs_with(k, src, hot, out),
        Encoder::XUserDefined => encode_x_user_defined_with(k, src, out),
    };
    let what = match encoder {
        Encoder::HotPairs => "hot pairs",
        Encoder::XUserDefined => "x-user-defined",
    };
    let at = || {
        let len = text.len();
        alloc::format!(
            "{k:?} {what}: len {len} stop {stop} align {align} room {room} read {read} {text:?}"
        )
    };
    assert!(
        read <= stop && text.is_char_boundary(read),
        "{}: read",
        at()
    );
    assert_eq!(written, out_at[read], "{}: written", at());
    assert_eq!(&dst[align..align + written], &want[..written], "{}", at());
    assert!(
        dst[..align]
            .iter()
            .chain(&dst[align + written..])
            .all(|&b| b == 0xAA),
        "{}: wrote outside its output",
        at()
    );
    match encoder_step(k, encoder) {
        Some((step, need)) => assert!(
            read == stop || read + step > text.len() || written + need > room,
            "{}: stopped early",
            at()
        ),
        None => assert_eq!((read, written), (0, 0), "{}", at()),
    }
}

/// The characters a hot-pair kernel must take for `index` (ASCII, hot and mappable), and
/// others it must stop before: three- and four-byte ones, the index's characters outside
/// the hot blocks, and (if any) a hot-block character the index does not map.
fn hot_pair_characters(
    index: &crate::index::SingleByteTables,
    hot: &HotPairs,
) -> (Vec<char>, Vec<char>) {
    let mut takeable: Vec<char> = (0x00u8..0x80).step_by(7).map(char::from).collect();
    let mut others: Vec<char> = alloc::vec!['€', '\u{2013}', '日', '😀', '\u{7FF}', '\u{80}'];
    for b in 0x80..=0xFFu8 {
        let Some(cp) = index.code_point(b) else {
            continue;
        };
        let c = char::from_u32(u32::from(cp)).unwrap();
        let lead = c.encode_utf8(&mut [0; 4]).as_bytes()[0];
        if c.len_utf8() == 2 && hot.leads.contains(&lead) {
            takeable.push(c);
        } else {
            others.push(c);
        }
    }
    for k in 0..4 {
        for t in 0..64u32 {
            let lead = u32::from(hot.leads[k]);
            if lead == 0 || hot.bytes[k * 64 + t as usize] != 0 {
                continue;
            }
            let cp = ((lead & 0x1F) << 6) | t;
            if cp >= 0x80 {
                others.push(char::from_u32(cp).unwrap());
                break;
            }
        }
    }
    // (U+0080 is takeable where the index maps it: ISO-8859-2's C1 controls.)
    others.retain(|c| !takeable.contains(c));
    (takeable, others)
}

/// A single-byte encoder's byte for a character it takes (ASCII or in its index).
fn single_byte_encode(index: &crate::index::SingleByteTables) -> impl Fn(char) -> u8 + '_ {
    |c| {
        if (c as u32) < 0x80 {
            c as u8
        } else {
            index.byte_for(c as u32).unwrap()
        }
    }
}

/// The hot-pair encoder kernel against the index, character by character, over long
/// texts of a few encodings with busy hot blocks: it takes a prefix of whole characters,
/// all ASCII or hot and mappable, writes exactly their bytes, and with room takes every
/// whole step such characters fill.
#[test]
fn hot_pair_encoder_matches_the_index_across_mixes_and_room() {
    use crate::index::single_byte::{ISO_8859_2, WINDOWS_1251, WINDOWS_1252, WINDOWS_1255};
    let indexes = [&WINDOWS_1252, &WINDOWS_1251, &ISO_8859_2, &WINDOWS_1255].map(|i| i.tables());
    let (max_len, step) = if cfg!(miri) { (70, 23) } else { (200, 1) };
    for index in indexes {
        let hot = &hot_pairs(&index.decode);
        let (takeable, others) = hot_pair_characters(index, hot);
        assert!(takeable.len() > 40, "hot blocks too small");
        for len in 0..max_len {
            for other_at in (0..len).step_by(step * 5).chain([usize::MAX]) {
                let (text, stop) = mixed_text(len, other_at, &takeable, &others);
                let (want, out_at) = expected_output(&text, stop, single_byte_encode(index));
                for room in [0, 31, 32, 63, 64, text.len(), text.len() + 64] {
                    for k in available_levels() {
                        let expected = (&want[..], &out_at[..]);
                        check_encoder(k, Encoder::HotPairs, hot, &text, stop, expected, 0, room);
                    }
                }
            }
        }
    }
}

/// The hot-pair encoder kernel in every single-byte encoding (its own hot blocks, however
/// few characters they hold), with a character it must stop before at every position,
/// the text at every alignment within a 16-byte step, and output room around every
/// kernel's thresholds.
#[test]
fn hot_pair_encoder_stops_at_every_position_in_every_single_byte_encoding() {
    let (max_len, step) = if cfg!(miri) { (20, 7) } else { (72, 1) };
    let encodings = crate::Encoding::all()
        .iter()
        .filter_map(|e| e.single_byte_tables());
    for (n, index) in encodings.enumerate() {
        let hot = &hot_pairs(&index.decode);
        let (takeable, others) = hot_pair_characters(index, hot);
        for len in 0..max_len {
            for other_at in (0..len).step_by(step).chain([usize::MAX]) {
                let (text, stop) = mixed_text(len, other_at, &takeable, &others);
                let (want, out_at) = expected_output(&text, stop, single_byte_encode(index));
                let align = (n + len + other_at % 16) % 16;
                let rooms = [0, 16, 31, 32, 33, 48, 63, 64, 65, 95, 96, text.len() + 64];
                for room in rooms {
                    for k in available_levels() {
                        let expected = (&want[..], &out_at[..]);
                        check_encoder(
                            k,
                            Encoder::HotPairs,
                            hot,
                            &text,
                            stop,
                            expected,
                            align,
                            room,
                        );
                    }
                }
            }
        }
    }
}

/// The hot-pair encoder kernel over bytes that are not all UTF-8 (`EncodeWriter` hands it
/// a writer's bytes unchecked): text of hot characters with one malformed piece — a lead
/// without its trail, a lone trail, an overlong or a long lead cut short, bytes never in
/// UTF-8 — at every position. Every kernel takes only whole valid characters, before the
/// piece, and writes exactly their bytes.
#[test]
fn hot_pair_encoder_takes_only_valid_utf8() {
    use crate::index::single_byte::{WINDOWS_1251, WINDOWS_1252};
    let (max_len, step) = if cfg!(miri) { (40, 13) } else { (140, 1) };
    let junk: [&[u8]; 9] = [
        b"\xD0",
        b"\xD0A",
        b"\xD0\xD0",
        b"\x80",
        b"\xBF\x80",
        b"\xC0\xAF",
        b"\xC1\xBF",
        b"\xE3\x81",
        b"\xFF",
    ];
    for index in [&WINDOWS_1251, &WINDOWS_1252].map(|i| i.tables()) {
        let hot = &hot_pairs(&index.decode);
        let (takeable, _) = hot_pair_characters(index, hot);
        for len in 0..max_len {
            let (text, _) = mixed_text(len, usize::MAX, &takeable, &[]);
            for at in (0..=text.len())
                .filter(|&i| text.is_char_boundary(i))
                .step_by(step)
            {
                for piece in junk {
                    let mut src = text.as_bytes()[..at].to_vec();
                    src.extend_from_slice(piece);
                    src.extend_from_slice(&text.as_bytes()[at..]);
                    let (want, out_at) = expected_output(&text, at, single_byte_encode(index));
                    for k in available_levels() {
                        let mut dst = alloc::vec![0xAAu8; src.len() + 64];
                        let (read, written) = encode_hot_pairs_with(k, &src, hot, slots(&mut dst));
                        let what = || alloc::format!("{k:?} at {at} {piece:?} {text:?}");
                        assert!(
                            read <= at && text.is_char_boundary(read),
                            "{}: read {read}",
                            what()
                        );
                        assert_eq!(written, out_at[read], "{}", what());
                        assert_eq!(&dst[..written], &want[..written], "{}", what());
                    }
                }
            }
        }
    }
}

/// What any hot-pair kernel may do with arbitrary bytes: take a prefix that is valid
/// UTF-8 of characters the index maps (ASCII or a two-byte character), write exactly
/// their bytes and nothing past them. Returns a description of the first breach.
fn breach_of_hot_pair_contract(
    index: &crate::index::SingleByteTables,
    src: &[u8],
    (read, written): (usize, usize),
    dst: &[u8],
    room: usize,
) -> Option<alloc::string::String> {
    let Ok(taken) = core::str::from_utf8(src.get(..read)?) else {
        return Some(alloc::format!("read {read}: not valid UTF-8"));
    };
    let mut want = Vec::new();
    for c in taken.chars() {
        let byte = if (c as u32) < 0x80 {
            Some(c as u8)
        } else if c.len_utf8() == 2 {
            index.byte_for(c as u32)
        } else {
            None
        };
        match byte {
            Some(b) => want.push(b),
            None => return Some(alloc::format!("took {c:?}, which it must not")),
        }
    }
    if written != want.len() || dst.get(..written) != Some(&want[..]) {
        return Some(alloc::format!(
            "wrote {:?}, want {want:?}",
            &dst[..written.min(dst.len())]
        ));
    }
    if dst[written..room].iter().any(|&b| b != 0xAA) {
        return Some(alloc::format!("wrote past {written}"));
    }
    None
}

/// Every byte value followed by every trail byte, at the start, the middle and the end of
/// a kernel step, amid hot characters, in every single-byte encoding (whose unused hot
/// slots hold lead 0: a NUL before a lone trail once passed as a character, see
/// SECURITY.md).
#[test]
fn hot_pair_encoder_refuses_a_trail_after_every_byte_value() {
    let trails: Vec<u8> = if cfg!(miri) {
        alloc::vec![0x80, 0xBF]
    } else {
        (0x80..0xC0).collect()
    };
    let firsts: Vec<u8> = if cfg!(miri) {
        alloc::vec![0x00, 0x41, 0xC3, 0xD0]
    } else {
        (0..=0xFF).collect()
    };
    let encodings = crate::Encoding::all()
        .iter()
        .filter_map(|e| Some((e.name(), e.single_byte_tables()?)));
    for (name, index) in encodings {
        let hot = &hot_pairs(&index.decode);
        let (takeable, _) = hot_pair_characters(index, hot);
        // Hot characters first, so the pair lands mid-step after taken text.
        let (text, _) = mixed_text(20, usize::MAX, &takeable, &[]);
        let mut src = Vec::with_capacity(256);
        let mut dst = alloc::vec![0xAAu8; 256];
        for at in [0, 1, 31, 62, 63, 64] {
            for &first in &firsts {
                for &trail in &trails {
                    src.clear();
                    src.extend(text.bytes().chain(core::iter::repeat(b'a')).take(at));
                    src.extend([first, trail]);
                    src.resize(160, b'z');
                    for k in available_levels() {
                        dst.fill(0xAA);
                        let room = dst.len();
                        let done = encode_hot_pairs_with(k, &src, hot, slots(&mut dst));
                        if let Some(breach) =
                            breach_of_hot_pair_contract(index, &src, done, &dst, room)
                        {
                            panic!("{k:?} {name} {first:02X} {trail:02X} at {at}: {breach}");
                        }
                    }
                }
            }
        }
    }
}

/// Random bytes drawn from the values that matter to the kernels (NUL, ASCII, hot and
/// cold leads, trails, three- and four-byte leads, bytes never in UTF-8) in every
/// single-byte encoding, with random output room: the contract above.
#[test]
fn hot_pair_encoder_keeps_its_contract_over_random_bytes() {
    let rounds = if cfg!(miri) { 20 } else { 3000 };
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet: [u8; 16] = [
        0x00, 0x20, 0x41, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC2, 0xC3, 0xD0, 0xD1, 0xD7, 0xE2, 0xF0,
        0xFF,
    ];
    let indexes: Vec<_> = crate::Encoding::all()
        .iter()
        .filter_map(|e| Some((e.name(), e.single_byte_tables()?)))
        .collect();
    let mut src = Vec::new();
    let mut dst = alloc::vec![0u8; 400];
    for round in 0..rounds {
        let (name, index) = indexes[round % indexes.len()];
        let hot = &hot_pairs(&index.decode);
        let len = (next() % 300) as usize;
        src.clear();
        // Mostly hot characters and ASCII, so kernels get far; random bytes between.
        let (takeable, _) = hot_pair_characters(index, hot);
        while src.len() < len {
            let r = next();
            if r % 4 == 0 {
                src.push(alphabet[(r >> 8) as usize % alphabet.len()]);
            } else {
                let c = takeable[(r >> 8) as usize % takeable.len()];
                src.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            }
        }
        let room = (next() % 400) as usize;
        for k in available_levels() {
            dst.fill(0xAA);
            let done = encode_hot_pairs_with(k, &src, hot, slots(&mut dst[..room]));
            if let Some(breach) = breach_of_hot_pair_contract(index, &src, done, &dst, dst.len()) {
                panic!("{k:?} {name} room {room} {src:02X?}: {breach}");
            }
        }
    }
}

/// The x-user-defined encoder kernel against the Standard's mapping, character by
/// character: a prefix of whole characters, each ASCII or U+F780..=U+F7FF, exactly their
/// bytes, and with room every whole step up to the first other character; that character
/// at every position, the text at every alignment within a 16-byte step, and output room
/// around every kernel's thresholds.
#[test]
fn x_user_defined_encoder_matches_the_mapping_across_mixes_and_room() {
    let (max_len, step) = if cfg!(miri) { (70, 7) } else { (200, 1) };
    let takeable: Vec<char> = (0u32..0x80)
        .step_by(5)
        .chain(0xF780..0xF800)
        .filter_map(char::from_u32)
        .collect();
    // Other three-byte characters with lead EF (second byte next to 9E/9F, and not), and
    // one- to four-byte ones.
    let others = [
        'é', '日', '😀', '\u{F77F}', '\u{F800}', '\u{E000}', '\u{7FF}', '\u{FFFF}', '\u{F700}',
    ];
    let hot = &hot_pairs(&[0; 256]);
    let encode = |c: char| match c as u32 {
        cp @ 0..=0x7F => cp as u8,
        cp => (cp - 0xF780 + 0x80) as u8,
    };
    for len in 0..max_len {
        for other_at in (0..len).step_by(step).chain([usize::MAX]) {
            let (text, stop) = mixed_text(len, other_at, &takeable, &others);
            let (want, out_at) = expected_output(&text, stop, encode);
            let align = (len + other_at % 16) % 16;
            let rooms = [
                0,
                16,
                31,
                32,
                33,
                47,
                48,
                49,
                63,
                64,
                65,
                text.len(),
                text.len() + 64,
            ];
            for room in rooms {
                for k in available_levels() {
                    let expected = (&want[..], &out_at[..]);
                    check_encoder(
                        k,
                        Encoder::XUserDefined,
                        hot,
                        &text,
                        stop,
                        expected,
                        align,
                        room,
                    );
                }
            }
        }
    }
}

/// x-user-defined to UTF-16 against the Standard's arithmetic, every byte value, with
/// lengths and rooms around the step.
#[test]
fn x_user_defined_to_utf16_matches_the_standard() {
    let src: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
    let want: Vec<u16> = src
        .iter()
        .map(|&b| {
            if b < 0x80 {
                u16::from(b)
            } else {
                0xF780 + u16::from(b) - 0x80
            }
        })
        .collect();
    for k in available_levels() {
        for len in [0, 1, 63, 64, 65, 128, 191, 300] {
            for room in [0, 63, 64, len, len + 5] {
                let mut dst = alloc::vec![0xAAAAu16; room];
                let n = x_user_defined_to_utf16_with(k, &src[..len], slots(&mut dst));
                // Whole steps: 64 bytes (AVX-512), 32 (AVX2), 16 (SSE4, SSE2, NEON,
                // simd128); nothing at the scalar level.
                let step = match k.name() {
                    "avx512" => 64,
                    "avx2" => 32,
                    "sse4" | "sse2" => 16,
                    "neon" if cfg!(target_endian = "little") => 16,
                    "simd128" => 16,
                    _ => usize::MAX,
                };
                assert!(n <= len.min(room), "{k:?} {n}");
                assert_eq!(
                    n,
                    len.min(room) / step * step,
                    "{k:?} stopped early or late"
                );
                assert_eq!(&dst[..n], &want[..n], "{k:?} len {len}");
                assert!(dst[n..].iter().all(|&u| u == 0xAAAA), "{k:?} wrote past");
            }
        }
    }
}
