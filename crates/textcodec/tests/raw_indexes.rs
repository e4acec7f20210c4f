//! Optional: when the Standard's raw index files are beside the repository
//! (`../shared/spec/indexes`), parse them directly (#indexes: split on LF, drop empty and
//! `#` lines, split on TAB: decimal pointer, hexadecimal code point) and compare them with
//! the real decoders. Skipped, with a message, otherwise.

use std::path::{Path, PathBuf};

use textcodec::{decode_without_bom, EncodeErrorMode, Encoder, Encoding};

fn dir() -> Option<PathBuf> {
    // The workspace's parent by ancestors, not `..`: under WASI (scripts/wasi-run.mjs) a
    // path may not climb out of the directory it was opened from.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(3)?
        .join("shared/spec/indexes");
    dir.is_dir().then_some(dir)
}

fn parse(dir: &Path, name: &str) -> Vec<(u32, u32)> {
    let text = std::fs::read_to_string(dir.join(format!("index-{name}.txt"))).unwrap();
    text.split('\n')
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut fields = l.split('\t');
            let pointer = fields.next().unwrap().trim().parse().unwrap();
            let cp = fields.next().unwrap().trim();
            let cp = u32::from_str_radix(cp.trim_start_matches("0x"), 16).unwrap();
            (pointer, cp)
        })
        .collect()
}

fn one(encoding: Encoding, bytes: &[u8]) -> String {
    decode_without_bom(encoding, bytes).0.into_owned()
}

#[track_caller]
fn check(encoding: Encoding, bytes: &[u8], cp: u32) {
    let want = char::from_u32(cp).unwrap().to_string();
    assert_eq!(one(encoding, bytes), want, "{encoding:?} {bytes:02X?}");
}

#[test]
fn raw_index_files_match_the_decoders() {
    let Some(dir) = dir() else {
        eprintln!("skipped: ../shared/spec/indexes not found");
        return;
    };
    // Single-byte indexes: pointer p is byte 0x80 + p.
    let mut single = 0;
    for &encoding in Encoding::all().iter().filter(|e| e.is_single_byte()) {
        let name = match encoding {
            Encoding::Iso8859_8I => "iso-8859-8".to_string(),
            e => e.name().to_ascii_lowercase(),
        };
        let entries = parse(&dir, &name);
        for &(p, cp) in &entries {
            check(encoding, &[0x80 + p as u8], cp);
        }
        // Pointers not listed are errors.
        for p in 0..128u32 {
            if !entries.iter().any(|e| e.0 == p) {
                assert_eq!(one(encoding, &[0x80 + p as u8]), "\u{FFFD}");
            }
        }
        single += 1;
    }
    assert_eq!(single, 28);
    for (p, cp) in parse(&dir, "jis0208") {
        if p < 94 * 94 {
            check(
                Encoding::EucJp,
                &[(p / 94) as u8 + 0xA1, (p % 94) as u8 + 0xA1],
                cp,
            );
        }
        let lead = (p / 188) as u8;
        let trail = (p % 188) as u8;
        if !(8836..=10715).contains(&p) {
            check(
                Encoding::ShiftJis,
                &[
                    lead + if lead < 0x1F { 0x81 } else { 0xC1 },
                    trail + if trail < 0x3F { 0x40 } else { 0x41 },
                ],
                cp,
            );
        }
    }
    for (p, cp) in parse(&dir, "jis0212") {
        check(
            Encoding::EucJp,
            &[0x8F, (p / 94) as u8 + 0xA1, (p % 94) as u8 + 0xA1],
            cp,
        );
    }
    for (p, cp) in parse(&dir, "euc-kr") {
        check(
            Encoding::EucKr,
            &[(p / 190) as u8 + 0x81, (p % 190) as u8 + 0x41],
            cp,
        );
    }
    for (p, cp) in parse(&dir, "gb18030") {
        let trail = (p % 190) as u8;
        let bytes = [
            (p / 190) as u8 + 0x81,
            trail + if trail < 0x3F { 0x40 } else { 0x41 },
        ];
        check(Encoding::Gb18030, &bytes, cp);
        check(Encoding::Gbk, &bytes, cp);
    }
    for (p, cp) in parse(&dir, "big5") {
        if matches!(p, 1133 | 1135 | 1164 | 1166) {
            continue; // two code points (#big5-decoder step 3.6)
        }
        let trail = (p % 157) as u8;
        check(
            Encoding::Big5,
            &[
                (p / 157) as u8 + 0x81,
                trail + if trail < 0x3F { 0x40 } else { 0x62 },
            ],
            cp,
        );
    }
    // index gb18030 ranges: each range start decodes to its code point.
    let ranges = parse(&dir, "gb18030-ranges");
    assert!(ranges.len() > 200);
    for (p, cp) in ranges {
        let bytes = [
            (p / 12600) as u8 + 0x81,
            (p / 1260 % 10) as u8 + 0x30,
            (p / 10 % 126) as u8 + 0x81,
            (p % 10) as u8 + 0x30,
        ];
        let want = if p == 7457 { 0xE7C7 } else { cp };
        check(Encoding::Gb18030, &bytes, want);
    }
    // index ISO-2022-JP katakana: the halfwidth form encodes as the fullwidth one.
    for (p, cp) in parse(&dir, "iso-2022-jp-katakana") {
        let half = char::from_u32(0xFF61 + p).unwrap().to_string();
        let full = char::from_u32(cp).unwrap().to_string();
        let mut a = Vec::new();
        let mut b = Vec::new();
        let mut e = Encoder::new(Encoding::Iso2022Jp, EncodeErrorMode::Fatal).unwrap();
        let _ = e.encode_from_utf8_to_vec(&half, &mut a, true);
        let mut e = Encoder::new(Encoding::Iso2022Jp, EncodeErrorMode::Fatal).unwrap();
        let _ = e.encode_from_utf8_to_vec(&full, &mut b, true);
        assert_eq!(a, b);
        assert_eq!(one(Encoding::Iso2022Jp, &a), full);
    }
}
