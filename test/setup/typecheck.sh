#!/usr/bin/env bash
# The typecheck stage of `npm test` (strict TypeScript over src, test and bench), with its
# duration: CI prints how long each stage takes.
set -euo pipefail
cd "$(dirname "$0")/../.."
t0=$SECONDS
npx --no-install tsc -p . --noEmit
echo "::: typecheck ($((SECONDS - t0)) s)"
