#!/usr/bin/env bash
# The library's tests on aarch64 (NEON kernels) and on big-endian s390x, cross-built and
# run under qemu-user (issue #16). Installs what it needs (idempotent): Debian's qemu-user
# and cross gcc packages, the rustup targets.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "cross.sh: FAILED: $*" >&2; exit 1; }
targets="aarch64-unknown-linux-gnu s390x-unknown-linux-gnu"

need=""
for arch in aarch64 s390x; do
  command -v "qemu-$arch" >/dev/null || need="$need qemu-user"
  command -v "$arch-linux-gnu-gcc" >/dev/null || need="$need gcc-$arch-linux-gnu libc6-dev-${arch/aarch64/arm64}-cross"
done
if [ -n "$need" ]; then
  echo "--- apt-get install$need"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq || fail "apt-get update"
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $need >/dev/null \
    || fail "apt-get install$need"
fi
# shellcheck disable=SC2086
rustup target add $targets >/dev/null 2>&1 || fail "rustup target add $targets"

for target in $targets; do
  # The kernels and dispatch arms are `cfg`'d per architecture: lint each build.
  echo "--- clippy, $target"
  cargo clippy -p textcodec --target "$target" --all-targets --locked -q -- -D warnings \
    || fail "clippy on $target"
  echo "--- $target (qemu-user)"
  scripts/cross-test.sh "$target" -q || fail "tests on $target"
done
