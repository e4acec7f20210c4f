//! The decoder's output paths agree: `decode_to_string` (which appends the valid UTF-8
//! prefix of a UTF-8 stream directly) gives the same text, `read`, status and position as
//! `decode_to_utf8` into a buffer, for every BOM handling and error mode, with the input
//! split anywhere into up to three chunks.

use textcodec::{BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, Encoding};

/// Each chunk's (status, read) and the final text and position.
type Outcome = (Vec<(DecodeStatus, usize)>, String, u64);

fn through_string(d: &mut Decoder, chunks: &[&[u8]]) -> Outcome {
    let mut text = String::new();
    let mut steps = Vec::new();
    for (i, chunk) in chunks.iter().enumerate() {
        let before = text.len();
        let r = d.decode_to_string(chunk, &mut text, i + 1 == chunks.len());
        assert_eq!(r.written, text.len() - before);
        steps.push((r.status, r.read));
    }
    (steps, text, d.position())
}

fn through_buffer(d: &mut Decoder, chunks: &[&[u8]]) -> Outcome {
    let mut out = Vec::new();
    let mut steps = Vec::new();
    for (i, chunk) in chunks.iter().enumerate() {
        let mut buf = vec![0u8; 3 * chunk.len() + 16];
        let r = d.decode_to_utf8(chunk, &mut buf, i + 1 == chunks.len());
        out.extend_from_slice(&buf[..r.written]);
        steps.push((r.status, r.read));
    }
    (steps, String::from_utf8(out).unwrap(), d.position())
}

#[test]
fn string_and_buffer_outputs_agree_for_utf8_streams() {
    let long: Vec<u8> = "\u{FEFF}日本語 text, ü ".repeat(40).into_bytes();
    let inputs: [&[u8]; 9] = [
        b"\xEF\xBB\xBFabc\xC3\xA9",
        b"\xEF\xBC\x81xyz",
        b"abc\xEF\xBB\xBFdef",
        b"\xFE\xFFa\x00b\x00",
        b"\xFF\xFEa\x00b\x00",
        b"a\xFFb\xE3\x81",
        b"\xE6\x97\xA5\xE6\x9C\xAC",
        b"\xEF\xBB",
        &long,
    ];
    let boms = [BomHandling::Keep, BomHandling::Sniff, BomHandling::Remove];
    let modes = [DecodeErrorMode::Replacement, DecodeErrorMode::Fatal];
    for input in inputs {
        // Every split into two chunks, and into three for the short inputs.
        let mut splits = Vec::new();
        for a in 0..=input.len() {
            splits.push(vec![a]);
            if input.len() <= 12 {
                for b in a..=input.len() {
                    splits.push(vec![a, b]);
                }
            }
        }
        for bom in boms {
            for error_mode in modes {
                let options = DecoderOptions { error_mode, bom };
                for cuts in &splits {
                    let mut chunks = Vec::new();
                    let mut start = 0;
                    for &cut in cuts.iter().chain([&input.len()]) {
                        chunks.push(&input[start..cut]);
                        start = cut;
                    }
                    let mut a = Decoder::with_options(Encoding::Utf8, options);
                    let mut b = Decoder::with_options(Encoding::Utf8, options);
                    let (sa, sb) = (
                        through_string(&mut a, &chunks),
                        through_buffer(&mut b, &chunks),
                    );
                    assert_eq!(sa, sb, "{input:02X?} {cuts:?} {options:?}");
                    assert_eq!(a.encoding(), b.encoding());
                }
            }
        }
    }
}

/// The UTF-16 encoders (textcodec's extension) from UTF-8 give `str::encode_utf16`'s units
/// in their byte order, into output buffers of every size that holds a character (four
/// bytes; one that ends inside a unit or between a surrogate pair's two units included),
/// with the input split anywhere.
#[test]
fn utf16_encoders_from_utf8_match_encode_utf16_in_every_buffer_size() {
    use textcodec::{EncodeErrorMode, EncodeStatus, Encoder};
    let text = "ASCII, é ж € 日本語 😀𐐷 and more ASCII to fill a few blocks; ".repeat(30);
    for encoding in [Encoding::Utf16Le, Encoding::Utf16Be] {
        let want: Vec<u8> = text
            .encode_utf16()
            .flat_map(|u| match encoding {
                Encoding::Utf16Le => u.to_le_bytes(),
                _ => u.to_be_bytes(),
            })
            .collect();
        for out_size in (4..40).chain([511, 1023, 1024, 1025, 4096]) {
            for split in [0, 1, 7, text.len() / 3] {
                let split = (split..=text.len())
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap();
                let mut e = Encoder::new(encoding, EncodeErrorMode::Fatal).unwrap();
                let mut got = Vec::new();
                let mut buf = vec![0u8; out_size];
                for (part, last) in [(&text[..split], false), (&text[split..], true)] {
                    let mut rest = part;
                    loop {
                        let r = e.encode_from_utf8(rest, &mut buf, last);
                        got.extend_from_slice(&buf[..r.written]);
                        rest = &rest[r.read..];
                        if r.status == EncodeStatus::InputEmpty {
                            break;
                        }
                        assert_eq!(r.status, EncodeStatus::OutputFull, "{encoding:?}");
                        assert!(r.read + r.written > 0, "no progress");
                    }
                }
                assert_eq!(got, want, "{encoding:?} buffer {out_size} split {split}");
            }
        }
    }
}
