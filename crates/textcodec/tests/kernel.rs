//! The SIMD kernel level a test run uses, as the library reports it (`kernel_info`), printed
//! for the CI runs that cannot ask the CPU themselves (.ci/extra.d/wasm.sh:
//! `cargo test -p textcodec --test kernel -- --nocapture`).

use textcodec::{kernel_info, KernelRequest};

#[test]
fn kernel_in_use() {
    let info = kernel_info();
    println!(
        "textcodec kernel: {} (TEXTCODEC_KERNEL: {:?}; levels of this build: {}; supported: {})",
        info.active,
        info.request,
        info.levels.join(" "),
        info.supported.join(" "),
    );
    assert!(info.supported.contains(&info.active), "{info:?}");
    // Without a (valid) request, the best level there is: a build for a SIMD level
    // (wasm32 with simd128, say) runs its kernels, not the scalar code.
    if matches!(
        info.request,
        KernelRequest::Unset | KernelRequest::Unknown(_)
    ) {
        assert_eq!(Some(&info.active), info.supported.last(), "{info:?}");
    }
}
