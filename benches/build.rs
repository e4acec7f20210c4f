//! Tells the `detect` bench whether this checkout's textcodec has the `detect` module
//! (issue #13): `cfg(textcodec_has_detect)`. The bench runs `textcodec::detect` only with
//! both that cfg and `--features textcodec-detect`, so `--all-features` builds (CI's
//! clippy) compile before the detector is merged.

fn main() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/textcodec/src");
    println!("cargo::rerun-if-changed={}", src.display());
    println!("cargo::rustc-check-cfg=cfg(textcodec_has_detect)");
    if src.join("detect/mod.rs").is_file() || src.join("detect.rs").is_file() {
        println!("cargo::rustc-cfg=textcodec_has_detect");
    }
}
