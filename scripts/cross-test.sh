#!/usr/bin/env bash
# Cross-builds the library's tests for another architecture and runs them under qemu-user.
#   scripts/cross-test.sh aarch64-unknown-linux-gnu [cargo test args…]
#   scripts/cross-test.sh s390x-unknown-linux-gnu    (big-endian)
# Needs: rustup target add <target>; Debian's qemu-user and gcc-<arch>-linux-gnu
# (.ci/extra.d/cross.sh installs them). Extra arguments go to `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/cross-test.sh TARGET [cargo test args…]}
shift
arch=${target%%-*}
env_target=$(echo "$target" | tr 'a-z-' 'A-Z_')
export "CARGO_TARGET_${env_target}_LINKER=${arch}-linux-gnu-gcc"
export "CARGO_TARGET_${env_target}_RUNNER=qemu-${arch} -L /usr/${arch}-linux-gnu"
exec cargo test -p textcodec --lib --target "$target" --locked "$@"
