//! The encoding detector against chardetng, in one process, on the same samples.
//!
//! `cargo bench -p textcodec-bench --bench detect [-- CORPUS_DIR]` (default
//! `detect-corpus/`, written by `scripts/fetch-detect-training.py`).
//!
//! The samples are cut from the detector's TRAINING corpus, so the accuracy printed here
//! is a tuning aid and optimistic; the evaluation on other sources is the accuracy
//! benchmark's job. Throughput (one thread, fresh detector per sample, and one long
//! input fed in 64 KiB chunks) is meaningful: both detectors see the same bytes.

use std::path::{Path, PathBuf};
use std::time::Instant;

use textcodec::detect::{Detector, Hints};
use textcodec::{encode_or_fail, EncodeErrorMode, Encoder, Encoding};

const LENGTHS: [usize; 6] = [8, 16, 32, 64, 256, 1024];
const PER_BUCKET: usize = 60;

fn configs() -> Vec<(&'static [&'static str], &'static [Encoding])> {
    use Encoding::*;
    vec![
        (
            &["fr", "de", "es", "pt", "it", "sv", "da", "fi", "nl"],
            &[Windows1252, Utf8],
        ),
        (
            &["pl", "cs", "hu", "sk", "sl", "hr", "ro"],
            &[Windows1250, Iso8859_2],
        ),
        (&["ru"], &[Windows1251, Koi8R, Ibm866, Iso8859_5, Utf8]),
        (&["uk", "bg", "be"], &[Windows1251, Koi8U]),
        (&["el"], &[Windows1253, Iso8859_7]),
        (&["tr"], &[Windows1254]),
        (&["he"], &[Windows1255]),
        (&["ar", "fa"], &[Windows1256]),
        (&["lt", "lv", "et"], &[Windows1257]),
        (&["vi-1258"], &[Windows1258]),
        (&["th"], &[Windows874]),
        (&["ja"], &[ShiftJis, EucJp, Iso2022Jp, Utf8]),
        (&["zh_Hans"], &[Gbk]),
        (&["zh_Hant"], &[Big5]),
        (&["ko"], &[EucKr]),
    ]
}

fn encode_exact(text: &str, encoding: Encoding) -> Option<Vec<u8>> {
    if encoding == Encoding::Utf8 {
        return Some(text.as_bytes().to_vec());
    }
    let mut encoder = Encoder::new(encoding, EncodeErrorMode::Fatal)?;
    let mut out = Vec::new();
    encode_or_fail(&mut encoder, text, &mut out).ok()?;
    Some(out)
}

struct Sample {
    encoding: Encoding,
    chars: usize,
    bytes: Vec<u8>,
    text: String,
}

fn samples(corpus: &Path) -> Vec<Sample> {
    let mut out = Vec::new();
    for (langs, encodings) in configs() {
        let mut text = String::new();
        for lang in langs {
            if let Ok(t) = std::fs::read_to_string(corpus.join(format!("{lang}.txt"))) {
                // Every 7th line only, interleaved across the languages.
                text.extend(t.lines().step_by(7).map(|l| format!("{l} ")));
            }
        }
        let chars: Vec<char> = text.chars().collect();
        for &encoding in encodings {
            for &len in &LENGTHS {
                let mut n = 0;
                let mut start = 0;
                while n < PER_BUCKET && start + len <= chars.len() {
                    let piece: String = chars[start..start + len].iter().collect();
                    start += len * 3 + 1;
                    if piece.is_ascii() {
                        continue;
                    }
                    if let Some(bytes) = encode_exact(&piece, encoding) {
                        out.push(Sample {
                            encoding,
                            chars: len,
                            bytes,
                            text: piece,
                        });
                        n += 1;
                    }
                }
            }
        }
    }
    out
}

fn ours(bytes: &[u8]) -> Encoding {
    let mut d = Detector::new();
    d.feed(bytes, true);
    d.guess(&Hints::new()).encoding
}

fn chardetng(bytes: &[u8]) -> Encoding {
    let mut d = chardetng::EncodingDetector::new();
    d.feed(bytes, true);
    let e = d.guess(None, true);
    Encoding::for_label(e.name().as_bytes()).unwrap_or(Encoding::Windows1252)
}

fn right(sample: &Sample, guess: Encoding) -> bool {
    textcodec::decode_without_bom(guess, &sample.bytes).0 == sample.text
}

fn main() {
    let corpus = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../detect-corpus")));
    let samples = samples(&corpus);
    if samples.is_empty() {
        eprintln!(
            "no samples: run scripts/fetch-detect-training.py first ({})",
            corpus.display()
        );
        return;
    }
    type Detect = fn(&[u8]) -> Encoding;
    let detectors: [(&str, Detect); 2] = [("textcodec", ours), ("chardetng", chardetng)];
    println!(
        "accuracy on {} samples cut from the TRAINING corpus (tuning aid, optimistic)",
        samples.len()
    );
    print!("{:<12}", "length");
    for (name, _) in &detectors {
        print!("{name:>12}");
    }
    println!();
    for &len in &LENGTHS {
        print!("{len:<12}");
        for (_, f) in &detectors {
            let bucket: Vec<&Sample> = samples.iter().filter(|s| s.chars == len).collect();
            let ok = bucket.iter().filter(|s| right(s, f(&s.bytes))).count();
            print!("{:>11.1}%", 100.0 * ok as f64 / bucket.len() as f64);
        }
        println!();
    }
    let mut encodings: Vec<Encoding> = samples.iter().map(|s| s.encoding).collect();
    encodings.sort_by_key(|e| e.name());
    encodings.dedup();
    let verbose = std::env::args().any(|a| a == "--verbose");
    for e in encodings {
        print!("{:<12}", e.name());
        for (name, f) in &detectors {
            let bucket: Vec<&Sample> = samples.iter().filter(|s| s.encoding == e).collect();
            let mut wrong = std::collections::BTreeMap::<&str, usize>::new();
            let mut ok = 0;
            for s in &bucket {
                let g = f(&s.bytes);
                if right(s, g) {
                    ok += 1;
                } else {
                    *wrong.entry(g.name()).or_default() += 1;
                    if verbose
                        && *name == "textcodec"
                        && (wrong.values().sum::<usize>() == 1 || s.chars >= 256)
                    {
                        eprintln!(
                            "{} as {} ({} chars): {:?}",
                            e.name(),
                            g.name(),
                            s.chars,
                            s.text.chars().take(80).collect::<String>()
                        );
                        if s.chars >= 256 {
                            let path = std::env::temp_dir().join(format!(
                                "detect-fail-{}-{}-{}.bin",
                                e.name(),
                                g.name(),
                                s.chars
                            ));
                            let _ = std::fs::write(path, &s.bytes);
                        }
                    }
                }
            }
            print!("{:>11.1}%", 100.0 * ok as f64 / bucket.len() as f64);
            if verbose && *name == "textcodec" {
                print!(" {wrong:?}");
            }
        }
        println!();
    }
    // Throughput: every sample once per round, fresh detector each time.
    let total: usize = samples.iter().map(|s| s.bytes.len()).sum();
    println!(
        "\nthroughput, one thread ({} samples, {} bytes per round)",
        samples.len(),
        total
    );
    let mut rates = Vec::new();
    for (name, f) in &detectors {
        let start = Instant::now();
        let mut rounds = 0;
        while start.elapsed().as_secs_f64() < 2.0 {
            for s in &samples {
                std::hint::black_box(f(std::hint::black_box(&s.bytes)));
            }
            rounds += 1;
        }
        let mbs = (total * rounds) as f64 / start.elapsed().as_secs_f64() / 1e6;
        println!("{name:<12} {mbs:>8.1} MB/s (samples)");
        rates.push(mbs);
    }
    println!("ratio textcodec / chardetng: {:.2}", rates[0] / rates[1]);
    // One long input per family, fed in 64 KiB chunks, without stopping early.
    let mut long_rates = [0.0f64; 2];
    for enc in [
        Encoding::Windows1251,
        Encoding::ShiftJis,
        Encoding::Windows1252,
    ] {
        let text: Vec<u8> = samples
            .iter()
            .filter(|s| s.encoding == enc && s.chars == 1024)
            .flat_map(|s| s.bytes.iter().copied())
            .collect();
        let text: Vec<u8> = text.repeat((1 << 20) / text.len().max(1) + 1);
        let t0 = Instant::now();
        let mut d = Detector::new();
        let mut stopped = false;
        for chunk in text.chunks(65536) {
            stopped = d.feed(chunk, false);
            if stopped {
                break;
            }
        }
        let g = d.guess(&Hints::new());
        let a = d.bytes_examined() as f64 / t0.elapsed().as_secs_f64() / 1e6;
        let t0 = Instant::now();
        let mut c = chardetng::EncodingDetector::new();
        for chunk in text.chunks(65536) {
            c.feed(chunk, false);
        }
        let cg = c.guess(None, true);
        let b = text.len() as f64 / t0.elapsed().as_secs_f64() / 1e6;
        println!(
            "long {:<12} {:>6} KiB: textcodec {a:>7.1} MB/s over {} KiB examined (stopped early: {stopped}, {}), chardetng {b:>7.1} MB/s ({})",
            enc.name(),
            text.len() / 1024,
            d.bytes_examined() / 1024,
            g.encoding.name(),
            cg.name()
        );
        long_rates[0] += a;
        long_rates[1] += b;
    }
}
