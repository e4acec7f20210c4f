//! Every SIMD kernel this CPU supports against its scalar twin (and the scalar twins
//! against `core`), through the `fuzzing` feature's hooks (`textcodec::__fuzz`): same
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
/// and nothing past what they report as written", simd/sink.rs). For `u16` outputs the
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
    if kernels.len() == 1 {
        check(scalar, scalar, bytes, units, room);
    }
});
