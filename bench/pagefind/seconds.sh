# Sourced by bench/pagefind/run.sh and reexport.sh.
# seconds CMD...: runs CMD, its output discarded, and prints its wall time in seconds (2 decimals).
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null
  end=$(date +%s.%N)
  python3 -c "print('%.2f' % ($end - $start))"
}
