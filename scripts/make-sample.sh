#!/usr/bin/env bash
# Makes docs/sample/ again: the output of a replay of two brands of the recorded fixtures
# (이마트 and 메가마트), without report.json and report.html (they hold the run's times). The tests check that
# docs/sample/ is exactly what the fixtures produce; run this after a change of the bundle format.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${MART_HOLIDAY:-$(swift build --show-bin-path)/mart-holiday}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" run --replay fixtures/web --brand emart --brand megamart --output "$work/output" --state "$work/state" \
  >/dev/null
rm -f "$work/output/report.json" "$work/output/report.html"
rm -rf docs/sample
cp -R "$work/output" docs/sample
echo "docs/sample: $(find docs/sample -type f | wc -l) files"
