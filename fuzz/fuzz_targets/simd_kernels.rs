//! Every SIMD kernel this CPU supports against its scalar twin (and the scalar twins
//! against `core`; the byte-map and double-byte kernels, which have no twin, against the
//! indexes), through the `fuzzing` feature's hooks (`textcodec::__fuzz`): same
//! return values, same output, nothing written past what is reported, for random input
//! alignments and destination sizes.
//!
//! Input: [mode, shift, room, data…]. `mode` picks a shaping of `data` so that long runs of
//! ASCII and of valid multi-byte UTF-8/UTF-16 (what the vector paths handle) are common.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use textcodec::__fuzz::{self as k, KernelChoice};

/// Fills `dst` with a sentinel, runs `f`, and checks nothing past `written` changed —
/// for byte outputs. UTF-8 sinks rely on that ("the kernels write whole characters only,
/// and nothing past what they report as written", sink/bulk.rs). For `u16` outputs the
/// vector kernels may use the rest of `dst` as scratch (the AVX-512 UTF-8 → UTF-16 kernel
/// stores whole 32-unit windows, in bounds): only `dst[..written]` is compared.
fn run<T: Copy + PartialEq + std::fmt::Debug, R>(
    what: &str,
    dst_len: usize,
    sentinel: T,
    f: impl FnOnce(&mut [T]) -> (R, usize),
) -> (R, Vec<T>) {
    let mut dst = vec![sentinel; dst_len];
    let (r, written) = f(&mut dst);
    assert!(written <= dst_len);
    assert!(
        std::mem::size_of::<T>() != 1 || dst[written..].iter().all(|&x| x == sentinel),
        "{what} wrote past the end: {:?}",
        &dst[written..]
    );
    dst.truncate(written);
    (r, dst)
}

fn check(kernel: KernelChoice, scalar: KernelChoice, bytes: &[u8], units: &[u16], room: usize) {
    let name = kernel.name();
    let ascii = k::ascii_prefix_len(scalar, bytes);
    assert_eq!(ascii, bytes.iter().take_while(|b| b.is_ascii()).count());
    assert_eq!(
        k::ascii_prefix_len(kernel, bytes),
        ascii,
        "{name} ascii_prefix_len"
    );

    let copy = |kc: KernelChoice| {
        run(&format!("{} copy_ascii", kc.name()), room, 0xEEu8, |d| {
            let n = k::copy_ascii(kc, bytes, d);
            (n, n)
        })
    };
    let want = copy(scalar);
    assert_eq!(want.0, ascii.min(room));
    assert_eq!(copy(kernel), want, "{name} copy_ascii");

    let widen = |kc: KernelChoice| {
        run(
            &format!("{} widen_ascii", kc.name()),
            room,
            0xEEEEu16,
            |d| {
                let n = k::widen_ascii(kc, bytes, d);
                (n, n)
            },
        )
    };
    let want = widen(scalar);
    assert_eq!(want.0, ascii.min(room));
    assert_eq!(widen(kernel), want, "{name} widen_ascii");

    let narrow = |kc: KernelChoice| {
        run(
            &format!("{} narrow_basic_latin", kc.name()),
            room,
            0xEEu8,
            |d| {
                let n = k::narrow_basic_latin(kc, units, d);
                (n, n)
            },
        )
    };
    let want = narrow(scalar);
    assert_eq!(
        want.0,
        units.iter().take_while(|&&u| u < 0x80).count().min(room)
    );
    assert_eq!(narrow(kernel), want, "{name} narrow_basic_latin");

    let valid = k::utf8_valid_prefix_len(scalar, bytes);
    let std_valid = match std::str::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(e) => e.valid_up_to(),
    };
    assert_eq!(valid, std_valid);
    assert_eq!(
        k::utf8_valid_prefix_len(kernel, bytes),
        valid,
        "{name} utf8 valid_prefix_len"
    );

    // The one-pass kernels: a valid prefix (the scalar/SSE2 pass: exactly up to the first
    // error when there is room), converted exactly.
    for kc in [scalar, kernel] {
        let (read, units) = run(
            &format!("{} utf8_validate_to_utf16", kc.name()),
            room,
            0xEEEEu16,
            |d| k::utf8_validate_to_utf16(kc, bytes, d),
        );
        assert!(
            read <= valid,
            "{} validate_to_utf16 read past the valid prefix",
            kc.name()
        );
        let model: Vec<u16> = std::str::from_utf8(&bytes[..read])
            .expect("a valid prefix")
            .encode_utf16()
            .collect();
        assert_eq!(units, model, "{} validate_to_utf16", kc.name());
        if kc.is_scalar() && room >= 2 * bytes.len() {
            assert_eq!(read, valid, "scalar validate_to_utf16 stopped early");
        }
    }

    let text = std::str::from_utf8(&bytes[..valid]).expect("valid prefix");
    let to16 = |kc: KernelChoice| {
        run(
            &format!("{} utf8_to_utf16", kc.name()),
            room,
            0xEEEEu16,
            |d| {
                let (r, w) = k::utf8_to_utf16(kc, text, d);
                (r, w)
            },
        )
    };
    let want = to16(scalar);
    assert!(text.is_char_boundary(want.0));
    let model: Vec<u16> = text[..want.0].encode_utf16().collect();
    assert_eq!(want.1, model);
    assert_eq!(to16(kernel), want, "{name} utf8 to_utf16");

    for big_endian in [false, true] {
        let to8 = |kc: KernelChoice| {
            run(
                &format!("{} utf16_bytes_to_utf8", kc.name()),
                room,
                0xEEu8,
                |d| k::utf16_bytes_to_utf8(kc, bytes, big_endian, d),
            )
        };
        let want = to8(scalar);
        assert_eq!(want.0 % 2, 0);
        assert!(std::str::from_utf8(&want.1).is_ok());
        assert_eq!(
            to8(kernel),
            want,
            "{name} utf16 bytes_to_utf8 (BE {big_endian})"
        );

        let tounits = |kc: KernelChoice| {
            run(
                &format!("{} utf16_bytes_to_units", kc.name()),
                room,
                0xEEEEu16,
                |d| k::utf16_bytes_to_units(kc, bytes, big_endian, d),
            )
        };
        let want = tounits(scalar);
        assert_eq!(want.0, want.1.len() * 2);
        assert!(String::from_utf16(&want.1).is_ok());
        assert_eq!(
            tounits(kernel),
            want,
            "{name} utf16 bytes_to_units (BE {big_endian})"
        );
    }
}

/// The byte-map kernels (single-byte and x-user-defined; a level without a kernel for one
/// takes nothing) against the index, byte by byte: whatever prefix a kernel takes must be exactly
/// the index's mapping, with nothing written past what it reports (UTF-8, bytes).
fn check_byte_map(kernel: KernelChoice, raw: &[u8], selector: usize, room: usize) {
    const SINGLE_BYTE: [&str; 8] = [
        "windows-1252",
        "windows-1251",
        "iso-8859-2",
        "koi8-r",
        "windows-874",
        "ibm866",
        "macintosh",
        "windows-1255",
    ];
    let name = kernel.name();
    let encoding = textcodec::Encoding::for_label_str(SINGLE_BYTE[selector % SINGLE_BYTE.len()])
        .expect("a single-byte label");
    let table = k::single_byte_table(encoding).expect("a single-byte encoding");
    let mapped = |b: u8| {
        if b < 0x80 {
            Some(u16::from(b))
        } else {
            Some(table[usize::from(b)]).filter(|&u| u != 0)
        }
    };

    // Decode to UTF-16.
    let mut wide = vec![0xAAAAu16; room];
    let n = k::byte_map_to_utf16(kernel, encoding, raw, &mut wide);
    assert!(
        n <= raw.len().min(room),
        "{name} byte_map_to_utf16 read {n}"
    );
    for (i, &b) in raw[..n].iter().enumerate() {
        assert_eq!(Some(wide[i]), mapped(b), "{name} byte_map_to_utf16 at {i}");
    }
    // Decode to UTF-8.
    let (read, out) = run(&format!("{name} byte_map_to_utf8"), room, 0xEEu8, |d| {
        k::byte_map_to_utf8(kernel, encoding, raw, d)
    });
    let want: String = raw[..read]
        .iter()
        .map(|&b| char::from_u32(u32::from(mapped(b).expect("taken bytes map"))).unwrap())
        .collect();
    assert_eq!(out, want.as_bytes(), "{name} byte_map_to_utf8");

    // Encode: text made of the encoding's characters, with some it lacks.
    let text: String = raw
        .iter()
        .map(|&b| match mapped(b) {
            Some(u) => char::from_u32(u32::from(u)).unwrap(),
            None => ['日', '😀', '\u{2030}', '\u{100}'][usize::from(b) % 4],
        })
        .collect();
    let (read, out) = run(&format!("{name} byte_map_encode"), room, 0xEEu8, |d| {
        k::byte_map_encode(kernel, encoding, &text, d)
    });
    assert!(
        text.is_char_boundary(read),
        "{name} byte_map_encode read {read}"
    );
    let want: Vec<u8> = text[..read]
        .chars()
        .map(|c| {
            (0..=255u8)
                .find(|&b| mapped(b).map(u32::from) == Some(u32::from(c)))
                .expect("taken characters are encodable")
        })
        .collect();
    assert_eq!(out, want, "{name} byte_map_encode");

    // x-user-defined, both ways.
    let mut wide = vec![0xAAAAu16; room];
    let n = k::x_user_defined_to_utf16(kernel, raw, &mut wide);
    assert!(n <= raw.len().min(room));
    for (i, &b) in raw[..n].iter().enumerate() {
        let want = if b < 0x80 {
            u16::from(b)
        } else {
            0xF780 + u16::from(b) - 0x80
        };
        assert_eq!(wide[i], want, "{name} x_user_defined_to_utf16 at {i}");
    }
    let text: String = raw
        .iter()
        .map(|&b| match b {
            0..=0x7F => char::from(b),
            0xF0..=0xF3 => ['é', '日', '😀', '\u{F800}'][usize::from(b & 3)],
            _ => char::from_u32(0xF780 + u32::from(b) - 0x80).unwrap(),
        })
        .collect();
    let (read, out) = run(
        &format!("{name} x_user_defined_encode"),
        room,
        0xEEu8,
        |d| k::x_user_defined_encode(kernel, &text, d),
    );
    assert!(text.is_char_boundary(read));
    let want: Vec<u8> = text[..read]
        .chars()
        .map(|c| match u32::from(c) {
            cp @ 0..=0x7F => cp as u8,
            cp @ 0xF780..=0xF7FF => (cp - 0xF780 + 0x80) as u8,
            cp => panic!("{name} x_user_defined_encode took U+{cp:04X}"),
        })
        .collect();
    assert_eq!(out, want, "{name} x_user_defined_encode");
}

/// The double-byte kernel (CJK pairs; no scalar twin either) against the pair tables:
/// whatever prefix it takes must be ASCII and valid pairs, decoded exactly, ending on a
/// character boundary, with nothing written past what it reports (UTF-8). `raw` is turned
/// into CJK-like text: valid pairs of the table, ASCII, and now and then a stray byte.
fn check_double_byte(kernel: KernelChoice, raw: &[u8], selector: usize, room: usize) {
    static PAIRS: std::sync::OnceLock<Vec<Vec<[u8; 2]>>> = std::sync::OnceLock::new();
    let table = selector % 5;
    let pairs = &PAIRS.get_or_init(|| {
        (0..5)
            .map(|t| {
                (0x80..=0xFFu8)
                    .flat_map(|l| (0..=0xFFu8).map(move |r| [l, r]))
                    .filter(|&[l, r]| k::pair_code_point(t, l, r) != 0)
                    .collect()
            })
            .collect()
    })[table];
    let mut src = Vec::new();
    for w in raw.chunks(2) {
        let x = usize::from(w[0]) << 8 | usize::from(*w.get(1).unwrap_or(&0));
        match w[0] {
            0..=0x3F => src.push(w[0] | 0x20),
            0x40..=0x4F => src.extend_from_slice(b"%(name)s "),
            0xFF => src.push(*w.get(1).unwrap_or(&0x80)),
            _ => src.extend_from_slice(&pairs[x % pairs.len()]),
        }
    }
    let name = kernel.name();
    // The naive decoding of the taken prefix; `None` if it is not all ASCII and pairs.
    let naive = |taken: &[u8]| -> Option<Vec<u16>> {
        let (mut i, mut out) = (0, Vec::new());
        while i < taken.len() {
            if taken[i] < 0x80 {
                out.push(u16::from(taken[i]));
                i += 1;
            } else {
                let c = k::pair_code_point(table, taken[i], *taken.get(i + 1)?);
                (c != 0).then_some(())?;
                out.push(c);
                i += 2;
            }
        }
        Some(out)
    };
    let mut wide = vec![0xAAAAu16; room];
    let (read, written) = k::double_byte_to_utf16(kernel, table, &src, &mut wide);
    assert!(
        read <= src.len() && written <= room,
        "{name} double_byte_to_utf16"
    );
    let want = naive(&src[..read]).expect("the taken prefix is ASCII and pairs");
    assert_eq!(&wide[..written], &want[..], "{name} double_byte_to_utf16");
    let (read, out) = run(&format!("{name} double_byte_to_utf8"), room, 0xEEu8, |d| {
        k::double_byte_to_utf8(kernel, table, &src, d)
    });
    let want = naive(&src[..read]).expect("the taken prefix is ASCII and pairs");
    assert_eq!(
        out,
        String::from_utf16(&want)
            .expect("BMP, no surrogates")
            .as_bytes(),
        "{name} double_byte_to_utf8"
    );
}

fuzz_target!(|data: &[u8]| {
    let [mode, shift, room, raw @ ..] = data else {
        return;
    };
    let shaped: Vec<u8> = match mode % 4 {
        0 => raw.to_vec(),
        // Mostly ASCII, with non-ASCII where the input byte is large.
        1 => raw
            .iter()
            .map(|&b| if b >= 0xF8 { b } else { b & 0x7F })
            .collect(),
        // Valid UTF-8 text with every sequence length, plus a corrupted byte sometimes.
        2 => {
            let mut v = common::text(raw).into_bytes();
            if let (Some(&last), false) = (raw.last(), v.is_empty()) {
                if last & 0x80 != 0 {
                    let at = usize::from(last) * 7 % v.len();
                    v[at] ^= 0x40;
                }
            }
            v
        }
        // UTF-16 (little-endian) of text, sometimes with a lone surrogate.
        _ => {
            let mut u: Vec<u16> = common::text(raw).encode_utf16().collect();
            if let (Some(&last), false) = (raw.last(), u.is_empty()) {
                if last & 0x80 != 0 {
                    let at = usize::from(last) * 7 % u.len();
                    u[at] = 0xD800 | u16::from(last);
                }
            }
            let be = mode & 4 != 0;
            u.iter()
                .flat_map(|x| if be { x.to_be_bytes() } else { x.to_le_bytes() })
                .collect()
        }
    };
    // Misalign the input by up to 63 bytes.
    let skip = usize::from(shift % 64);
    let mut buf = vec![0u8; skip];
    buf.extend_from_slice(&shaped);
    let bytes = &buf[skip..];
    let units: Vec<u16> = if mode & 8 == 0 {
        common::units(bytes)
    } else {
        bytes.iter().map(|&b| u16::from(b)).collect()
    };
    let units = &units[usize::from(shift % 2).min(units.len())..];
    let room = match room % 4 {
        0 => usize::from(*room),
        1 => bytes.len(),
        _ => bytes.len() * 3 + 4,
    };
    let kernels = k::kernels();
    let scalar = kernels[0];
    assert!(scalar.is_scalar());
    for &kernel in &kernels[1..] {
        check(kernel, scalar, bytes, units, room);
    }
    for &kernel in &kernels {
        check_byte_map(kernel, bytes, usize::from(*mode >> 4), room);
        check_double_byte(
            kernel,
            raw,
            usize::from(*mode >> 4),
            room.max(raw.len() * 2),
        );
    }
    if kernels.len() == 1 {
        check(scalar, scalar, bytes, units, room);
    }
});
