#!/usr/bin/env bash
# Fetching over a network, on one machine: mart-holiday's `run` and the Scrapy + lxml spider set
# (Benchmarks/scrapy/marts.py) over generated sites served by `bench-serve`, through a loopback
# proxy adding latency (Benchmarks/latency-proxy.py), at 0 and 40 ms of round trip, over plain
# HTTP and over HTTPS (the proxy terminating TLS 1.3 with a certificate of a test CA made here;
# `run` trusts it through --ca-bundle, given the system's bundle with the test CA appended, so
# that the run parses as many certificates as it would against the real sites; the system's
# trust store is not touched). Prints, for each run, the wall time, the CPU time (user +
# system), the HTTP requests, the TCP (over HTTPS: TLS) connections opened and the TLS sessions
# resumed, then checks the targets at 40 ms:
#
#   - 8 per host, no delay: `run` no slower than the spiders over the same pages, over HTTP and
#     over HTTPS;
#   - at most one connection per four requests, over HTTP and over HTTPS;
#   - Homeplus and Express alone: at most one request per store and 15 more where the store
#     pages carry the days, and at most 12 requests where they are client-rendered shells (a
#     copy of the sites with every store page replaced by one, served by a second server);
#   - a run over HTTPS at most 1.5 times the CPU time of the same run over HTTP;
#   - 1 per host with a delay D (HTTP): the run within 4 % (+2 s) of the sum of its delays.
#
#   bash Benchmarks/latency.sh [branches]          # default 300; DELAY=0.25 sets D in seconds
#
# CONFIGURATION=debug measures the debug build instead of the release one (quicker to build;
# the network figures barely change, the CPU ones do).
#
# Exits 1 when a target is missed. Everything stays on 127.0.0.1. Needs Python 3 with pip
# (scrapy and lxml are installed from Benchmarks/scrapy/requirements.txt when missing) and GNU
# time and OpenSSL's command line (scripts/setup.sh installs both).
set -euo pipefail
cd "$(dirname "$0")/.."

SCALE="${1:-300}"
DELAY="${DELAY:-0.25}"
WORK="${WORK:-$(mktemp -d -t latency.XXXXXX)}"
mkdir -p "$WORK"
CONFIGURATION="${CONFIGURATION:-release}"
TIME=/usr/bin/time

# The spiders' packages, at the versions measured, installed when missing.
bash Benchmarks/scrapy/install.sh
[ -x "$TIME" ] || { echo "needs GNU time at $TIME: bash scripts/setup.sh installs it" >&2; exit 1; }
swift build -c "$CONFIGURATION" --product mart-holiday >&2
BIN="$(swift build -c "$CONFIGURATION" --show-bin-path)/mart-holiday"

# The test CA and the proxy's certificate for 127.0.0.1; what `run` trusts: the system's bundle
# and the test CA.
TLS="$WORK/tls"
mkdir -p "$TLS"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=latency test CA" \
  -keyout "$TLS/ca.key" -out "$TLS/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=127.0.0.1" \
  -keyout "$TLS/server.key" -out "$TLS/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$TLS/server.ext"
openssl x509 -req -in "$TLS/server.csr" -CA "$TLS/ca.pem" -CAkey "$TLS/ca.key" -CAcreateserial -days 2 \
  -extfile "$TLS/server.ext" -out "$TLS/server.pem" 2>/dev/null
SYSTEM_BUNDLE=/etc/ssl/certs/ca-certificates.crt
{ [ -r "$SYSTEM_BUNDLE" ] && cat "$SYSTEM_BUNDLE"; cat "$TLS/ca.pem"; } >"$TLS/trusted.pem"

echo "generating the sites for $SCALE branches in $WORK" >&2
"$BIN" bench --scale "$SCALE" --keep "$WORK/bench" >"$WORK/bench.txt"
RECORDING="$WORK/bench/$SCALE/recording"
AS_OF=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['recordedOn'])" "$RECORDING/replay.json")

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

"$BIN" bench-serve "$RECORDING" >"$WORK/origins.txt" 2>"$WORK/serve.txt" &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$WORK/origins.txt" ] && break; sleep 0.1; done

# The same sites with every Homeplus store page a client-rendered shell (what the site serves
# in 2026: a page that carries no store data), served by a second server.
SHELLS="$WORK/bench/$SCALE/shells"
rm -rf "$SHELLS"
cp -r "$RECORDING" "$SHELLS"
for page in "$SHELLS"/my.homeplus.co.kr/store_detail-*.body.html; do
  printf '%s\n' '<!DOCTYPE html><html lang="ko"><head><meta charset="UTF-8"><title>홈플러스</title>' \
    '<script src="/resources/js/store.js"></script></head><body><div id="app"></div></body></html>' >"$page"
done
"$BIN" bench-serve "$SHELLS" >"$WORK/shell-origins.txt" 2>"$WORK/shell-serve.txt" &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$WORK/shell-origins.txt" ] && break; sleep 0.1; done
ORIGINS="$WORK/origins.txt"
# The generated sites have no national register, and the spiders read none: the run's one
# register request goes straight to the server (not through the proxy, not counted) and gets a
# quick 404 there, where the real host, unreachable here, would cost retries with backoff.
REGISTER_BASE=$(awk 'NR == 1 { print $2 }' "$ORIGINS")

# Each measured command runs alone through a proxy of its own, so the counts are its own.
# The proxied base URL of an origin is $(via ORIGIN), over $SCHEME.
PROXY_MAP=""
SCHEME=http
via() {
  local port
  port=$(awk -v origin="$1" '$1 == origin { sub(".*:", "", $2); print $2 }' "$ORIGINS")
  echo "$SCHEME://127.0.0.1:$(awk -v port="$port" '$1 == port { print $2 }' "$PROXY_MAP")"
}
# start_proxy RTT_MS NAME: a proxy for every origin, speaking $SCHEME.
start_proxy() {
  local rtt=$1 name=$2 targets=() tls=()
  for port in $(awk '{ sub(".*:", "", $2); print $2 }' "$ORIGINS" | sort -u); do
    targets+=(--target "127.0.0.1:$port")
  done
  [ "$SCHEME" = https ] && tls=(--tls-cert "$TLS/server.pem" --tls-key "$TLS/server.key")
  PROXY_MAP="$WORK/$name.proxy"
  python3 Benchmarks/latency-proxy.py --one-way-ms "$(python3 -c "print($rtt / 2)")" "${targets[@]}" "${tls[@]}" \
    --stats "$WORK/$name.connections.json" >"$PROXY_MAP" &
  PROXY=$!
  PIDS+=($PROXY)
  for _ in $(seq 100); do grep -q '^ready$' "$PROXY_MAP" 2>/dev/null && break; sleep 0.1; done
}
stop_proxy() { kill -INT "$PROXY"; wait "$PROXY" 2>/dev/null || true; }

EMART_BRANDS=(emart traders nobrand everyday)
HOMEPLUS_BRANDS=(homeplus homeplus-express)
run_args() {
  # run_args BRAND...: --brand and --source for each brand, through the proxy.
  local args=()
  for brand in "$@"; do
    args+=(--brand "$brand")
    case "$brand" in
      emart | traders | nobrand | everyday) args+=(--source "$brand=$(via https://store.emart.com)") ;;
      homeplus | homeplus-express) args+=(--source "$brand=$(via https://my.homeplus.co.kr)") ;;
      lottemart | lotte-maxx | toysrus | grand-grocery | bottle-bunker)
        args+=(--source "$brand=$(via http://company.lottemart.com)") ;;
      costco) args+=(--source "$brand=$(via https://www.costco.co.kr)") ;;
      megamart) args+=(--source "$brand=$(via https://home.megamart.com)") ;;
      gs-thefresh) args+=(--source "$brand=$(via http://gsthefresh.gsretail.com)") ;;
      lotte-super) args+=(--source "$brand=$(via https://www.lotteon.com)") ;;
    esac
  done
  echo "${args[@]}"
}

ours() {
  # ours NAME MAX_PER_HOST DELAY BRAND...
  local name=$1 per_host=$2 delay=$3
  shift 3
  # shellcheck disable=SC2046
  $TIME -f "%U %S %e" -o "$WORK/$name.time" "$BIN" run --output "$WORK/$name/output" --state "$WORK/$name/state" \
    --as-of "$AS_OF" --max-per-host "$per_host" --request-delay "$delay" --ignore-robots \
    --ca-bundle "$TLS/trusted.pem" --source "register=$REGISTER_BASE" \
    $(run_args "$@") >"$WORK/$name.log" 2>&1 || { echo "$name failed: see $WORK/$name.log" >&2; exit 1; }
}

ALL_BRANDS=("${EMART_BRANDS[@]}" "${HOMEPLUS_BRANDS[@]}" lottemart lotte-maxx toysrus grand-grocery bottle-bunker
  costco megamart gs-thefresh lotte-super)
for SCHEME in http https; do
  for rtt in 0 40; do
    echo "$SCHEME, round trip $rtt ms" >&2
    start_proxy "$rtt" "ours-8-$SCHEME-$rtt"
    ours "ours-8-$SCHEME-$rtt" 8 0 "${EMART_BRANDS[@]}" "${HOMEPLUS_BRANDS[@]}"
    stop_proxy

    start_proxy "$rtt" "scrapy-$SCHEME-$rtt"
    $TIME -f "%U %S %e" -o "$WORK/scrapy-$SCHEME-$rtt.time" python3 Benchmarks/scrapy/marts.py \
      --emart "$(via https://store.emart.com)" --homeplus "$(via https://my.homeplus.co.kr)" \
      --as-of "$AS_OF" --output "$WORK/scrapy-$SCHEME-$rtt-branches.json" >"$WORK/scrapy-$SCHEME-$rtt.log" 2>&1
    stop_proxy

    # Homeplus and Express alone: one list and a page per store where the pages carry the days;
    # where they are shells, the list and the first pages only.
    start_proxy "$rtt" "ours-homeplus-$SCHEME-$rtt"
    ours "ours-homeplus-$SCHEME-$rtt" 8 0 "${HOMEPLUS_BRANDS[@]}"
    stop_proxy
    ORIGINS="$WORK/shell-origins.txt"
    start_proxy "$rtt" "ours-shells-$SCHEME-$rtt"
    ours "ours-shells-$SCHEME-$rtt" 8 0 "${HOMEPLUS_BRANDS[@]}"
    stop_proxy
    ORIGINS="$WORK/origins.txt"

    start_proxy "$rtt" "ours-all-8-$SCHEME-$rtt"
    ours "ours-all-8-$SCHEME-$rtt" 8 0 "${ALL_BRANDS[@]}"
    stop_proxy

    # The polite run measures delays, which TLS does not change: over HTTP only.
    if [ "$SCHEME" = http ]; then
      start_proxy "$rtt" "ours-polite-$SCHEME-$rtt"
      ours "ours-polite-$SCHEME-$rtt" 1 "$DELAY" "${HOMEPLUS_BRANDS[@]}"
      stop_proxy
    fi
  done
done

kill -INT "${PIDS[0]}" "${PIDS[1]}"
wait "${PIDS[0]}" "${PIDS[1]}" 2>/dev/null || true

status=0
python3 - "$WORK" "$DELAY" "$RECORDING" <<'PY' || status=$?
import glob, json, sys
work, delay, recording = sys.argv[1], float(sys.argv[2]), sys.argv[3]
# The Homeplus and Express stores of the sites: one store page each.
homeplus_stores = len(glob.glob(f"{recording}/my.homeplus.co.kr/store_detail-*.exchange.json"))

def measured(name):
    user, system, wall = open(f"{work}/{name}.time").read().split()[-3:]
    counts = json.load(open(f"{work}/{name}.connections.json"))
    return {"wall": float(wall), "cpu": float(user) + float(system), **counts}

rows = [
    ("run, E-mart + Homeplus, 8 per host, no delay", "ours-8", ("http", "https")),
    ("Scrapy + lxml, same pages", "scrapy", ("http", "https")),
    ("run, Homeplus + Express, 8 per host", "ours-homeplus", ("http", "https")),
    ("same, store pages are shells", "ours-shells", ("http", "https")),
    ("run, nine sources, 8 per host, no delay", "ours-all-8", ("http", "https")),
    (f"run, Homeplus, 1 per host, delay {delay:g} s", "ours-polite", ("http",)),
]
print(f"{'':46}{'scheme':>7}{'RTT ms':>7}{'wall s':>8}{'CPU s':>7}{'requests':>9}{'conn':>6}{'resumed':>8}")
results = {}
for label, key, schemes in rows:
    for scheme in schemes:
        for rtt in (0, 40):
            m = results[(key, scheme, rtt)] = measured(f"{key}-{scheme}-{rtt}")
            resumed = m.get("resumed", 0) if scheme == "https" else "-"
            print(f"{label:46}{scheme:>7}{rtt:>7}{m['wall']:>8.2f}{m['cpu']:>7.2f}{m['requests']:>9}"
                  f"{m['connections']:>6}{resumed:>8}")

checks = []
for scheme in ("http", "https"):
    ours, scrapy = results[("ours-8", scheme, 40)], results[("scrapy", scheme, 40)]
    checks.append((f"8 per host at 40 ms over {scheme}: run {ours['wall']:.2f} s <= Scrapy {scrapy['wall']:.2f} s",
                   ours["wall"] <= scrapy["wall"]))
for key, label, scheme in (("ours-8", "E-mart + Homeplus", "http"), ("ours-all-8", "nine sources", "http"),
                           ("ours-homeplus", "Homeplus + Express", "http"), ("ours-homeplus", "Homeplus + Express", "https"),
                           ("ours-polite", "polite Homeplus", "http"), ("ours-8", "E-mart + Homeplus", "https"),
                           ("ours-all-8", "nine sources", "https")):
    m = results[(key, scheme, 40)]
    kind = "TLS" if scheme == "https" else "TCP"
    checks.append((f"{kind} connections at 40 ms, {label}: {m['connections']} <= {m['requests']} requests / 4",
                   m["connections"] * 4 <= m["requests"]))
for scheme in ("http", "https"):
    pages, shells = results[("ours-homeplus", scheme, 40)], results[("ours-shells", scheme, 40)]
    stores = homeplus_stores
    checks.append((f"Homeplus + Express over {scheme}, {stores} stores whose pages carry the days: "
                   f"{pages['requests']} requests <= {stores} + 15", pages["requests"] <= stores + 15))
    checks.append((f"Homeplus + Express over {scheme}, store pages are shells: {shells['requests']} requests <= 12",
                   shells["requests"] <= 12))
for key, label in (("ours-8", "E-mart + Homeplus"), ("ours-all-8", "nine sources")):
    plain, tls = results[(key, "http", 40)], results[(key, "https", 40)]
    checks.append((f"CPU at 40 ms, {label}: HTTPS {tls['cpu']:.2f} s <= 1.5 x HTTP {plain['cpu']:.2f} s",
                   tls["cpu"] <= 1.5 * plain["cpu"]))
polite = results[("ours-polite", "http", 40)]
# Starts are `delay` plus a random jitter of up to half of it (mean a quarter) apart: the
# delays of n requests to the one host sum to (n - 1) * 1.25 * delay on average.
delays = (polite["requests"] - 1) * 1.25 * delay
limit = delays * 1.04 + 2
checks.append((f"1 per host at 40 ms: {polite['wall']:.2f} s <= {limit:.2f} s (delays {delays:.2f} s * 1.04 + 2 s)",
               polite["wall"] <= limit))
print()
for text, ok in checks:
    print(("met     " if ok else "MISSED  ") + text)
sys.exit(0 if all(ok for _, ok in checks) else 1)
PY
echo "unmatched requests: $(cat "$WORK/serve.txt")" >&2
echo "work directory: $WORK" >&2
exit $status
