#!/usr/bin/env bash
# Formats the Swift sources in place with the toolchain's swift-format and .swift-format,
# then lints them. `scripts/format.sh --check` only lints (non-zero exit on findings).
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests Benchmarks Examples)
if [ "${1:-}" != "--check" ]; then
  swift format format --in-place --recursive "${paths[@]}"
fi
swift format lint --strict --recursive "${paths[@]}"
