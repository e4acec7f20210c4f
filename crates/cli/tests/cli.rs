//! Integration tests: run the real `textcodec` binary.

use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use textcodec::{EncodeErrorMode, Encoder, Encoding};

mod common;
use common::{bin, run, run_env};

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout_str(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 stdout")
}

fn encode(text: &str, encoding: Encoding) -> Vec<u8> {
    let mut e = Encoder::new(encoding, EncodeErrorMode::Fatal).unwrap();
    let mut out = Vec::new();
    let r = e.encode_from_utf8_to_vec(text, &mut out, true);
    assert_eq!(
        r.status,
        textcodec::EncodeStatus::InputEmpty,
        "test text must encode"
    );
    out
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, bytes).unwrap();
    p
}

/// Files in `dir` whose name starts with `.textcodec-` (temporary outputs).
fn temp_leftovers(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".textcodec-"))
        .collect()
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const JAPANESE: &str = "日本語のテキスト。\n「引用」と記号～①②\n半角ｶﾀｶﾅも。\n";

// ---------------------------------------------------------------- convert: basics

#[test]
fn readme_first_command_converts_the_shipped_example() {
    let path = repo_root().join("examples/shift_jis.txt");
    let bytes = fs::read(&path).expect("examples/shift_jis.txt ships with the repo");
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the example is Shift_JIS, not UTF-8"
    );
    let o = run(
        &[
            "convert",
            "-f",
            "shift_jis",
            "-t",
            "utf-8",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (expected, _) = textcodec::decode(&bytes, Encoding::ShiftJis);
    assert_eq!(stdout_str(&o), expected);
    assert!(stdout_str(&o).contains("textcodec"));
    assert!(!stdout_str(&o).contains('\u{FFFD}'));
    assert_eq!(stderr(&o), "", "no warnings for a clean file");
}

#[test]
fn stdin_to_stdout_by_default_and_with_dash() {
    let sjis = encode(JAPANESE, Encoding::ShiftJis);
    for args in [
        vec!["convert", "-f", "sjis", "-t", "utf-8"],
        vec!["convert", "--from", "sjis", "--to", "utf-8", "-"],
        vec!["convert", "-f", "sjis", "-t", "utf-8", "-o", "-"],
    ] {
        let o = run(&args, &sjis);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        assert_eq!(stdout_str(&o), JAPANESE, "{args:?}");
    }
}

#[test]
fn labels_are_case_and_whitespace_insensitive() {
    let o = run(
        &["convert", "-f", " Shift_JIS\t", "-t", "UTF8"],
        &encode("日本", Encoding::ShiftJis),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout_str(&o), "日本");
    let o = run(&["convert", "-f", "LATIN1", "-t", "Utf-8"], b"caf\xE9");
    assert_eq!(stdout_str(&o), "café");
}

#[test]
fn unknown_label_is_a_usage_error_with_suggestions() {
    let o = run(&["convert", "-f", "shiftjis", "-t", "utf-8"], b"");
    assert_eq!(code(&o), 2);
    let e = stderr(&o);
    assert!(e.contains("unknown encoding label \"shiftjis\""), "{e}");
    assert!(e.contains("shift_jis (Shift_JIS)"), "{e}");
    let o = run(&["convert", "-f", "utf-8", "-t", "utf-32"], b"");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("utf-16"), "{}", stderr(&o));
}

#[test]
fn replacement_has_no_encoder() {
    let o = run(&["convert", "-f", "utf-8", "-t", "iso-2022-kr"], b"");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("replacement"), "{}", stderr(&o));
}

#[test]
fn decoding_with_replacement_gives_one_fffd() {
    let o = run(&["convert", "-f", "hz-gb-2312", "-t", "utf-8"], b"anything");
    assert_eq!(code(&o), 0);
    assert_eq!(stdout_str(&o), "\u{FFFD}");
}

#[test]
fn several_inputs_each_with_its_own_bom() {
    let dir = tmp();
    let a = write(dir.path(), "a.txt", b"caf\xE9\n");
    let mut utf16 = vec![0xFF, 0xFE];
    for u in "日本\n".encode_utf16() {
        utf16.extend_from_slice(&u.to_le_bytes());
    }
    let b = write(dir.path(), "b.txt", &utf16);
    let c = write(dir.path(), "c.txt", b"\xEF\xBB\xBFna\xC3\xAFve");
    let o = run(
        &[
            "convert",
            "-f",
            "windows-1252",
            "-t",
            "utf-8",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "-",
            c.to_str().unwrap(),
        ],
        b"\xA9 ",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout_str(&o), "café\n日本\n© naïve");
    let e = stderr(&o);
    assert!(
        e.contains("b.txt: a UTF-16LE byte order mark overrides --from windows-1252"),
        "{e}"
    );
    assert!(e.contains("c.txt: a UTF-8 byte order mark"), "{e}");
}

#[test]
fn several_inputs_are_one_iso_2022_jp_stream() {
    let dir = tmp();
    let a = write(dir.path(), "a.txt", "ab日本".as_bytes());
    let b = write(dir.path(), "b.txt", "語x".as_bytes());
    let o = run(
        &[
            "convert",
            "-f",
            "utf-8",
            "-t",
            "iso-2022-jp",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // Exactly the encoding of the concatenated text: no return to ASCII between files.
    assert_eq!(o.stdout, encode("ab日本語x", Encoding::Iso2022Jp));
    assert_eq!(o.stdout, b"ab\x1b$BF|K\\8l\x1b(Bx");
    // And the stream ends in ASCII even when the text ends in JIS X 0208.
    let o = run(
        &[
            "convert",
            "-f",
            "utf-8",
            "-t",
            "iso-2022-jp",
            a.to_str().unwrap(),
        ],
        b"",
    );
    assert!(o.stdout.ends_with(b"\x1b(B"));
}

#[test]
fn no_bom_sniff_keeps_the_bom_as_text() {
    let input = b"\xEF\xBB\xBFhi";
    let o = run(&["convert", "-f", "utf-8", "-t", "utf-8"], input);
    assert_eq!(o.stdout, b"hi");
    let o = run(
        &["convert", "-f", "utf-8", "-t", "utf-8", "--no-bom-sniff"],
        input,
    );
    assert_eq!(o.stdout, input);
    let o = run(
        &[
            "convert",
            "-f",
            "windows-1252",
            "-t",
            "utf-8",
            "--no-bom-sniff",
        ],
        b"\xFF\xFEa\0",
    );
    assert_eq!(stdout_str(&o), "ÿþa\0");
}

#[test]
fn utf16_output_and_add_bom() {
    let o = run(
        &["convert", "-f", "utf-8", "-t", "utf-16le", "--add-bom"],
        "a😀".as_bytes(),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(o.stdout, b"\xFF\xFEa\0\x3D\xD8\x00\xDE");
    let o = run(
        &["convert", "-f", "utf-8", "-t", "utf-16be"],
        "a😀".as_bytes(),
    );
    assert_eq!(o.stdout, b"\0a\xD8\x3D\xDE\x00");
    let o = run(
        &["convert", "-f", "latin1", "-t", "utf-8", "--add-bom"],
        b"\xE9",
    );
    assert_eq!(o.stdout, b"\xEF\xBB\xBF\xC3\xA9");
    // A UTF-16 round trip.
    let o2 = run(
        &["convert", "-f", "utf-16be", "-t", "utf-8"],
        b"\0a\xD8\x3D\xDE\x00",
    );
    assert_eq!(stdout_str(&o2), "a😀");
}

#[test]
fn add_bom_needs_a_unicode_output() {
    let o = run(
        &["convert", "-f", "utf-8", "-t", "windows-1252", "--add-bom"],
        b"x",
    );
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("--add-bom"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
}

// ---------------------------------------------------------------- decode errors

#[test]
fn malformed_input_is_replaced_and_counted() {
    let input = b"ok\n\x82\x22 and \xFF\n";
    let o = run(&["convert", "-f", "shift_jis", "-t", "utf-8"], input);
    assert_eq!(code(&o), 0);
    let (expected, _) = textcodec::decode(input, Encoding::ShiftJis);
    assert_eq!(stdout_str(&o), expected);
    assert_eq!(stdout_str(&o), "ok\n\u{FFFD}\" and \u{FFFD}\n");
    let e = stderr(&o);
    assert!(
        e.contains("warning: <stdin>: 2 malformed Shift_JIS byte sequences replaced with U+FFFD; the first at byte 3 (line 2): invalid Shift_JIS byte sequence 82 (followed by 22)"),
        "{e}"
    );
    // -q silences it.
    let o = run(&["-q", "convert", "-f", "shift_jis", "-t", "utf-8"], input);
    assert_eq!(stderr(&o), "");
    let o = run(&["convert", "-q", "-f", "shift_jis", "-t", "utf-8"], input);
    assert_eq!(stderr(&o), "");
}

/// After the first error the decoder replaces the rest itself (no return per error): the
/// output, the count and the first error's report must still be exact, with reads split
/// anywhere, for every input of a multi-input run (each input reports its own first error).
#[test]
fn many_malformed_sequences_are_replaced_and_counted_across_reads() {
    let dir = tmp();
    let mut first = b"\xFF\xFF".to_vec();
    for i in 0..300u32 {
        first.extend_from_slice(format!("line {i} ").as_bytes());
        first.extend_from_slice(b"\x82\x22 \xFC\x20 \xFF\n");
    }
    let second = b"clean \x81\n".to_vec();
    let a = write(dir.path(), "a.txt", &first);
    let b = write(dir.path(), "b.txt", &second);
    let mut whole = first.clone();
    whole.extend_from_slice(&second);
    for buffer in ["1", "3", "7", "65536"] {
        let o = run_env(
            &[
                "convert",
                "-f",
                "shift_jis",
                "-t",
                "utf-8",
                a.to_str().unwrap(),
                b.to_str().unwrap(),
            ],
            b"",
            &[("TEXTCODEC_CLI_READ_BUFFER", buffer)],
        );
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let (want_a, _) = textcodec::decode(&first, Encoding::ShiftJis);
        let (want_b, _) = textcodec::decode(&second, Encoding::ShiftJis);
        assert_eq!(
            stdout_str(&o),
            format!("{want_a}{want_b}"),
            "buffer {buffer}"
        );
        // Errors per line: 82 (22 restored), FC (20 restored), FF: 3; plus two leading FF.
        let mut decoder = textcodec::Decoder::new(Encoding::ShiftJis);
        let _ = decoder.decode_to_string(&first, &mut String::new(), true);
        assert_eq!(decoder.replacements(), 902);
        let e = stderr(&o);
        assert!(
            e.contains("a.txt: 902 malformed Shift_JIS byte sequences replaced with U+FFFD; the first at byte 0 (line 1): invalid Shift_JIS byte sequence FF (followed by FF)"),
            "buffer {buffer}: {e}"
        );
        assert!(
            e.contains("b.txt: 1 malformed Shift_JIS byte sequence replaced with U+FFFD; the first at byte 6 (line 1): invalid Shift_JIS byte sequence 81 (followed by 0A)"),
            "buffer {buffer}: {e}"
        );
    }
}

#[test]
fn fatal_decode_reports_offset_line_and_bytes() {
    let dir = tmp();
    let mut input = Vec::new();
    for i in 0..310 {
        input.extend_from_slice(format!("line {i}\n").as_bytes());
    }
    let offset = input.len() + 4;
    input.extend_from_slice(b"abcd\x82\x22rest\n");
    let p = write(dir.path(), "input.txt", &input);
    for buffer in ["1", "3", "4096", "65536"] {
        let o = run_env(
            &[
                "convert",
                "-f",
                "shift_jis",
                "-t",
                "utf-8",
                "--decode-errors",
                "fatal",
                p.to_str().unwrap(),
            ],
            b"",
            &[("TEXTCODEC_CLI_READ_BUFFER", buffer)],
        );
        assert_eq!(code(&o), 1);
        let e = stderr(&o);
        let want = format!(
            "{}: byte {offset} (line 311): invalid Shift_JIS byte sequence 82 (followed by 22)",
            p.display()
        );
        assert!(e.contains(&want), "buffer {buffer}: {e}");
    }
}

#[test]
fn truncated_sequence_at_end_of_input() {
    let o = run(
        &[
            "convert",
            "-f",
            "utf-8",
            "-t",
            "utf-8",
            "--decode-errors",
            "fatal",
        ],
        b"ab\xE6\x97",
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o)
            .contains("byte 2 (line 1): incomplete UTF-8 byte sequence E6 97 at end of input"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        o.stdout, b"ab",
        "text before the error was written to stdout"
    );
}

#[test]
fn utf16_lines_count_decoded_line_feeds() {
    let mut input = Vec::new();
    for u in "a\nb\nc".encode_utf16() {
        input.extend_from_slice(&u.to_le_bytes());
    }
    input.extend_from_slice(&[0x00, 0xD8, b'x', 0]); // lone lead surrogate
    let o = run(
        &[
            "convert",
            "-f",
            "utf-16le",
            "-t",
            "utf-8",
            "--decode-errors",
            "fatal",
        ],
        &input,
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("byte 10 (line 3): invalid UTF-16LE byte sequence 00 D8"),
        "{}",
        stderr(&o)
    );
}

// ---------------------------------------------------------------- encode errors

#[test]
fn unencodable_character_is_an_error_with_line_and_column() {
    let dir = tmp();
    let p = write(
        dir.path(),
        "input.txt",
        "first\nsecond\nthree \u{e9}\u{1F4A9} end\n".as_bytes(),
    );
    let o = run(
        &[
            "convert",
            "-f",
            "utf-8",
            "-t",
            "windows-1252",
            p.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 1);
    let want = format!(
        "{}: U+1F4A9 '\u{1F4A9}' at line 3, column 8 cannot be encoded in windows-1252 (use --encode-errors html or replace)",
        p.display()
    );
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
}

#[test]
fn unencodable_column_is_right_across_tiny_reads() {
    let text = "ab\ncdé日本\u{2603}";
    for buffer in ["1", "2", "5"] {
        let o = run_env(
            &["convert", "-f", "utf-8", "-t", "iso-8859-1"],
            text.as_bytes(),
            &[("TEXTCODEC_CLI_READ_BUFFER", buffer)],
        );
        assert_eq!(code(&o), 1);
        assert!(
            stderr(&o)
                .contains("U+65E5 '日' at line 2, column 4 cannot be encoded in windows-1252"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn encode_errors_html_matches_the_standards_encode() {
    let text = "a☃b\u{1F4A9}\n日本語 \u{1B} ü";
    for label in ["windows-1252", "iso-2022-jp", "shift_jis", "koi8-r", "gbk"] {
        let encoding = Encoding::for_label_str(label).unwrap();
        let o = run(
            &[
                "convert",
                "-f",
                "utf-8",
                "-t",
                label,
                "--encode-errors",
                "html",
            ],
            text.as_bytes(),
        );
        assert_eq!(code(&o), 0, "{label}: {}", stderr(&o));
        let (expected, _) = textcodec::encode(text, encoding);
        assert_eq!(o.stdout, &*expected, "{label}");
    }
    let o = run(
        &[
            "convert",
            "-f",
            "utf-8",
            "-t",
            "windows-1252",
            "--encode-errors",
            "html",
        ],
        "x☃\u{1F4A9}".as_bytes(),
    );
    assert_eq!(o.stdout, b"x&#9731;&#128169;");
    assert!(
        stderr(&o).contains("2 characters not in windows-1252 written as HTML character references (&#NNNN;); the first: <stdin>: U+2603 '☃' at line 1, column 2"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn encode_errors_replace_writes_question_marks() {
    let o = run(
        &[
            "convert",
            "-f",
            "utf-8",
            "-t",
            "iso-2022-jp",
            "--encode-errors",
            "replace",
        ],
        "日☃本".as_bytes(),
    );
    assert_eq!(code(&o), 0);
    assert_eq!(o.stdout, b"\x1b$BF|\x1b(B?\x1b$BK\\\x1b(B");
    let o = run(
        &[
            "convert",
            "-f",
            "utf-8",
            "-t",
            "koi8-r",
            "--encode-errors",
            "replace",
            "-q",
        ],
        "é".as_bytes(),
    );
    assert_eq!(o.stdout, b"?");
    assert_eq!(stderr(&o), "");
}

#[test]
fn replacement_character_that_cannot_be_encoded_says_where_it_came_from() {
    let o = run(&["convert", "-f", "utf-8", "-t", "windows-1252"], b"a\xFFb");
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("U+FFFD"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("written for a malformed byte sequence"),
        "{}",
        stderr(&o)
    );
}

// ---------------------------------------------------------------- split reads

#[test]
fn sequences_split_across_every_read_boundary() {
    let text = "aé日本語😀\u{10FFFF}ｶ\u{80}€\r\nx\u{1F4A9}";
    let cases: &[(&str, &str)] = &[
        ("utf-8", "utf-8"),
        ("shift_jis", "shift_jis"),
        ("euc-jp", "euc-jp"),
        ("iso-2022-jp", "iso-2022-jp"),
        ("gb18030", "gb18030"),
        ("big5", "big5"),
        ("euc-kr", "euc-kr"),
        ("utf-16le", "utf-16le"),
        ("utf-16be", "utf-16be"),
    ];
    for &(from, to) in cases {
        let encoding = Encoding::for_label_str(from).unwrap();
        // Characters the legacy encoding lacks are left out of its test text.
        let mut e = Encoder::new(encoding, EncodeErrorMode::Fatal).unwrap();
        let usable: String = text
            .chars()
            .filter(|c| {
                let mut buf = [0u8; 16];
                let r = e
                    .clone()
                    .encode_from_utf8(c.encode_utf8(&mut [0u8; 4]), &mut buf, true);
                r.status == textcodec::EncodeStatus::InputEmpty
            })
            .collect();
        e.reset();
        let bytes = encode(&usable, encoding);
        // (Not always `usable`: ISO-2022-JP writes halfwidth katakana as fullwidth.)
        let (decoded, _) = textcodec::decode(&bytes, encoding);
        for buffer in ["1", "2", "3", "5", "7"] {
            let env = [("TEXTCODEC_CLI_READ_BUFFER", buffer)];
            let o = run_env(&["convert", "-f", from, "-t", "utf-8"], &bytes, &env);
            assert_eq!(code(&o), 0, "{from} buffer {buffer}: {}", stderr(&o));
            assert_eq!(stdout_str(&o), decoded, "{from} buffer {buffer}");
            let o = run_env(
                &["convert", "-f", "utf-8", "-t", to],
                usable.as_bytes(),
                &env,
            );
            assert_eq!(code(&o), 0, "to {to} buffer {buffer}: {}", stderr(&o));
            assert_eq!(o.stdout, bytes, "to {to} buffer {buffer}");
        }
    }
}

#[test]
fn utf16_surrogate_pair_split_between_reads_and_files() {
    // U+1F600 in UTF-16LE: 3D D8 00 DE; each read gets one byte.
    let input = b"\x3D\xD8\x00\xDEa\x00";
    let o = run_env(
        &[
            "convert",
            "-f",
            "utf-16le",
            "-t",
            "utf-8",
            "--decode-errors",
            "fatal",
        ],
        input,
        &[("TEXTCODEC_CLI_READ_BUFFER", "1")],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout_str(&o), "😀a");
    // Split between two files, the lead surrogate ends file 1: each file is its own
    // stream, so both halves are errors.
    let dir = tmp();
    let a = write(dir.path(), "a", b"\x3D\xD8");
    let b = write(dir.path(), "b", b"\x00\xDE");
    let o = run(
        &[
            "convert",
            "-f",
            "utf-16le",
            "-t",
            "utf-8",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(stdout_str(&o), "\u{FFFD}\u{FFFD}");
}

#[test]
fn big_input_streams_through_small_buffers() {
    // 3 MB of mixed text through 64 KiB reads: identical to the library's one-shot decode.
    let mut text = String::new();
    while text.len() < 3_000_000 {
        text.push_str("ascii line, then 日本語のテキスト and é😀\n");
    }
    let bytes = encode(&text, Encoding::Gb18030);
    let o = run(&["convert", "-f", "gb18030", "-t", "utf-8"], &bytes);
    assert_eq!(code(&o), 0);
    assert!(stdout_str(&o) == text);
}

// ---------------------------------------------------------------- output files

#[test]
fn output_file_is_written_atomically() {
    let dir = tmp();
    let input = write(dir.path(), "in.txt", &encode(JAPANESE, Encoding::EucJp));
    let out = dir.path().join("out.txt");
    let o = run(
        &[
            "convert",
            "-f",
            "euc-jp",
            "-t",
            "utf-8",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert_eq!(fs::read_to_string(&out).unwrap(), JAPANESE);
    assert!(temp_leftovers(dir.path()).is_empty());
    // A new file gets ordinary permissions (not the temporary file's 0600).
    let mode = fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert!(mode & 0o044 != 0 || mode == 0o600, "mode {mode:o}");
}

#[test]
fn failed_conversion_leaves_the_target_untouched() {
    let dir = tmp();
    let input = write(dir.path(), "in.txt", "plain\nsnow \u{2603}\n".as_bytes());
    let out = write(dir.path(), "out.txt", b"precious");
    fs::set_permissions(&out, fs::Permissions::from_mode(0o640)).unwrap();
    let o = run(
        &[
            "convert",
            "-f",
            "utf-8",
            "-t",
            "latin1",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("U+2603 '☃' at line 2, column 6 cannot be encoded in windows-1252"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read(&out).unwrap(), b"precious");
    assert!(
        temp_leftovers(dir.path()).is_empty(),
        "{:?}",
        temp_leftovers(dir.path())
    );
    // Same for a decode error and for a missing second input.
    let bad = write(dir.path(), "bad.txt", b"ok \xFF");
    let o = run(
        &[
            "convert",
            "-f",
            "utf-8",
            "-t",
            "utf-8",
            "--decode-errors",
            "fatal",
            bad.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 1);
    let o = run(
        &[
            "convert",
            "-f",
            "utf-8",
            "-t",
            "utf-8",
            input.to_str().unwrap(),
            "missing.txt",
            "-o",
            out.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("cannot open missing.txt: No such file or directory"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read(&out).unwrap(), b"precious");
    assert!(temp_leftovers(dir.path()).is_empty());
    // Success replaces it and keeps its permissions.
    let o = run(
        &[
            "convert",
            "-f",
            "utf-8",
            "-t",
            "utf-8",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 0);
    assert_eq!(fs::read_to_string(&out).unwrap(), "plain\nsnow \u{2603}\n");
    assert_eq!(
        fs::metadata(&out).unwrap().permissions().mode() & 0o777,
        0o640
    );
}

#[test]
fn refuses_to_overwrite_an_input() {
    let dir = tmp();
    let input = write(dir.path(), "in.txt", b"caf\xE9");
    let other = write(dir.path(), "other.txt", b"x");
    let o = run(
        &[
            "convert",
            "-f",
            "latin1",
            "-t",
            "utf-8",
            other.to_str().unwrap(),
            input.to_str().unwrap(),
            "-o",
            input.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("refusing to overwrite input file"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("--in-place"));
    assert_eq!(fs::read(&input).unwrap(), b"caf\xE9");
    // Through a different path to the same file.
    let o = run(
        &[
            "convert",
            "-f",
            "latin1",
            "-t",
            "utf-8",
            input.to_str().unwrap(),
            "-o",
            &format!("{}/./in.txt", dir.path().display()),
        ],
        b"",
    );
    assert_eq!(code(&o), 2);
    // stdout redirected (appending) to the input.
    let f = fs::OpenOptions::new().append(true).open(&input).unwrap();
    let o = bin()
        .args([
            "convert",
            "-f",
            "latin1",
            "-t",
            "utf-8",
            input.to_str().unwrap(),
        ])
        .stdout(Stdio::from(f))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("is also the standard output"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read(&input).unwrap(), b"caf\xE9");
}

#[test]
fn in_place_converts_each_file_and_keeps_permissions() {
    let dir = tmp();
    let a = write(dir.path(), "a.txt", b"caf\xE9\n");
    let b = write(dir.path(), "b.txt", b"na\xEFve\n");
    fs::set_permissions(&a, fs::Permissions::from_mode(0o640)).unwrap();
    fs::set_permissions(&b, fs::Permissions::from_mode(0o604)).unwrap();
    let o = run(
        &[
            "convert",
            "-f",
            "latin1",
            "-t",
            "utf-8",
            "--add-bom",
            "--in-place",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(fs::read(&a).unwrap(), "\u{FEFF}café\n".as_bytes());
    assert_eq!(fs::read(&b).unwrap(), "\u{FEFF}naïve\n".as_bytes());
    assert_eq!(
        fs::metadata(&a).unwrap().permissions().mode() & 0o777,
        0o640
    );
    assert_eq!(
        fs::metadata(&b).unwrap().permissions().mode() & 0o777,
        0o604
    );
    assert!(temp_leftovers(dir.path()).is_empty());
}

#[test]
fn in_place_failure_leaves_that_file_untouched() {
    let dir = tmp();
    let good = write(dir.path(), "good.txt", "é".as_bytes());
    let bad = write(dir.path(), "bad.txt", "☃".as_bytes());
    let o = run(
        &[
            "convert",
            "-f",
            "utf-8",
            "-t",
            "latin1",
            "--in-place",
            bad.to_str().unwrap(),
            good.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("bad.txt left unchanged"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read(&bad).unwrap(), "☃".as_bytes());
    assert_eq!(
        fs::read(&good).unwrap(),
        b"\xE9",
        "the other file is still converted"
    );
    assert!(temp_leftovers(dir.path()).is_empty());
}

#[test]
fn in_place_needs_files() {
    let o = run(
        &["convert", "-f", "latin1", "-t", "utf-8", "--in-place"],
        b"x",
    );
    assert_eq!(code(&o), 2);
    let o = run(
        &[
            "convert",
            "-f",
            "latin1",
            "-t",
            "utf-8",
            "--in-place",
            "-o",
            "x",
            "y",
        ],
        b"x",
    );
    assert_eq!(code(&o), 2);
}

#[test]
fn missing_input_is_an_error() {
    let o = run(
        &[
            "convert",
            "-f",
            "latin1",
            "-t",
            "utf-8",
            "/nonexistent/file",
        ],
        b"",
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("cannot open /nonexistent/file: No such file or directory"),
        "{}",
        stderr(&o)
    );
}

// ---------------------------------------------------------------- validate

#[test]
fn validate_lists_each_error() {
    let dir = tmp();
    let good = write(
        dir.path(),
        "good.txt",
        &encode(JAPANESE, Encoding::ShiftJis),
    );
    let bad = write(dir.path(), "bad.txt", b"ab\n\x82\x22cd\n\xFF\n\x81");
    let o = run(&["validate", "-f", "sjis", good.to_str().unwrap()], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout_str(&o).contains("good.txt: valid Shift_JIS"),
        "{}",
        stdout_str(&o)
    );
    let o = run(
        &[
            "validate",
            "-f",
            "sjis",
            good.to_str().unwrap(),
            bad.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 1);
    let out = stdout_str(&o);
    let b = bad.display();
    assert!(
        out.contains(&format!(
            "{b}: byte 3 (line 2): invalid Shift_JIS byte sequence 82 (followed by 22)"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "{b}: byte 8 (line 3): invalid Shift_JIS byte sequence FF (followed by 0A)"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "{b}: byte 10 (line 4): incomplete Shift_JIS byte sequence 81 at end of input"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("{b}: 3 errors in Shift_JIS")),
        "{out}"
    );
    // --max-errors
    let o = run(
        &[
            "validate",
            "-f",
            "sjis",
            "--max-errors",
            "1",
            bad.to_str().unwrap(),
        ],
        b"",
    );
    let out = stdout_str(&o);
    assert_eq!(out.matches("byte sequence").count(), 1, "{out}");
    assert!(out.contains("3 errors in Shift_JIS (1 listed"), "{out}");
    // -q: exit status only.
    let o = run(
        &["validate", "-q", "-f", "sjis", bad.to_str().unwrap()],
        b"",
    );
    assert_eq!(code(&o), 1);
    assert!(o.stdout.is_empty());
}

#[test]
fn validate_json() {
    let o = run(&["validate", "-f", "utf-8", "--json"], b"a\n\xC3(\xE2\x82");
    assert_eq!(code(&o), 1);
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let r = &v[0];
    assert_eq!(r["input"], "<stdin>");
    assert_eq!(r["encoding"], "UTF-8");
    assert_eq!(r["valid"], false);
    assert_eq!(r["bytes"], 6);
    assert_eq!(r["error_count"], 2);
    assert_eq!(r["errors"][0]["offset"], 2);
    assert_eq!(r["errors"][0]["line"], 2);
    assert_eq!(r["errors"][0]["bytes"], "C3");
    assert_eq!(r["errors"][0]["next"], "28");
    assert_eq!(r["errors"][0]["kind"], "invalid");
    assert_eq!(r["errors"][1]["offset"], 4);
    assert_eq!(r["errors"][1]["kind"], "incomplete");
    assert_eq!(r["errors"][1]["bytes"], "E2 82");
    let o = run(&["validate", "-f", "utf-16", "--json"], b"\xFE\xFF\0a");
    assert_eq!(code(&o), 0);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["encoding"], "UTF-16BE", "the BOM decides");
    assert_eq!(v[0]["valid"], true);
}

#[test]
fn validate_offsets_survive_tiny_reads() {
    let input = "日本語\n".repeat(50).into_bytes();
    let mut bytes = encode(&String::from_utf8(input).unwrap(), Encoding::EucJp);
    let offset = bytes.len();
    bytes.extend_from_slice(b"\xA4\x0A");
    for buffer in ["1", "2", "3"] {
        let o = run_env(
            &["validate", "-f", "euc-jp"],
            &bytes,
            &[("TEXTCODEC_CLI_READ_BUFFER", buffer)],
        );
        assert!(
            stdout_str(&o).contains(&format!(
                "byte {offset} (line 51): invalid EUC-JP byte sequence A4 (followed by 0A)"
            )),
            "{buffer}: {}",
            stdout_str(&o)
        );
    }
}

// ---------------------------------------------------------------- list

#[test]
fn list_all_and_one() {
    let o = run(&["list"], b"");
    assert_eq!(code(&o), 0);
    let out = stdout_str(&o);
    assert_eq!(out.lines().count(), 40);
    assert!(out
        .lines()
        .any(|l| l.starts_with("Shift_JIS") && l.contains("sjis")));
    let o = run(&["list", " LATIN1 "], b"");
    assert_eq!(code(&o), 0);
    assert!(
        stdout_str(&o).contains("\"LATIN1\" is a label of windows-1252"),
        "{}",
        stdout_str(&o)
    );
    let o = run(&["list", "latin-1"], b"");
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("latin1 (windows-1252)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn list_json() {
    let o = run(&["list", "--json"], b"");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let all = v.as_array().unwrap();
    assert_eq!(all.len(), 40);
    let labels: usize = all
        .iter()
        .map(|e| e["labels"].as_array().unwrap().len())
        .sum();
    assert_eq!(labels, 228);
    let utf8 = &all[0];
    assert_eq!(utf8["name"], "UTF-8");
    let o = run(&["list", "--json", "utf-16"], b"");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["name"], "UTF-16LE");
    assert_eq!(v["standard_encoder"], false);
    assert_eq!(v["can_encode"], true);
    let o = run(&["list", "--json", "shiftjis"], b"");
    assert_eq!(code(&o), 1);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["name"], Value::Null);
    assert_eq!(v["suggestions"][0]["label"], "shift_jis");
}

// ---------------------------------------------------------------- sniff

#[test]
fn sniff_bom_transport_default() {
    let o = run(&["sniff"], b"\xEF\xBB\xBF<p>");
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout_str(&o),
        "<stdin>: UTF-8 (certain): byte order mark (3 bytes) [HTML rules]\n"
    );
    let o = run(
        &["sniff", "--content-type", "text/html; charset=\"EUC-KR\""],
        b"<meta charset=utf-8>",
    );
    assert_eq!(
        stdout_str(&o),
        "<stdin>: EUC-KR (certain): Content-Type charset [HTML rules]\n"
    );
    let o = run(&["sniff", "--default", "koi8-r", "--json"], b"<p>");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["encoding"], "KOI8-R");
    assert_eq!(v[0]["confidence"], "tentative");
    assert_eq!(v[0]["source"], "fallback");
    let o = run(&["sniff", "--json"], b"<p>");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["encoding"], "windows-1252");
    assert_eq!(v[0]["source"], "default");
    let o = run(&["sniff", "--json", "--locale", "ja-JP"], b"<p>");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["encoding"], "Shift_JIS");
    assert_eq!(v[0]["source"], "locale-default");
    let o = run(
        &[
            "sniff",
            "--json",
            "--content-type",
            "text/plain;charset=sjis",
        ],
        b"\xFF\xFEa\0",
    );
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v[0]["encoding"], "UTF-16LE",
        "a BOM beats the transport layer"
    );
    assert_eq!(v[0]["source"], "bom");
    assert_eq!(v[0]["kind"], "text");
    assert_eq!(v[0]["bom_length"], 2);
}

#[test]
fn sniff_prescan_xml_css_and_several_inputs() {
    let html = repo_root().join("examples/shift_jis.html");
    let dir = tmp();
    let css = write(dir.path(), "style.css", b"@charset \"iso-8859-5\"; p {}");
    let xml = write(
        dir.path(),
        "doc.xml",
        b"<?xml version=\"1.0\" encoding=\"EUC-JP\"?><r/>",
    );
    let o = run(
        &[
            "sniff",
            "--json",
            html.to_str().unwrap(),
            css.to_str().unwrap(),
            xml.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 3);
    assert_eq!(v[0]["encoding"], "Shift_JIS");
    assert_eq!(v[0]["source"], "meta-prescan");
    assert_eq!(v[0]["prescan"], "meta-charset");
    assert_eq!(v[0]["confidence"], "tentative");
    assert!(v[0]["offset"].as_u64().is_some());
    assert_eq!(v[1]["kind"], "css");
    assert_eq!(v[1]["encoding"], "ISO-8859-5");
    assert_eq!(v[1]["source"], "css-charset");
    assert_eq!(v[2]["kind"], "xml");
    assert_eq!(v[2]["encoding"], "EUC-JP");
    assert_eq!(v[2]["source"], "xml-declaration");
    assert_eq!(v[2]["confidence"], "irrelevant");
    // --kind wins over the extension.
    let o = run(
        &[
            "sniff",
            "--kind",
            "text",
            "--no-detect",
            html.to_str().unwrap(),
        ],
        b"",
    );
    assert!(stdout_str(&o).contains("windows-1252 (tentative): default [plain text rules]"));
    let o = run(&["sniff", "/nonexistent"], b"");
    assert_eq!(code(&o), 1);
}

#[test]
fn convert_from_auto_sniffs_each_input() {
    let html = repo_root().join("examples/shift_jis.html");
    let bytes = fs::read(&html).unwrap();
    let o = run(
        &[
            "convert",
            "-f",
            "auto",
            "-t",
            "utf-8",
            html.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (expected, _) = textcodec::decode(&bytes, Encoding::ShiftJis);
    assert_eq!(stdout_str(&o), expected);
    assert!(stdout_str(&o).contains("<meta charset=\"shift_jis\">"));
    assert!(
        stderr(&o).contains("Shift_JIS (tentative): <meta charset>"),
        "{}",
        stderr(&o)
    );
    // The transport layer beats the prescan; tiny reads split the sniffed prefix.
    let page = b"<meta charset=shift_jis>\xC7\xD1";
    for buffer in ["1", "3", "65536"] {
        let o = run_env(
            &[
                "convert",
                "-f",
                "AUTO",
                "--content-type",
                "text/html; charset=euc-kr",
                "-t",
                "utf-8",
            ],
            page,
            &[("TEXTCODEC_CLI_READ_BUFFER", buffer)],
        );
        assert_eq!(stdout_str(&o), "<meta charset=shift_jis>한", "{buffer}");
    }
    // A long page: the prefix (1024 bytes) and the rest are both decoded.
    let mut long = b"<meta charset=koi8-r>".to_vec();
    long.extend_from_slice(&[b'x'; 3000]);
    long.extend_from_slice(b"\xD2\xC1\xC4");
    let o = run(&["convert", "-f", "auto", "-t", "utf-8"], &long);
    let out = stdout_str(&o);
    assert_eq!(out.len(), long.len() - 3 + 6);
    assert!(out.ends_with("xрад"));
}

// ---------------------------------------------------------------- help, completions

#[test]
fn every_subcommand_has_help_with_examples() {
    for sub in ["convert", "sniff", "validate", "list", "completions"] {
        let o = run(&[sub, "--help"], b"");
        assert_eq!(code(&o), 0);
        assert!(stdout_str(&o).contains("Examples:"), "{sub}");
    }
    let o = run(&["--help"], b"");
    assert!(stdout_str(&o).contains("convert"));
    let o = run(&["convert", "-f", "utf-8"], b"");
    assert_eq!(code(&o), 2, "missing --to is a usage error");
}

#[test]
fn completions() {
    for shell in ["bash", "zsh", "fish"] {
        let o = run(&["completions", shell], b"");
        assert_eq!(code(&o), 0);
        let s = stdout_str(&o);
        assert!(
            s.contains("convert") && s.contains("decode-errors"),
            "{shell}"
        );
    }
    let o = run(&["completions", "tcsh"], b"");
    assert_eq!(code(&o), 2);
}

#[test]
fn output_to_a_fifo_is_written_directly_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tmp();
    let fifo = dir.path().join("pipe");
    let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read(fifo).unwrap())
    };
    let o = run(
        &[
            "convert",
            "-f",
            "latin1",
            "-t",
            "utf-8",
            "-o",
            fifo.to_str().unwrap(),
        ],
        b"caf\xE9",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(reader.join().unwrap(), "café".as_bytes());
    assert!(
        fs::metadata(&fifo).unwrap().file_type().is_fifo(),
        "still a FIFO"
    );
    assert!(temp_leftovers(dir.path()).is_empty());
    // --in-place refuses what it cannot replace.
    let o = run(
        &[
            "convert",
            "-f",
            "latin1",
            "-t",
            "utf-8",
            "--in-place",
            fifo.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("is not a regular file"),
        "{}",
        stderr(&o)
    );
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn in_place_refuses_the_same_file_twice() {
    let dir = tmp();
    let a = write(dir.path(), "a.txt", b"caf\xE9");
    let same = format!("{}/./a.txt", dir.path().display());
    let o = run(
        &[
            "convert",
            "-f",
            "latin1",
            "-t",
            "utf-8",
            "--in-place",
            a.to_str().unwrap(),
            &same,
        ],
        b"",
    );
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("given more than once"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read(&a).unwrap(), b"caf\xE9");
}

#[test]
fn interrupt_removes_the_temporary_file_and_keeps_the_target() {
    let dir = tmp();
    let out = write(dir.path(), "out.txt", b"precious");
    let mut child = bin()
        .args([
            "convert",
            "-f",
            "latin1",
            "-t",
            "utf-8",
            "-o",
            out.to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"some text, then the writer stalls")
        .unwrap();
    // Wait for the temporary file: the converter is now blocked reading stdin.
    let start = std::time::Instant::now();
    while temp_leftovers(dir.path()).is_empty() {
        assert!(start.elapsed().as_secs() < 10, "no temporary file appeared");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let o = child.wait_with_output().unwrap();
    drop(stdin);
    assert_eq!(code(&o), 130, "{}", stderr(&o));
    assert!(stderr(&o).contains("interrupted"));
    assert_eq!(fs::read(&out).unwrap(), b"precious");
    assert!(
        temp_leftovers(dir.path()).is_empty(),
        "{:?}",
        temp_leftovers(dir.path())
    );
}

#[test]
fn write_error_is_reported() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let o = run(
        &["convert", "-f", "latin1", "-t", "utf-8", "-o", "/dev/full"],
        b"caf\xE9",
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("cannot write to /dev/full: No space left on device"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn closed_stdout_ends_quietly() {
    let mut child = bin()
        .args(["convert", "-f", "latin1", "-t", "utf-8"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'x'; 65536];
        for _ in 0..1000 {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    let mut first = [0u8; 10];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(code(&o), 0);
    assert_eq!(stderr(&o), "", "no panic, no message");
}

#[test]
fn validate_goes_on_after_a_missing_file() {
    let dir = tmp();
    let good = write(dir.path(), "good.txt", b"fine");
    let o = run(
        &[
            "validate",
            "-f",
            "utf-8",
            "/nonexistent/x",
            good.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("cannot open /nonexistent/x"),
        "{}",
        stderr(&o)
    );
    assert!(stdout_str(&o).contains("good.txt: valid UTF-8 (4 bytes)"));
}

#[test]
fn list_explains_special_encodings() {
    let o = run(&["list", "iso-2022-kr"], b"");
    assert_eq!(code(&o), 0);
    assert!(stdout_str(&o).contains("is a label of replacement"));
    assert!(stdout_str(&o).contains("no encoder"));
    let o = run(&["list", "unicodefffe"], b"");
    assert!(stdout_str(&o).contains("UTF-16BE"));
    assert!(stdout_str(&o).contains("textcodec extension"));
}

#[test]
fn refuses_to_overwrite_stdin_redirected_from_the_target() {
    let dir = tmp();
    let a = write(dir.path(), "a.txt", b"caf\xE9");
    let o = bin()
        .args([
            "convert",
            "-f",
            "latin1",
            "-t",
            "utf-8",
            "-o",
            a.to_str().unwrap(),
        ])
        .stdin(Stdio::from(fs::File::open(&a).unwrap()))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("refusing to overwrite input file <stdin>"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read(&a).unwrap(), b"caf\xE9");
}
