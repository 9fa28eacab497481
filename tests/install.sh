#!/usr/bin/env bash
# Everything the test suite needs: the project with its test extras (pytest, hypothesis, the
# peers pokerkit and eval7, playwright) and Debian's chromium for the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "tests/install.sh: no chromium and no root apt-get here; the browser tests will be skipped" >&2
    fi
fi
pip install -q -e '.[test]'
