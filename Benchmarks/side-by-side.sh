#!/usr/bin/env bash
# Side by side on one machine: mart-holiday's `run` and a Scrapy + lxml spider set
# (Benchmarks/scrapy/marts.py) over the same generated sites, served by the same local server,
# one after the other. Prints the CPU seconds (user + system) of each.
#
#   bash Benchmarks/side-by-side.sh [branches]      # default 10000
#
# Needs Python 3 with pip; scrapy and lxml are installed from Benchmarks/scrapy/requirements.txt
# when missing. Brands: the E-mart family
# (이마트, 트레이더스, 노브랜드, 에브리데이) and Homeplus (홈플러스, 익스프레스), the brands the spiders cover.
set -euo pipefail
cd "$(dirname "$0")/.."

SCALE="${1:-10000}"
WORK="${WORK:-$(mktemp -d -t side-by-side.XXXXXX)}"
mkdir -p "$WORK"
BIN=.build/release/mart-holiday
TIME=/usr/bin/time

# The spiders' packages, at the versions measured, installed when missing.
bash Benchmarks/scrapy/install.sh
[ -x "$TIME" ] || { echo "needs GNU time at $TIME: bash scripts/setup.sh installs it" >&2; exit 1; }
swift build -c release --product mart-holiday >&2

echo "generating the sites for $SCALE branches in $WORK" >&2
"$BIN" bench --scale "$SCALE" --keep "$WORK/bench" >"$WORK/bench.txt"
RECORDING="$WORK/bench/$SCALE/recording"
AS_OF=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['recordedOn'])" "$RECORDING/replay.json")

"$BIN" bench-serve "$RECORDING" >"$WORK/origins.txt" 2>"$WORK/serve.txt" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$WORK/origins.txt" ] && break; sleep 0.1; done
base() { awk -v origin="$1" '$1 == origin { print $2 }' "$WORK/origins.txt"; }
EMART=$(base https://store.emart.com)
HOMEPLUS=$(base https://my.homeplus.co.kr)

BRANDS=(emart traders nobrand everyday homeplus homeplus-express)
ARGS=()
for brand in "${BRANDS[@]}"; do ARGS+=(--brand "$brand"); done
for brand in emart traders nobrand everyday; do ARGS+=(--source "$brand=$EMART"); done
for brand in homeplus homeplus-express; do ARGS+=(--source "$brand=$HOMEPLUS"); done

echo "mart-holiday run" >&2
$TIME -f "%U %S %e %M" -o "$WORK/ours.time" "$BIN" run --output "$WORK/ours/output" --state "$WORK/ours/state" \
  --as-of "$AS_OF" --request-delay 0 --ignore-robots "${ARGS[@]}" >"$WORK/ours.log" 2>&1

echo "scrapy + lxml" >&2
$TIME -f "%U %S %e %M" -o "$WORK/scrapy.time" python3 Benchmarks/scrapy/marts.py --emart "$EMART" \
  --homeplus "$HOMEPLUS" --as-of "$AS_OF" --output "$WORK/scrapy-branches.json" >"$WORK/scrapy.log" 2>&1

kill -INT $SERVER
wait $SERVER 2>/dev/null || true
trap - EXIT

OURS_BRANCHES=$(python3 -c "
import json,sys
out=sys.argv[1]
latest=json.load(open(out+'/latest.json'))
print(len(json.load(open(out+'/'+latest['bundle']+'/branches.json'))['branches']))" "$WORK/ours/output")
SCRAPY_BRANCHES=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['branches']))" \
  "$WORK/scrapy-branches.json")
REQUESTS=$(find "$RECORDING/store.emart.com" "$RECORDING/my.homeplus.co.kr" -name '*.exchange.json' | wc -l)

python3 - "$WORK" "$OURS_BRANCHES" "$SCRAPY_BRANCHES" "$REQUESTS" <<'PY'
import sys
work, ours_branches, scrapy_branches, requests = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
def read(name):
    user, system, wall, rss = open(f"{work}/{name}.time").read().split()[-4:]
    return float(user) + float(system), float(wall), int(rss) / 1024
ours, scrapy = read("ours"), read("scrapy")
print(f"recorded exchanges of the two sites: {requests}")
print(f"{'':24}{'branches':>9}{'CPU s':>9}{'wall s':>9}{'peak MB':>9}")
print(f"{'mart-holiday run':24}{ours_branches:>9}{ours[0]:>9.2f}{ours[1]:>9.2f}{ours[2]:>9.0f}")
print(f"{'scrapy + lxml':24}{scrapy_branches:>9}{scrapy[0]:>9.2f}{scrapy[1]:>9.2f}{scrapy[2]:>9.0f}")
print(f"CPU ratio (scrapy / mart-holiday): {scrapy[0] / ours[0]:.1f}x")
PY
cat "$WORK/serve.txt" >&2
echo "work directory: $WORK" >&2
