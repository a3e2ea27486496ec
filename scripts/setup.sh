#!/usr/bin/env bash
# Installs the C libraries the package links against, when they are missing.
# Debian/Ubuntu: libcurl, libxml2, SQLite, OpenSSL's libcrypto, zlib, libdeflate, PROJ and jemalloc development files
# (and PROJ's cs2cs, against which the tests check the register's coordinates), the
# Python packages the test suite checks bundles with (scripts/requirements-test.txt), and
# Chromium, in which the test suite renders report.html (without it that test is skipped), with a
# Korean font (Noto CJK).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
pkg-config --exists libcurl 2>/dev/null || missing+=(libcurl4-openssl-dev)
pkg-config --exists libxml-2.0 2>/dev/null || missing+=(libxml2-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
pkg-config --exists libcrypto 2>/dev/null || missing+=(libssl-dev)
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
pkg-config --exists libdeflate 2>/dev/null || missing+=(libdeflate-dev)
pkg-config --exists jemalloc 2>/dev/null || missing+=(libjemalloc-dev)
pkg-config --exists proj 2>/dev/null || missing+=(libproj-dev)
command -v cs2cs >/dev/null 2>&1 || missing+=(proj-bin)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
# OpenSSL's command line, with which the HTTPS tests and Benchmarks/latency.sh make a test CA.
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
# GNU time, with which Benchmarks/side-by-side.sh measures both sides.
[ -x /usr/bin/time ] || missing+=(time)

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The test suite validates bundles against schemas/ (jsonschema), parses calendars (icalendar)
# and reads run archives with warcio.
if ! python3 -c 'import jsonschema, referencing, icalendar, warcio' 2>/dev/null; then
  echo "installing: $(tr '\n' ' ' < scripts/requirements-test.txt)"
  python3 -m pip install --quiet -r scripts/requirements-test.txt 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages -r scripts/requirements-test.txt
fi
# The browser test of report.html; a machine that cannot install it skips that test, saying so.
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  echo "installing: chromium"
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null; } \
    || echo "chromium could not be installed: the browser test of report.html will be skipped" >&2
fi
# A Korean font, without which Chromium draws every Hangul syllable of report.html as a box (the
# browser test checks that it does not, and scripts/report-screenshot.sh needs it too).
if [ -z "$(fc-list :lang=ko family 2>/dev/null)" ]; then
  echo "installing: fonts-noto-cjk"
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq fonts-noto-cjk >/dev/null; } \
    || echo "fonts-noto-cjk could not be installed: report.html will show Hangul as boxes in Chromium" >&2
fi
command -v swift >/dev/null 2>&1 || { echo "Swift 6 is required (https://www.swift.org/install/)" >&2; exit 1; }
