//! Encoding-detection accuracy and speed of the Rust detectors (issue #13, part 4).
//!
//! Reads the labelled samples that `scripts/make-detect-eval.py` writes to `detect-eval/`
//! (gitignored), runs each detector on every sample, and scores a guess as right when
//! decoding the sample with the guessed encoding gives exactly the text that decoding it
//! with the true encoding gives (textcodec's decoders, replacement mode, no BOM handling,
//! for both). So windows-1252 is right for ISO-8859-15 text that has no €/Š/Ž/Œ/Ÿ, and GBK
//! is right for gb18030.
//!
//! Detectors:
//! - `chardetng` (crates.io): `EncodingDetector::new()`, `feed(bytes, true)`,
//!   `guess(None, true)` (no top-level domain, UTF-8 allowed); its encoding_rs encoding is
//!   mapped to textcodec's by name.
//! - `textcodec`: `textcodec::detect::detect(bytes, &Hints::new())`, only with
//!   `--features textcodec-detect` and when textcodec has the `detect` module (`build.rs`
//!   sets `cfg(textcodec_has_detect)`; the detector is not on this branch yet).
//!
//! Output: `target/detect-eval/results-rust.tsv` (one line per detector and sample:
//! detector, sample id, guess, 1/0) and `target/detect-eval/speed-rust.tsv` (detector,
//! input, bytes, seconds, MB/s); `scripts/detect-report.py` turns these and the Python
//! peers' files into the markdown tables of BENCHMARKS.md. Throughput is bytes of input
//! per second of the thread's CPU time, detector calls only (one `detect` per sample, the
//! detector created inside the timed loop), median of `--rounds` passes.
//!
//! With textcodec, `details-textcodec.tsv` also has each guess's margin, confidence,
//! language and binary verdict (for `scripts/fit-detect-calibration.py`), and
//! `--samples FILE` reads another sample file (e.g. `detect-calibration/samples.tsv`)
//! and only writes those details (`--details-only`).
//!
//! Run: `cargo bench -p textcodec-bench --bench detect_accuracy [-- --rounds N --dir DIR]`.

use std::fs;
use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use cpu_time::ThreadTime;
use textcodec::{decode_without_bom, Encoding};

struct Sample {
    id: String,
    encoding: Encoding,
    bytes: Vec<u8>,
}

type Detector = (&'static str, fn(&[u8]) -> Option<Encoding>);

fn chardetng_guess(bytes: &[u8]) -> Option<Encoding> {
    let mut det = chardetng::EncodingDetector::new();
    det.feed(bytes, true);
    let e = det.guess(None, true);
    Encoding::for_label(e.name().as_bytes())
}

#[cfg(all(feature = "textcodec-detect", textcodec_has_detect))]
fn textcodec_guess(bytes: &[u8]) -> Option<Encoding> {
    let guess = textcodec::detect::detect(bytes, &textcodec::detect::Hints::new());
    Some(guess.encoding)
}

/// One line of `details-textcodec.tsv` per sample.
#[cfg(all(feature = "textcodec-detect", textcodec_has_detect))]
fn write_details(path: &Path, samples: &[Sample], truth: &[String]) {
    use textcodec::detect::{detect, Hints};
    let mut out = fs::File::create(path).expect("details file");
    writeln!(
        out,
        "id\tguess\tcorrect\tscore\tmargin\tconfidence\tlanguage\tbinary\tascii_only\tsecond\tsecond_correct\tsecond_confidence"
    )
    .unwrap();
    let hints = Hints::new();
    for (s, want) in samples.iter().zip(truth) {
        let mut detector = textcodec::detect::Detector::new();
        detector.feed(&s.bytes, true);
        let g = detector.guess(&hints);
        debug_assert_eq!(g, detect(&s.bytes, &hints));
        let right = |e: Encoding| decode_without_bom(e, &s.bytes).0 == *want;
        // The best candidate that decodes differently from the guess.
        let ranking = detector.ranking(&hints);
        let guess_text = decode_without_bom(g.encoding, &s.bytes).0;
        let second = ranking
            .iter()
            .find(|c| !c.disqualified && decode_without_bom(c.encoding, &s.bytes).0 != guess_text);
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            s.id,
            g.encoding.name(),
            right(g.encoding) as u8,
            g.score,
            g.margin,
            g.confidence,
            g.language.map_or("-", |l| l.code()),
            g.binary.map_or("-", |b| b.name()),
            g.ascii_only as u8,
            second.map_or("-", |c| c.encoding.name()),
            second.is_some_and(|c| right(c.encoding)) as u8,
            second.map_or(0.0, |c| c.confidence),
        )
        .unwrap();
    }
}

fn detectors() -> Vec<Detector> {
    #[allow(unused_mut)]
    let mut v: Vec<Detector> = vec![("chardetng", chardetng_guess)];
    #[cfg(all(feature = "textcodec-detect", textcodec_has_detect))]
    v.insert(0, ("textcodec", textcodec_guess));
    #[cfg(all(feature = "textcodec-detect", not(textcodec_has_detect)))]
    eprintln!("--features textcodec-detect: this checkout's textcodec has no `detect` module yet");
    v
}

fn hex(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    (0..b.len() / 2)
        .map(|i| {
            let d = |c: u8| (c as char).to_digit(16).expect("hex digit") as u8;
            (d(b[2 * i]) << 4) | d(b[2 * i + 1])
        })
        .collect()
}

fn load(path: &Path) -> Vec<Sample> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!(
            "{}: {e}\nRun `python scripts/make-detect-eval.py` first (see BENCHMARKS.md, \
             \"Detection accuracy\").",
            path.display()
        );
        std::process::exit(0)
    });
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (c_id, c_enc, c_hex) = (col("id"), col("encoding"), col("hex"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Sample {
                id: f[c_id].to_string(),
                encoding: Encoding::for_label(f[c_enc].as_bytes()).expect(f[c_enc]),
                bytes: hex(f[c_hex]),
            }
        })
        .collect()
}

fn time_pass(det: fn(&[u8]) -> Option<Encoding>, samples: &[Sample]) -> Duration {
    let t = ThreadTime::now();
    for s in samples {
        black_box(det(black_box(&s.bytes)));
    }
    t.elapsed()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../detect-eval");
    let mut out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/detect-eval");
    let mut rounds = 5usize;
    let mut samples_file: Option<PathBuf> = None;
    let mut details_only = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--dir" => dir = args.next().expect("--dir DIR").into(),
            "--out" => out = args.next().expect("--out DIR").into(),
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--rounds N")
            }
            "--samples" => samples_file = Some(args.next().expect("--samples FILE").into()),
            "--details-only" => details_only = true,
            "--bench" => {}
            other => eprintln!("ignoring argument {other}"),
        }
    }
    let samples = load(&samples_file.unwrap_or_else(|| dir.join("samples.tsv")));
    let large = if details_only {
        Vec::new()
    } else {
        load(&dir.join("large.tsv"))
    };
    fs::create_dir_all(&out).expect("create output dir");
    eprintln!("{} samples, {} large inputs", samples.len(), large.len());

    // The text each sample stands for: its bytes decoded with the true encoding.
    let truth: Vec<String> = samples
        .iter()
        .map(|s| {
            let (text, errors) = decode_without_bom(s.encoding, &s.bytes);
            assert!(
                !errors,
                "{}: the true encoding does not decode it cleanly",
                s.id
            );
            text.into_owned()
        })
        .collect();

    #[cfg(all(feature = "textcodec-detect", textcodec_has_detect))]
    write_details(&out.join("details-textcodec.tsv"), &samples, &truth);
    if details_only {
        eprintln!("wrote {}", out.join("details-textcodec.tsv").display());
        return;
    }
    let mut results = fs::File::create(out.join("results-rust.tsv")).expect("results file");
    writeln!(results, "detector\tid\tguess\tcorrect").unwrap();
    let mut speed = fs::File::create(out.join("speed-rust.tsv")).expect("speed file");
    writeln!(speed, "detector\tinput\tbytes\tseconds\tmbps").unwrap();
    let total_bytes: usize = samples.iter().map(|s| s.bytes.len()).sum();

    for (name, det) in detectors() {
        let mut right = 0usize;
        for (s, want) in samples.iter().zip(&truth) {
            let guess = det(&s.bytes);
            let ok = guess.is_some_and(|g| decode_without_bom(g, &s.bytes).0 == *want);
            right += ok as usize;
            let g = guess.map_or("-", |g| g.name());
            writeln!(results, "{name}\t{}\t{g}\t{}", s.id, ok as u8).unwrap();
        }
        let secs = median(
            (0..rounds)
                .map(|_| time_pass(det, &samples).as_secs_f64())
                .collect(),
        );
        let mbps = total_bytes as f64 / secs / 1e6;
        writeln!(
            speed,
            "{name}\tall samples\t{total_bytes}\t{secs:.6}\t{mbps:.2}"
        )
        .unwrap();
        eprintln!(
            "{name}: {right}/{} right ({:.1} %), {mbps:.1} MB/s over all samples",
            samples.len(),
            100.0 * right as f64 / samples.len() as f64
        );
        for l in &large {
            let secs = median(
                (0..rounds)
                    .map(|_| time_pass(det, std::slice::from_ref(l)).as_secs_f64())
                    .collect(),
            );
            let mbps = l.bytes.len() as f64 / secs / 1e6;
            let g = det(&l.bytes).map_or("-", |g| g.name());
            writeln!(
                speed,
                "{name}\t{}\t{}\t{secs:.6}\t{mbps:.2}",
                l.id,
                l.bytes.len()
            )
            .unwrap();
            eprintln!(
                "{name}: {} ({} bytes): {mbps:.1} MB/s, guess {g}",
                l.id,
                l.bytes.len()
            );
        }
    }
    eprintln!("wrote {}", out.display());
}
