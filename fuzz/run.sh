#!/usr/bin/env bash
# Run the fuzz targets one after another, each for SECONDS (default 600), and print a summary.
#
#   fuzz/run.sh [SECONDS] [TARGET...]          targets: content search events keys (default: all)
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`) and a nightly toolchain (without one,
# stable is used with RUSTC_BOOTSTRAP=1). Builds with debug assertions (overflow checks) and,
# by default, no sanitizer: the code under test is safe Rust, and ASan halves the speed; set
# FUZZ_SANITIZER=address to turn it on. New inputs go to fuzz/work/<target>/ (not committed);
# the committed seeds in fuzz/corpus/<target>/ and fuzz/regressions/<target>/ are only read.
# Crashes land in fuzz/artifacts/<target>/; logs in fuzz/work/<target>.log.
set -uo pipefail
cd "$(dirname "$0")"

secs=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(content search events keys)
sanitizer=${FUZZ_SANITIZER:-none}

if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  fuzz=(cargo +nightly fuzz)
else
  export RUSTC_BOOTSTRAP=1
  fuzz=(cargo fuzz)
fi
flags=(--debug-assertions --sanitizer "$sanitizer")

"${fuzz[@]}" build "${flags[@]}" || { echo "build failed"; exit 1; }

summary=()
failed=0
for t in "${targets[@]}"; do
  mkdir -p "work/$t" "artifacts/$t"
  dirs=("work/$t" "corpus/$t")
  [ -d "regressions/$t" ] && dirs+=("regressions/$t")
  log="work/$t.log"
  echo "=== $t: ${secs}s ==="
  extra=()
  # Rendering cost grows with nesting depth (html5ever scans its open-element stack), so
  # content inputs are kept short; the big hostile seeds still run whole in the replay test.
  [ "$t" = content ] && extra+=(-max_len="${FUZZ_CONTENT_MAX_LEN:-4096}")
  # keys: each input starts a demo server and an app (2 to 4 inputs a second), which is most
  # of its time, so inputs are let grow to their full length at once (up to 512 bytes, about a
  # hundred actions); and time for the unread check's wait (up to 60 s) to fail with its own
  # message before libFuzzer calls the input a hang.
  [ "$t" = keys ] && extra+=(-max_len="${FUZZ_KEYS_MAX_LEN:-512}" -len_control=0 -timeout=90)
  "${fuzz[@]}" run "${flags[@]}" "$t" "${dirs[@]}" -- \
    -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 "${extra[@]}" 2>&1 |
    tee "$log" | grep --line-buffered -E 'INITED|DONE|pulse|ERROR|panicked|SUMMARY|Test unit written'
  rc=${PIPESTATUS[0]}
  last=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
  slowest=$(sed -n 's/^stat::slowest_unit_time_sec: *//p' "$log")
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$last")
  if [ "$rc" -eq 0 ]; then status=ok; else status="FAILED (exit $rc)"; failed=1; fi
  crashes=$(find "artifacts/$t" -type f | wc -l)
  summary+=("$(printf '%-8s %-16s execs %-10s exec/s %-6s cov %-6s ft %-6s corpus %-12s rss %sMB slowest %ss artifacts %s' \
    "$t" "$status" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "${rss:-?}" "${slowest:-?}" "$crashes")")
done

echo
echo "=== summary (${secs}s per target) ==="
printf '%s\n' "${summary[@]}"
exit "$failed"
