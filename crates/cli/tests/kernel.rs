//! `TEXTCODEC_KERNEL` in the CLI: an unknown value is refused, `--version` and
//! `list --kernels` show the level in use.

use std::process::{Command, Output};

use serde_json::Value;

/// The binary with `TEXTCODEC_KERNEL` set to `level`, or removed.
fn textcodec(level: Option<&str>, args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_textcodec"));
    match level {
        Some(level) => c.env("TEXTCODEC_KERNEL", level),
        None => c.env_remove("TEXTCODEC_KERNEL"),
    };
    c.args(args).output().expect("run textcodec")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The levels of this target and CPU, from the library the binary links (they do not
/// depend on the environment).
fn levels() -> (&'static [&'static str], &'static [&'static str]) {
    let info = textcodec::kernel_info();
    (info.levels, info.supported)
}

fn best() -> &'static str {
    levels().1.last().expect("scalar at least")
}

fn version_line(kernel: &str) -> String {
    format!(
        "textcodec {} (kernel: {kernel})\n",
        env!("CARGO_PKG_VERSION")
    )
}

#[test]
fn an_unknown_value_is_a_usage_error_naming_it_and_the_accepted_names() {
    let accepted = levels().0.join(", ");
    for value in ["avx", "AVX2", "sse4.2", "fastest"] {
        for args in [
            &["--version"][..],
            &["list", "--kernels"],
            &["convert", "-f", "latin1", "-t", "utf-8", "/dev/null"],
        ] {
            let o = textcodec(Some(value), args);
            assert_eq!(o.status.code(), Some(2), "{value} {args:?}");
            assert!(
                o.stdout.is_empty(),
                "{value} {args:?}: refused before any output"
            );
            let message = stderr(&o);
            assert!(
                message.starts_with("textcodec: error: TEXTCODEC_KERNEL=")
                    && message.contains(&format!("{value:?}"))
                    && message.contains(&format!("accepted: {accepted} ")),
                "{value} {args:?}: {message}"
            );
        }
    }
    #[cfg(target_arch = "x86_64")]
    assert!(stderr(&textcodec(Some("avx"), &["--version"]))
        .contains("accepted: scalar, sse2, sse4, avx2, avx512 "));
}

#[test]
fn an_empty_value_counts_as_unset() {
    let o = textcodec(Some(""), &["--version"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), version_line(best()));
}

#[test]
fn version_shows_the_kernel_level_in_use() {
    let o = textcodec(None, &["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), version_line(best()));
    let short = textcodec(None, &["-V"]);
    assert_eq!(short.stdout, o.stdout);
}

#[test]
fn a_forced_level_is_honoured() {
    for &level in levels().1 {
        let o = textcodec(Some(level), &["--version"]);
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(
            stdout(&o),
            version_line(&format!("{level}, set by TEXTCODEC_KERNEL"))
        );
    }
    let o = textcodec(Some("scalar"), &["--version"]);
    assert!(stdout(&o).contains("(kernel: scalar, "), "{}", stdout(&o));
}

#[test]
fn a_level_the_cpu_lacks_is_capped_to_the_best_below() {
    let (all, supported) = levels();
    let Some(&lacking) = all.get(supported.len()) else {
        return; // this CPU has every level
    };
    let o = textcodec(Some(lacking), &["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        version_line(&format!(
            "{}, TEXTCODEC_KERNEL={lacking} capped: this CPU lacks {lacking}",
            best()
        ))
    );
}

#[test]
fn list_kernels_marks_the_supported_and_active_levels() {
    let (all, supported) = levels();
    let o = textcodec(None, &["list", "--kernels"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), all.len(), "{out}");
    let width = all.iter().map(|l| l.len()).max().unwrap();
    for (line, level) in lines.iter().zip(all) {
        let status = if supported.contains(level) {
            "supported"
        } else {
            "not supported by this CPU"
        };
        let active = if *level == best() { ", active" } else { "" };
        assert_eq!(*line, format!("{level:width$}  {status}{active}"));
    }

    let o = textcodec(Some("scalar"), &["list", "--kernels"]);
    let out = stdout(&o);
    let active: Vec<&str> = out.lines().filter(|l| l.contains("active")).collect();
    assert_eq!(
        active,
        [format!(
            "{:width$}  supported, active (set by TEXTCODEC_KERNEL)",
            "scalar"
        )]
    );
}

#[test]
fn list_kernels_json() {
    let (all, supported) = levels();
    let o = textcodec(Some("scalar"), &["list", "--kernels", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let v = v.as_array().unwrap();
    assert_eq!(v.len(), all.len());
    for (entry, level) in v.iter().zip(all) {
        assert_eq!(entry["name"], *level);
        assert_eq!(entry["supported"], supported.contains(level));
        assert_eq!(entry["active"], *level == "scalar");
    }
}

#[test]
fn list_without_the_flag_is_unchanged_and_kernels_takes_no_label() {
    let o = textcodec(None, &["list"]);
    assert_eq!(stdout(&o).lines().count(), 40);
    assert!(!stdout(&o).contains("scalar"));
    let o = textcodec(None, &["list", "--kernels", "latin1"]);
    assert_eq!(o.status.code(), Some(2));
}
