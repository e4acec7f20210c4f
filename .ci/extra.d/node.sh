#!/usr/bin/env bash
# Node.js module (bindings/node): install the pinned dev dependencies, build the native
# addon in release mode, run its `node --test` suite. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/../../bindings/node"

fail() { echo "node.sh: FAILED: $*" >&2; exit 1; }

command -v node >/dev/null || fail "node is not installed (Node.js >= 20 is required)"
command -v npm >/dev/null || fail "npm is not installed"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || fail "Node.js >= 20 required, found $(node --version)"
echo "node $(node --version), npm $(npm --version)"

echo "--- npm ci"
npm ci --no-audit --no-fund --loglevel=error || fail "npm ci"

echo "--- npm run build (release addon)"
rm -f textcodec.node
npm run build || fail "building the addon (npm run build)"
[ -f textcodec.node ] || fail "npm run build did not produce textcodec.node"

echo "--- npm test"
npm test || fail "node --test (npm test)"
