#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the end-to-end tests and the benchmark.
# Idempotent and quiet when it is already there; installs it with apt otherwise
# (through sudo only when not root and sudo exists). No browser download is used.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available; install Chromium by hand." >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "ensure-chromium: $CHROMIUM is missing and this user is not root and has no sudo; install the 'chromium' package as root." >&2
    exit 1
  fi
fi

echo "ensure-chromium: installing Debian's chromium package..."
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt finished but $CHROMIUM is still missing." >&2
  exit 1
fi
echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null || echo chromium) installed."
