//! Gives the shared library its soname, `libtextcodec.so.0`: the name `make install`
//! installs it under (with `libtextcodec.so` pointing to it), so programs linked with
//! `-ltextcodec` record the major version. The major version changes with any
//! incompatible change of the C ABI.

fn main() {
    let target = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target == "linux" || target == "android" || target.ends_with("bsd") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libtextcodec.so.0");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
