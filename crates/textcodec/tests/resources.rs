//! Bounded resources (SECURITY.md, "Resource bounds"): decoder and encoder state is a small
//! constant; the worst-case length functions use checked arithmetic and say `None` for
//! sizes that cannot exist; `decode_to_string` / `decode_to_utf16_vec` never allocate more
//! than the documented worst case, whatever the input.

use textcodec::{Decoder, EncodeErrorMode, Encoder, Encoding};

/// The sizes SECURITY.md documents (x86-64). All state is inline: no decoder or encoder
/// allocates per stream, and none keeps more than four restored bytes and an eight-byte
/// error sequence. Shrinking is fine; growing must update SECURITY.md.
#[test]
#[cfg(target_pointer_width = "64")]
fn coder_state_is_small_and_constant() {
    use std::mem::size_of;
    use textcodec::api::{TextDecoder, TextDecoderStream, TextEncoderStream};
    use textcodec::MalformedSequence;

    assert!(
        size_of::<Decoder>() <= 72,
        "Decoder: {}",
        size_of::<Decoder>()
    );
    assert!(
        size_of::<Encoder>() <= 48,
        "Encoder: {}",
        size_of::<Encoder>()
    );
    assert!(size_of::<MalformedSequence>() <= 24);
    // TextDecoder/TextDecoderStream: a Decoder plus the I/O queue's unread bytes after a
    // fatal error (a Vec, at most the caller's own chunk) and flags.
    assert!(
        size_of::<TextDecoder>() <= 112,
        "{}",
        size_of::<TextDecoder>()
    );
    assert!(size_of::<TextDecoderStream>() <= 104);
    assert!(size_of::<TextEncoderStream>() <= 4);
}

#[test]
fn worst_case_lengths_are_checked() {
    for &encoding in Encoding::all() {
        let d = Decoder::new(encoding);
        assert_eq!(d.max_utf8_buffer_length(usize::MAX), None, "{encoding:?}");
        assert_eq!(d.max_utf8_buffer_length(usize::MAX / 3 + 1), None);
        assert_eq!(
            d.max_utf8_buffer_length(usize::MAX / 3),
            Some(usize::MAX / 3 * 3)
        );
        assert_eq!(d.max_utf16_buffer_length(usize::MAX), Some(usize::MAX));
        // Bytes pending from an earlier call count: a half BOM (2 bytes) and a lead byte.
        let mut d = Decoder::new(encoding);
        let mut out = [0u8; 16];
        let _ = d.decode_to_utf8(b"\xEF\xBB", &mut out, false);
        assert_eq!(d.max_utf16_buffer_length(usize::MAX), None, "{encoding:?}");
        assert_eq!(
            d.max_utf8_buffer_length(usize::MAX / 3),
            None,
            "{encoding:?}"
        );
        if let Some(e) = Encoder::new(encoding, EncodeErrorMode::Html) {
            // One byte out per byte in (UTF-8, and single-byte encoders' ASCII) reaches
            // exactly usize::MAX; anything more must overflow to None.
            match e.max_buffer_length_from_utf8(usize::MAX) {
                None | Some(usize::MAX) => {}
                other => panic!("{encoding:?}: {other:?}"),
            }
            assert_eq!(
                e.max_buffer_length_from_utf16(usize::MAX),
                None,
                "{encoding:?}"
            );
        }
        if let Some(mut e) = Encoder::new(encoding, EncodeErrorMode::Fatal) {
            // A leading surrogate held back counts as one more unit.
            let mut out = [0u8; 16];
            let _ = e.encode_from_utf16(&[0xD83D], &mut out, false);
            assert!(e.max_buffer_length_from_utf16(usize::MAX - 1).is_none());
        }
    }
}

/// Inputs that maximise output or errors for some encoding, plus pseudo-random bytes.
fn hostile_inputs() -> Vec<Vec<u8>> {
    let n = 1 << 16;
    let mut v = vec![
        vec![0xFF; n],
        vec![0x80; n],
        vec![0x81; n],
        vec![0x8E; n],
        vec![0x1B; n],
        b"\x1b$B".repeat(n / 3),
        b"\x1b(B".repeat(n / 3),
        b"\x88\x62".repeat(n / 2),
        b"\x81\x30\x81".repeat(n / 3),
        b"\x00\xD8".repeat(n / 2),
        b"\xEF\xBB\xBF\xE2\x82".repeat(n / 5),
        b"\xF0\x9F\x98".repeat(n / 3),
    ];
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    for len in [1, 7, 100, 4096, n] {
        let mut bytes = Vec::with_capacity(len);
        for _ in 0..len {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            bytes.push((s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8);
        }
        v.push(bytes);
    }
    v
}

/// `decode_to_string` into an empty `String` never reserves more than twice the worst case
/// `max_utf8_buffer_length(n)` plus 64 bytes (the worst case itself when it reserves at
/// once; geometric growth when it appends in steps), and `decode_to_utf16_vec` likewise in
/// units: no input makes the library allocate beyond the documented bound (SECURITY.md).
#[test]
fn decode_to_string_capacity_is_bounded_by_the_worst_case() {
    for &encoding in Encoding::all() {
        for input in hostile_inputs() {
            let mut d = Decoder::new(encoding);
            let max = d.max_utf8_buffer_length(input.len()).unwrap();
            let mut s = String::new();
            let r = d.decode_to_string(&input, &mut s, true);
            assert_eq!(r.read, input.len());
            assert!(s.len() <= max);
            assert!(
                s.capacity() <= 2 * max + 64,
                "{encoding:?}: {} bytes in, {} out, capacity {} > 2 × {max} + 64",
                input.len(),
                s.len(),
                s.capacity()
            );
            let mut d = Decoder::new(encoding);
            let max = d.max_utf16_buffer_length(input.len()).unwrap();
            let mut v = Vec::new();
            let _ = d.decode_to_utf16_vec(&input, &mut v, true);
            assert!(v.len() <= max);
            assert!(
                v.capacity() <= 2 * max + 64,
                "{encoding:?}: {}",
                v.capacity()
            );
            // Streaming in small chunks grows the string no faster than the output.
            let mut d = Decoder::new(encoding);
            let mut s = String::new();
            for chunk in input.chunks(1000) {
                let _ = d.decode_to_string(chunk, &mut s, false);
            }
            let _ = d.decode_to_string(b"", &mut s, true);
            assert!(
                s.capacity() <= 2 * s.len().max(1000 * 3) + 64,
                "{encoding:?} chunked"
            );
        }
    }
}
