# Sourced by bench/known_item/phrases.sh and headings.sh: the Debian documentation sites by name,
# the sites a run asks for, and a timer.
#
# select_sites DEFAULT_NAMES...: fills `sites` with NAME=DIR (absolute) for each name of $SITES
# (or DEFAULT_NAMES when SITES is unset); a NAME=DIR entry names any directory of HTML. Exits
# on an unknown name or a missing directory.
# seconds LOG CMD...: runs CMD (its output to LOG) and prints its wall time in whole seconds;
# exits with the log's tail when CMD fails.

declare -A default_dir=(
  [javadoc]=/usr/share/doc/openjdk-17-jre-headless/api
  [cppreference]=/usr/share/cppreference/doc/html
  [python]=/usr/share/doc/python3.11/html
  [rust]=/usr/share/doc/rust-doc/html
  [libstdcxx]=/usr/share/doc/gcc-12-base/libstdc++
  [postgres]=/usr/share/doc/postgresql-doc-15/html)

select_sites() {
  sites=()
  local s name dir
  for s in ${SITES:-$*}; do
    name=${s%%=*}
    if [ "$s" = "$name" ]; then
      [ -n "${default_dir[$name]:-}" ] || { echo "unknown site $name (give NAME=DIR)" >&2; exit 1; }
      s="$name=${default_dir[$name]}"
    fi
    dir=${s#*=}
    [ -d "$dir" ] || { echo "$name: no directory $dir" >&2; exit 1; }
    sites+=("$name=$(cd "$dir" && pwd)")
  done
}

seconds() {
  local log=$1 start=$SECONDS
  shift
  "$@" >"$log" 2>&1 || { echo "failed: $* (see $log)" >&2; tail -5 "$log" >&2; exit 1; }
  echo $((SECONDS - start))
}
