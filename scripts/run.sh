#!/usr/bin/env bash
# Set up the runtime and start the live table page on the bundled demo video.
# Open the address it prints (http://127.0.0.1:8750/ by default).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/tuolaji serve "${@:---demo}"
