#!/usr/bin/env bash
# Quick start: installs what is missing, builds, and runs the ingestion over the recorded
# brand pages in fixtures/web, writing output/latest.json and a bundle under output/bundles/.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
swift build --product mart-holiday
"$(swift build --show-bin-path)/mart-holiday" run --replay fixtures/web --output output "$@"
