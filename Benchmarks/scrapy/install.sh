#!/usr/bin/env bash
# Installs the spiders' packages, at the versions measured (requirements.txt beside this file),
# when they are missing, as scripts/setup.sh installs the test suite's. Sourced or run by the
# benchmark scripts that run Scrapy.
set -euo pipefail
requirements="$(dirname "${BASH_SOURCE[0]}")/requirements.txt"
if ! python3 -c "import scrapy, lxml" 2>/dev/null; then
  echo "installing: $(tr '\n' ' ' < "$requirements")" >&2
  python3 -m pip install --quiet -r "$requirements" 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages -r "$requirements" \
    || { echo "needs: pip install -r $requirements" >&2; exit 1; }
fi
