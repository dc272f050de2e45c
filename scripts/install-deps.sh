#!/usr/bin/env bash
# Installs canon's build and test dependencies from Debian 12's packages (run as root, or with
# sudo available). Safe to run again: apt-get skips what is already installed.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  libxapian-dev libgumbo-dev libboost-dev libboost-graph-dev nlohmann-json3-dev libcli11-dev
  liburiparser-dev libre2-dev libxxhash-dev libicu-dev zlib1g-dev liblz4-dev libcpp-httplib-dev doctest-dev wordnet-base
  libjemalloc-dev
  chromium chromium-driver python3 wget
  xapian-omega xapian-tools
  clang-14 libfuzzer-14-dev wrk
  python3.11-doc cppreference-doc-en-html
  openmpi-bin libopenmpi-dev libboost-mpi-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}" >&2
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
