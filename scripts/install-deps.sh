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
# Node.js and npm (for `canon export pagefind`), from Debian unless the machine has them already:
# a Node.js from elsewhere (NodeSource's, which carries its own npm) conflicts with Debian's npm.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  echo "install-deps: installing ${missing[*]}" >&2
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Pagefind, the version pagefind/package-lock.json pins, for `canon export pagefind`: npm's
# package (its Node API and the indexer binary of this platform) into pagefind/node_modules/.
pagefind_dir="$(cd "$(dirname "$0")/.." && pwd)/pagefind"
if [ ! -f "$pagefind_dir/node_modules/pagefind/lib/index.js" ]; then
  echo "install-deps: installing the npm package pagefind into $pagefind_dir/node_modules" >&2
  npm ci --prefix "$pagefind_dir" --no-audit --no-fund --loglevel=error
fi
