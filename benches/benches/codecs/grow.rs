//! The `grow` section: the growing APIs against the same conversion into a pre-sized
//! buffer.

use super::*;

/// The growing APIs (`decode_to_string`, `decode_to_utf16_vec`, `encode_from_utf8_to_vec`)
/// against the same conversion into a buffer sized up front, on one input per family.
/// Both reuse their output across iterations (the `String`/`Vec` is cleared, not freed),
/// so the difference is what growing costs: sizing, chunking and initialising the space.
pub(crate) fn bench_grow(cases: &[Case], timing: Timing, out: &mut String) {
    const PICKS: &[(&str, &str)] = &[
        ("UTF-16LE", "ru.text"),
        ("UTF-16LE", "ja.text"),
        ("UTF-16LE", "en.text"),
        ("UTF-8", "ja.text"),
        ("UTF-8", "fr.text"),
        ("windows-1251", "ru.text"),
        ("windows-1252", "fr.text"),
        ("Shift_JIS", "ja.text"),
        ("EUC-KR", "ko.text"),
        ("gb18030", "zh_Hans.text"),
    ];
    let _ = writeln!(out, "\n## Growing APIs against a pre-sized buffer\n");
    let _ = writeln!(
        out,
        "MB/s of input. \"grown\": `decode_to_string` / `decode_to_utf16_vec` / \
         `encode_from_utf8_to_vec` appending to a cleared, reused `String`/`Vec`; \
         \"pre-sized\": `decode_to_utf8` / `decode_to_utf16` / `encode_from_utf8` into a \
         buffer allocated once with room for the worst case.\n"
    );
    let _ = writeln!(
        out,
        "| operation | encoding | input | grown MB/s | pre-sized MB/s | grown / pre-sized |"
    );
    let _ = writeln!(out, "|---|---|---|--:|--:|--:|");
    for &(name, input) in PICKS {
        let Some(case) = cases
            .iter()
            .find(|c| c.encoding.name() == name && c.input == input)
        else {
            continue;
        };
        eprintln!("grow {input} {name}");
        let e = case.encoding;
        let src = &case.bytes[..];
        let text = &case.text[..];
        let mut string = String::new();
        let mut presized8 = vec![0u8; src.len() * 3 + 64];
        let mut vec16 = Vec::new();
        let mut presized16 = vec![0u16; src.len() + 64];
        let mut vec8 = Vec::new();
        let mut presized_enc = vec![0u8; text.len() * 11 + 64];
        let mut ops: Vec<(&str, usize, [Peer<'_>; 2])> = vec![
            (
                "decode → UTF-8",
                src.len(),
                [
                    Peer::new("grown", move || {
                        string.clear();
                        let _ = decoder(e).decode_to_string(black_box(src), &mut string, true);
                        string.len()
                    }),
                    Peer::new("pre-sized", move || {
                        decoder(e)
                            .decode_to_utf8(black_box(src), &mut presized8, true)
                            .written
                    }),
                ],
            ),
            (
                "decode → UTF-16",
                src.len(),
                [
                    Peer::new("grown", move || {
                        vec16.clear();
                        let _ = decoder(e).decode_to_utf16_vec(black_box(src), &mut vec16, true);
                        vec16.len()
                    }),
                    Peer::new("pre-sized", move || {
                        decoder(e)
                            .decode_to_utf16(black_box(src), &mut presized16, true)
                            .written
                    }),
                ],
            ),
        ];
        if !e.is_utf16() && e != Encoding::Utf8 {
            ops.push((
                "encode from UTF-8",
                text.len(),
                [
                    Peer::new("grown", move || {
                        vec8.clear();
                        let mut enc = Encoder::new(e, EncodeErrorMode::Html).expect("encoder");
                        let _ = enc.encode_from_utf8_to_vec(black_box(text), &mut vec8, true);
                        vec8.len()
                    }),
                    Peer::new("pre-sized", move || {
                        let mut enc = Encoder::new(e, EncodeErrorMode::Html).expect("encoder");
                        enc.encode_from_utf8(black_box(text), &mut presized_enc, true)
                            .written
                    }),
                ],
            ));
        }
        for (op, bytes, mut peers) in ops {
            let r = measure(&mut peers, bytes, timing);
            let _ = writeln!(
                out,
                "| {op} | {name} | {input} | {} | {} | {} |",
                fmt_rate(r[0]),
                fmt_rate(r[1]),
                fmt_ratio(r[0] / r[1], Some(0.97)),
            );
        }
    }
}
