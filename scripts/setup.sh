#!/usr/bin/env bash
# Installs the C libraries the package links against, when they are missing.
# Debian/Ubuntu: libcurl, libxml2, SQLite and OpenSSL's libcrypto development files.
set -euo pipefail

missing=()
pkg-config --exists libcurl 2>/dev/null || missing+=(libcurl4-openssl-dev)
pkg-config --exists libxml-2.0 2>/dev/null || missing+=(libxml2-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
pkg-config --exists libcrypto 2>/dev/null || missing+=(libssl-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)

if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null 2>&1 || { echo "Swift 6 is required (https://www.swift.org/install/)" >&2; exit 1; }
