#!/usr/bin/env bash
# Set up everything tuolaji needs on a fresh machine: Debian packages (fonts and SVG card
# decks for the card generator, Chromium for the browser tests), the npm card decks (dev),
# a virtual environment in .venv, and the project installed into it. Safe to run again: it skips what is done.
#   scripts/setup.sh            runtime only (serve, audit, detect, replay)
#   scripts/setup.sh dev        + training (torch, ultralytics), test tools, and the club (PostgreSQL, psycopg)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-runtime}"

if [ "$mode" = dev ] && command -v apt-get >/dev/null 2>&1; then
  missing=()
  while read -r pkg; do
    [ -n "$pkg" ] && [ "${pkg#\#}" = "$pkg" ] || continue  # blank lines and "# ..." comments
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done < scripts/apt-packages.txt
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

# Card art from real decks (datasets/realart.py): SVG decks from npm, pinned, into data/
# (git-ignored); the Debian decks come with the packages above.
if [ "$mode" = dev ] && command -v npm >/dev/null 2>&1; then
  npm_decks=(@younestouati/playing-cards-standard-deck@3.0.0 svg-cards@4.0.2 cardsJS@1.1.1)
  if [ ! -f data/cardart-npm/node_modules/cardsJS/package.json ] \
     || [ ! -f data/cardart-npm/node_modules/svg-cards/package.json ] \
     || [ ! -f data/cardart-npm/node_modules/@younestouati/playing-cards-standard-deck/package.json ]; then
    echo "setup: installing the npm card decks into data/cardart-npm"
    mkdir -p data/cardart-npm
    npm install --prefix data/cardart-npm --no-audit --no-fund --ignore-scripts --silent "${npm_decks[@]}"
  fi
fi

PY="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
hash="$(sha1sum pyproject.toml | cut -c1-12)"
stamp=".venv/.tuolaji-$mode-$hash"
# a dev install holds the runtime one: run.sh after test.sh installs nothing again
[ "$mode" = dev ] || [ ! -f ".venv/.tuolaji-dev-$hash" ] || stamp=".venv/.tuolaji-dev-$hash"
if [ ! -f "$stamp" ]; then
  .venv/bin/pip install -q --upgrade pip
  # every folder installs under the one name tuolaji (pyproject.toml's package-dir), so the editable
  # install is a finder, and setuptools says so in a note on every install: not a warning, kept quiet
  export PYTHONWARNINGS="ignore:Editable installation"
  if [ "$mode" = dev ]; then
    .venv/bin/pip install -q -e ".[train,test,club]"
  else
    .venv/bin/pip install -q -e .
  fi
  # ultralytics pulls in the GUI build of OpenCV; keep only the headless one.
  if .venv/bin/pip show opencv-python >/dev/null 2>&1; then
    .venv/bin/pip uninstall -y -q opencv-python
    .venv/bin/pip install -q --force-reinstall --no-deps "$(.venv/bin/pip freeze | grep -i '^opencv-python-headless' || echo opencv-python-headless)"
  fi
  touch "$stamp"
fi
