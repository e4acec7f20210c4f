//! Developer commands for the textcodec workspace.
//!
//! `cargo xtask gen [--check] [--spec DIR]` turns the Encoding Standard's index files
//! (`../shared/spec/indexes/` by default) into the compact Rust tables the library
//! compiles in. With `--check` nothing is written: the command fails if any committed
//! file differs from what the generator would write (CI runs this).
//!
//! `cargo xtask cheader [--check]` writes (or checks) the C API's header with cbindgen.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod cheader;
mod detect_model;
mod gen;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut check = false;
    let mut spec: Option<PathBuf> = None;
    let mut command: Option<String> = None;
    let mut corpus: Option<PathBuf> = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--check" => check = true,
            "--spec" => match it.next() {
                Some(dir) => spec = Some(PathBuf::from(dir)),
                None => return usage("--spec needs a directory"),
            },
            "--corpus" => match it.next() {
                Some(dir) => corpus = Some(PathBuf::from(dir)),
                None => return usage("--corpus needs a directory"),
            },
            "-h" | "--help" => return usage(""),
            other if command.is_none() => command = Some(other.to_string()),
            other => return usage(&format!("unexpected argument {other:?}")),
        }
    }
    let root = workspace_root();
    let spec = spec.unwrap_or_else(|| root.join("../shared/spec/indexes"));
    match command.as_deref() {
        Some("gen") => match run_gen(&root, &spec, check) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("xtask gen: {e}");
                ExitCode::FAILURE
            }
        },
        Some("gen-detect") => {
            let corpus = corpus.unwrap_or_else(|| root.join("detect-corpus"));
            match detect_model::run(&root, &corpus, check) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("xtask gen-detect: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some("cheader") => match cheader::run(&root, check) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("xtask cheader: {e}");
                ExitCode::FAILURE
            }
        },
        _ => usage("missing command"),
    }
}

fn usage(problem: &str) -> ExitCode {
    if !problem.is_empty() {
        eprintln!("error: {problem}");
    }
    eprintln!("usage: cargo xtask gen [--check] [--spec DIR]");
    eprintln!("  gen      regenerate every @generated table from the Standard's index files");
    eprintln!("  gen-detect [--check] [--corpus DIR]  the detector's model from detect-corpus/");
    eprintln!(
        "  cheader [--check]  crates/textcodec-c/include/textcodec.h from the C API (cbindgen)"
    );
    eprintln!("  --check  write nothing; fail if a committed file is out of date");
    eprintln!("  --spec   directory holding index-*.txt and encodings.json");
    eprintln!("           (default: ../shared/spec/indexes beside the workspace)");
    if problem.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}

fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(Path::to_path_buf).unwrap_or(manifest)
}

fn run_gen(root: &Path, spec: &Path, check: bool) -> Result<(), String> {
    if !spec.join("encodings.json").is_file() {
        return Err(format!(
            "{} has no encodings.json: pass --spec DIR pointing at the Standard's indexes",
            spec.display()
        ));
    }
    let files: BTreeMap<PathBuf, String> = gen::generate_all(spec)?
        .into_iter()
        .map(|(rel, text)| (root.join(rel), text))
        .collect();
    let mut stale = Vec::new();
    for (path, text) in &files {
        let current = std::fs::read_to_string(path).unwrap_or_default();
        if current == *text {
            continue;
        }
        if check {
            stale.push(path.display().to_string());
        } else {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            println!("wrote {}", path.display());
        }
    }
    if !stale.is_empty() {
        let mut msg = String::from("generated files are out of date (run `cargo xtask gen`):");
        for s in stale {
            let _ = write!(msg, "\n  {s}");
        }
        return Err(msg);
    }
    if check {
        println!("all {} generated files are up to date", files.len());
    }
    Ok(())
}
