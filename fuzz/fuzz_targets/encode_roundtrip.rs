//! Encode → decode is stable for the representable part, for every encoding with an encoder
//! (UTF-16BE/LE included, textcodec's extension), in html and replace modes, from `&str`
//! and from arbitrary `&[u16]` (lone surrogates become U+FFFD):
//! - streaming (random input chunks, pairs split across calls, random output buffers)
//!   equals one-shot, within `max_buffer_length_from_*`;
//! - for stateless encoders, the output is the concatenation of each character encoded
//!   alone (or its `&#N;` / `?`);
//! - the output decodes without any error, and re-encoding the decoded text gives the same
//!   bytes;
//! - a character encoded alone decodes back to itself, except the mappings the Standard
//!   makes one-way (listed in `one_way`).
#![no_main]

#[path = "common.rs"]
mod common;

use common::Rng;
use libfuzzer_sys::fuzz_target;
use textcodec::{
    BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, EncodeErrorMode,
    EncodeStatus, Encoder, Encoding,
};

/// Encoder mappings the Standard makes one-way: (encoding, character, what it decodes to).
fn one_way(encoding: Encoding, c: char, back: &str) -> bool {
    use Encoding::*;
    let jp = matches!(encoding, ShiftJis | EucJp | Iso2022Jp);
    match (c, back) {
        // #shift_jis-encoder and #euc-jp-encoder: "If code point is U+00A5, return byte
        // 0x5C. If code point is U+203E, return byte 0x7E." (ISO-2022-JP's Roman state
        // round-trips them.)
        ('\u{A5}', "\\") | ('\u{203E}', "~") => matches!(encoding, ShiftJis | EucJp),
        // #shift_jis-encoder, #euc-jp-encoder, #iso-2022-jp-encoder: "If code point is
        // U+2212, set it to U+FF0D."
        ('\u{2212}', "\u{FF0D}") => jp,
        // #iso-2022-jp-encoder: U+FF61..U+FF9F go through index ISO-2022-JP katakana to
        // full-width katakana in jis0208.
        ('\u{FF61}'..='\u{FF9F}', _) => encoding == Iso2022Jp,
        // #gb18030-encoder step 5: "This asymmetric encoder table preserves compatibility
        // with the GB18030-2005 standard": 18 Private Use code points encode to two bytes
        // that index gb18030 decodes to the GB18030-2022 code points.
        (
            '\u{E78D}'..='\u{E796}'
            | '\u{E81E}'
            | '\u{E826}'
            | '\u{E82B}'
            | '\u{E82C}'
            | '\u{E832}'
            | '\u{E843}'
            | '\u{E854}'
            | '\u{E864}',
            _,
        ) => matches!(encoding, Gb18030 | Gbk),
        _ => false,
    }
}

fn decode_fatal(encoding: Encoding, bytes: &[u8]) -> String {
    let mut d = Decoder::with_options(
        encoding,
        DecoderOptions {
            error_mode: DecodeErrorMode::Fatal,
            bom: BomHandling::Keep,
        },
    );
    let mut s = String::new();
    let r = d.decode_to_string(bytes, &mut s, true);
    assert_eq!(
        r.status,
        DecodeStatus::InputEmpty,
        "{encoding:?} encoder output {bytes:02X?} does not decode"
    );
    s
}

fn encode_str(encoding: Encoding, mode: EncodeErrorMode, text: &str) -> Vec<u8> {
    let mut e = Encoder::new(encoding, mode).expect("has an encoder");
    let mut out = Vec::new();
    let r = e.encode_from_utf8_to_vec(text, &mut out, true);
    assert_eq!((r.status, r.read), (EncodeStatus::InputEmpty, text.len()));
    out
}

fuzz_target!(|data: &[u8]| {
    let [enc, flags, seed, rest @ ..] = data else {
        return;
    };
    let encoding = common::encoding(*enc);
    let mode = if flags & 1 == 0 {
        EncodeErrorMode::Html
    } else {
        EncodeErrorMode::Replace
    };
    let Some(fresh) = Encoder::new(encoding, mode) else {
        assert_eq!(encoding, Encoding::Replacement);
        return;
    };
    let from_utf16 = flags & 2 != 0;
    let mut rng = Rng::new(&[*enc, *flags, *seed]);
    let max_chunk = [1, 5, 32, 200][usize::from(flags >> 2) & 3];
    let max_buf = [4, 12, 40, 400][usize::from(flags >> 4) & 3];

    let units: Vec<u16> = if from_utf16 {
        common::units(rest)
    } else {
        Vec::new()
    };
    let text: String = if from_utf16 {
        String::from_utf16_lossy(&units)
    } else {
        common::text(rest)
    };
    let input_len = if from_utf16 { units.len() } else { text.len() };

    // One shot, within the documented worst case.
    let mut e = fresh.clone();
    let max = if from_utf16 {
        e.max_buffer_length_from_utf16(input_len)
    } else {
        e.max_buffer_length_from_utf8(input_len)
    }
    .expect("small input");
    let mut buf = vec![0u8; max];
    let r = if from_utf16 {
        e.encode_from_utf16(&units, &mut buf, true)
    } else {
        e.encode_from_utf8(&text, &mut buf, true)
    };
    assert_eq!((r.status, r.read), (EncodeStatus::InputEmpty, input_len));
    let bytes = buf[..r.written].to_vec();
    assert_eq!(bytes, encode_str(encoding, mode, &text));

    // Streaming.
    let mut e = fresh.clone();
    let mut out = Vec::new();
    let mut pos = 0;
    let mut scratch = vec![0u8; max_buf + 16];
    loop {
        let mut n = rng.upto(max_chunk).min(input_len - pos);
        if !from_utf16 {
            while !text.is_char_boundary(pos + n) {
                n += 1;
            }
        }
        let last = pos + n == input_len && rng.upto(2) == 0;
        let (mut a, b) = (pos, pos + n);
        pos = b;
        let mut size = rng.upto(max_buf);
        loop {
            if scratch.len() < size {
                scratch.resize(size, 0);
            }
            let r = if from_utf16 {
                e.encode_from_utf16(&units[a..b], &mut scratch[..size], last)
            } else {
                e.encode_from_utf8(&text[a..b], &mut scratch[..size], last)
            };
            out.extend_from_slice(&scratch[..r.written]);
            a += r.read;
            match r.status {
                EncodeStatus::InputEmpty => {
                    assert_eq!(a, b);
                    break;
                }
                EncodeStatus::OutputFull => {
                    size = if r.read == 0 && r.written == 0 {
                        size + 1
                    } else {
                        rng.upto(max_buf)
                    };
                }
                EncodeStatus::Unmappable(_) => panic!("Unmappable in {mode:?} mode"),
            }
        }
        if last {
            break;
        }
    }
    assert_eq!(out, bytes, "{encoding:?} streaming");

    // Stateless encoders: each character on its own.
    if encoding != Encoding::Iso2022Jp {
        let mut model = Vec::new();
        let mut tmp = [0u8; 4];
        for c in text.chars() {
            model.extend_from_slice(&encode_str(encoding, mode, c.encode_utf8(&mut tmp)));
        }
        assert_eq!(model, bytes, "{encoding:?} per-character model");
    }

    // Decodes without error; stable under a second round.
    let decoded = decode_fatal(encoding, &bytes);
    assert_eq!(
        encode_str(encoding, mode, &decoded),
        bytes,
        "{encoding:?} not stable"
    );

    // The representable characters come back, except the one-way mappings.
    let mut tmp = [0u8; 4];
    for c in text.chars() {
        let mut e = Encoder::new(encoding, EncodeErrorMode::Fatal).expect("has an encoder");
        let mut alone = Vec::new();
        let r = e.encode_from_utf8_to_vec(c.encode_utf8(&mut tmp), &mut alone, true);
        if let EncodeStatus::Unmappable(u) = r.status {
            assert_eq!(u.character(), c);
            continue;
        }
        let back = decode_fatal(encoding, &alone);
        let mut tmp2 = [0u8; 4];
        assert!(
            back == *c.encode_utf8(&mut tmp2) || one_way(encoding, c, &back),
            "{encoding:?}: U+{:04X} encodes to {alone:02X?}, decodes to {back:?}",
            u32::from(c)
        );
    }
});
