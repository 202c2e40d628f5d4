#!/usr/bin/env bash
# Installs the Debian packages SparkForensics needs, and only those that are missing,
# so a second run is quiet and fast. Usage: scripts/install-deps.sh [extra-package ...]
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libsimdjson-dev nlohmann-json3-dev rapidjson-dev libfmt-dev libcli11-dev libexpected-dev
  libzstd-dev liblz4-dev libxxhash-dev libsnappy-dev liblzf-dev zlib1g-dev libarchive-dev
  libre2-dev libsqlite3-dev libpq-dev libcurl4-openssl-dev libmicrohttpd-dev libcpp-httplib-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  zstd python3 xxd clang-format
)
packages+=("$@")

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
# Try without refreshing the package lists first: on a warm machine that is enough.
if ! $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/tmp/sf-apt.log 2>&1; then
  $sudo apt-get update -q >/tmp/sf-apt-update.log 2>&1 || { cat /tmp/sf-apt-update.log >&2; exit 1; }
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/tmp/sf-apt.log 2>&1 || { cat /tmp/sf-apt.log >&2; exit 1; }
fi
