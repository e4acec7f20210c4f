//! Integration tests of statistical detection in the CLI: `textcodec detect`, and the
//! detection step of `sniff` and `convert --from auto` (on by default, `--no-detect`).

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;
use textcodec::Encoding;

mod common;
use common::{run, run_env};

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name)
}

fn json(o: &Output) -> Value {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("JSON on stdout")
}

/// Real Japanese text (the shipped example), re-encoded in each Japanese encoding.
fn japanese_text() -> String {
    let bytes = std::fs::read(example("shift_jis.txt")).unwrap();
    let (text, used) = textcodec::decode(&bytes, Encoding::ShiftJis);
    assert_eq!(used, Encoding::ShiftJis);
    assert!(!text.contains('\u{FFFD}'));
    text.into_owned()
}

#[test]
fn detect_names_the_encoding_of_the_shipped_example() {
    let path = example("shift_jis.txt");
    let o = run(&["detect", path.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    // Encoding, confidence and language on one line, and no ranking unless asked.
    let line = out.trim_end();
    assert!(line.contains(": Shift_JIS (confidence 0.99"), "{out}");
    assert!(line.ends_with(", Japanese)"), "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    // --top 5 lists five candidates under the guess, with confidence and score.
    let o = run(&["detect", "--top", "5", path.to_str().unwrap()], b"");
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.lines().count(), 6, "{out}");
    assert!(out.lines().next().unwrap().contains("; score "), "{out}");
    assert!(out.lines().nth(1).unwrap().contains("Shift_JIS"), "{out}");
    assert!(
        out.lines().nth(1).unwrap().contains("confidence 0.99"),
        "{out}"
    );
}

#[test]
fn detect_json_has_no_ranking_unless_asked() {
    let path = example("shift_jis.txt");
    let v = json(&run(&["detect", "--json", path.to_str().unwrap()], b""));
    let report = &v[0];
    assert_eq!(report["encoding"], "Shift_JIS");
    assert_eq!(report["language"], "ja");
    assert_eq!(report["language_name"], "Japanese");
    assert!(report["binary"].is_null());
    let confidence = report["confidence"].as_f64().unwrap();
    assert!((0.9..=1.0).contains(&confidence), "{report}");
    assert!(report.get("ranking").is_none(), "{report}");
    let v = json(&run(
        &["detect", "--json", "--top", "3", path.to_str().unwrap()],
        b"",
    ));
    let ranking = v[0]["ranking"].as_array().unwrap();
    assert_eq!(ranking.len(), 3);
    assert_eq!(ranking[0]["confidence"].as_f64().unwrap(), confidence);
}

/// Where the guess is unsure, no candidate under it in `--top`/`--json` is shown as
/// likelier: " Ž m  " (Ž in ISO-8859-2) is a near tie, and the rival's share of the rest
/// once exceeded the guess's confidence (0.31 against 0.28).
#[test]
fn detect_ranking_never_rates_a_runner_up_above_the_guess() {
    let bytes = b" \xae m  ";
    let v = json(&run(&["detect", "--json", "--top", "0"], bytes));
    let guess = v[0]["confidence"].as_f64().unwrap();
    assert!(guess < 0.5, "{}", v[0]);
    let ranking = v[0]["ranking"].as_array().unwrap();
    assert_eq!(ranking[0]["confidence"].as_f64().unwrap(), guess);
    for c in ranking {
        assert!(
            c["confidence"].as_f64().unwrap() <= guess,
            "{c} over {}",
            v[0]
        );
    }
    let text = run(&["detect", "--top", "5"], bytes);
    let text = String::from_utf8(text.stdout).unwrap();
    let shown: Vec<f64> = text
        .lines()
        .skip(1)
        .map(|l| l.split("confidence ").nth(1).unwrap()[..5].parse().unwrap())
        .collect();
    assert_eq!(shown.len(), 5, "{text}");
    assert!(shown.iter().all(|&c| c <= shown[0]), "{text}");
}

#[test]
fn detect_binary_utf16_and_candidate_sets() {
    // A PNG is not text.
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0";
    let v = json(&run(&["detect", "--json"], png));
    assert_eq!(v[0]["binary"], "PNG");
    assert_eq!(v[0]["confidence"].as_f64().unwrap(), 0.0);
    let o = run(&["detect"], png);
    let line = String::from_utf8(o.stdout).unwrap();
    assert!(line.contains("binary data (PNG), not text"), "{line}");
    // UTF-16LE without a byte order mark.
    let utf16: Vec<u8> = "Grüße aus Köln, und viele mehr."
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let v = json(&run(&["detect", "--json"], &utf16));
    assert_eq!(v[0]["encoding"], "UTF-16LE", "{v}");
    // --deny and --allow take labels.
    let cyrillic = textcodec::encode("Привет, мир! Как у вас дела?", Encoding::Windows1251)
        .0
        .into_owned();
    let v = json(&run(&["detect", "--json"], &cyrillic));
    assert_eq!(v[0]["encoding"], "windows-1251");
    let v = json(&run(&["detect", "--json", "--deny", "cp1251"], &cyrillic));
    assert_ne!(v[0]["encoding"], "windows-1251");
    let v = json(&run(
        &[
            "detect",
            "--json",
            "--allow",
            "koi8-r,iso-8859-5",
            "--top",
            "0",
        ],
        &cyrillic,
    ));
    assert!(["KOI8-R", "ISO-8859-5"].contains(&v[0]["encoding"].as_str().unwrap()));
    let excluded = v[0]["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["excluded"] == true)
        .count();
    assert_eq!(excluded, 36);
    let o = run(&["detect", "--allow", "no-such-label"], b"");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn detect_json_ranking_and_disqualification() {
    let text = japanese_text();
    for encoding in [Encoding::ShiftJis, Encoding::EucJp, Encoding::Iso2022Jp] {
        let bytes = textcodec::encode(&text, encoding).0.into_owned();
        let v = json(&run(&["detect", "--json", "--top", "0"], &bytes));
        let report = &v[0];
        assert_eq!(report["encoding"], encoding.name(), "{report}");
        // ISO-2022-JP is all ASCII bytes: its escapes decide, and UTF-8 cannot reject it.
        let seven_bit = encoding == Encoding::Iso2022Jp;
        assert_eq!(report["ascii_only"], seven_bit);
        assert!(report["margin"].as_f64().unwrap() >= 0.0);
        let ranking = report["ranking"].as_array().unwrap();
        assert_eq!(ranking[0]["encoding"], encoding.name());
        // Every candidate is listed once; UTF-8 rejects the 8-bit encodings' bytes.
        let utf8 = ranking.iter().find(|c| c["encoding"] == "UTF-8").unwrap();
        assert_eq!(utf8["disqualified"], !seven_bit, "{report}");
        let names: std::collections::BTreeSet<_> =
            ranking.iter().map(|c| c["encoding"].to_string()).collect();
        assert_eq!(names.len(), ranking.len());
        // Disqualified candidates come last: for the 7-bit bytes, only UTF-16 (printable
        // ASCII and ESC bytes are never read as UTF-16).
        let first_out = ranking
            .iter()
            .position(|c| c["disqualified"] == true)
            .unwrap();
        if seven_bit {
            assert_eq!(ranking.len() - first_out, 2, "{report}");
            assert!(ranking[first_out..]
                .iter()
                .all(|c| c["encoding"].as_str().unwrap().starts_with("UTF-16")));
        }
        assert!(ranking[first_out..]
            .iter()
            .all(|c| c["disqualified"] == true));
    }
}

#[test]
fn detect_gives_the_same_answer_for_any_read_size() {
    let bytes = textcodec::encode(&japanese_text(), Encoding::EucJp)
        .0
        .into_owned();
    let whole = json(&run(&["detect", "--json"], &bytes));
    for size in ["1", "2", "3", "7"] {
        let split = json(&run_env(
            &["detect", "--json"],
            &bytes,
            &[("TEXTCODEC_CLI_READ_BUFFER", size)],
        ));
        assert_eq!(split, whole, "reads of {size} bytes");
    }
}

#[test]
fn detect_ascii_and_empty_input_and_hints() {
    for input in [&b""[..], b"plain ASCII text\n"] {
        let v = json(&run(&["detect", "--json"], input));
        assert_eq!(v[0]["ascii_only"], true);
    }
    let o = run(&["detect", "--no-utf8", "--json"], "naïve café".as_bytes());
    let v = json(&o);
    assert_ne!(v[0]["encoding"], "UTF-8", "--no-utf8 never guesses UTF-8");
    let o = run(&["detect", "--json"], "naïve café".as_bytes());
    assert_eq!(json(&o)[0]["encoding"], "UTF-8");
    let o = run(&["detect", "/nonexistent/file"], b"");
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn sniff_detects_unlabelled_text_unless_told_not_to() {
    let path = example("shift_jis.txt");
    let v = json(&run(&["sniff", "--json", path.to_str().unwrap()], b""));
    assert_eq!(v[0]["encoding"], "Shift_JIS");
    assert_eq!(v[0]["source"], "detection");
    assert_eq!(v[0]["confidence"], "tentative");
    assert!(v[0]["detection"]["margin"].as_f64().is_some());
    assert!(v[0]["detection"]["confidence"].as_f64().unwrap() > 0.9);
    assert_eq!(v[0]["detection"]["language"], "ja");
    let o = run(&["sniff", path.to_str().unwrap()], b"");
    let line = String::from_utf8(o.stdout).unwrap();
    assert!(line.contains("Shift_JIS (tentative)"), "{line}");
    assert!(line.contains("detection (confidence 0.99"), "{line}");

    let v = json(&run(
        &["sniff", "--json", "--no-detect", path.to_str().unwrap()],
        b"",
    ));
    assert_eq!(v[0]["encoding"], "windows-1252");
    assert_eq!(v[0]["source"], "default");
    assert!(v[0]["detection"].is_null());

    // A label wins over detection; ASCII-only input falls through to the default.
    let v = json(&run(
        &[
            "sniff",
            "--json",
            "--content-type",
            "text/plain; charset=euc-kr",
        ],
        &std::fs::read(&path).unwrap(),
    ));
    assert_eq!(v[0]["source"], "transport-layer");
    let v = json(&run(&["sniff", "--json"], b"<p>hello</p>"));
    assert_eq!(v[0]["source"], "default");
}

#[test]
fn convert_from_auto_decodes_unlabelled_legacy_text() {
    let path = example("shift_jis.txt");
    let o = run(
        &[
            "convert",
            "-f",
            "auto",
            "-t",
            "utf-8",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(String::from_utf8(o.stdout).unwrap(), japanese_text());
    // The note on stderr says how sure the detection was.
    let note = String::from_utf8(o.stderr).unwrap();
    assert!(note.contains("detection (confidence 0.99"), "{note}");
    let o = run(
        &[
            "convert",
            "-f",
            "auto",
            "--no-detect",
            "-t",
            "utf-8",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_ne!(String::from_utf8(o.stdout).unwrap(), japanese_text());
}
