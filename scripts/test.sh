#!/usr/bin/env bash
# Set up (Debian packages, .venv with the dev extras) and run every check: ruff, mypy (scorer/, session/, vision/, web/ and club/, strict), then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev
.venv/bin/ruff check .
.venv/bin/python -m mypy  # [tool.mypy] in pyproject.toml: scorer/, session/, vision/, web/ and club/, strict, through typecheck/
# on every core (pytest-xdist; `-n 0` runs in one process); the slowest tests are listed at the end of every run
# (the suite must stay inside CI's time)
.venv/bin/python -m pytest -q -n auto --durations=15 "$@"
