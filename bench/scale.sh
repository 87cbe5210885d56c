#!/usr/bin/env bash
# Scale benchmark: the large demo organization (`topicterm demo-server --size large`: 20,000
# users, 2,000 channels of which 500 are the member's, 200,000 messages), measured for
# topicterm and, when it is installed, zulip-terminal 0.7.0, the runs alternating:
#   - launch → the first message text on screen (polled in tmux, 160×48), median of N runs;
#     for topicterm both cold (a new home: no last session) and warm (started again in the same
#     home: the last session is drawn from the cache while the server is asked);
#   - resident memory 10 s after launch (median);
#   - key-to-frame while paging: after the memory sample, 300 presses of k (one message older
#     each, so older pages are fetched and merged as the selection climbs), 10 ms apart; the
#     client logs, for every frame that answers keys, the time from the oldest key to the frame
#     drawn (TOPICTERM_LOG=topicterm::frame=debug); median and 99th percentile over all runs;
#   - the network floor: curl replaying topicterm's own start-up requests (register with the
#     form `topicterm register-form` prints, compressed as the client asks, then the first
#     page), median.
# Usage: bench/scale.sh [runs] (default 5). zulip-terminal is looked for in the venv the
# zulip-terminal test installs (target/tmp/zulip-terminal-0.7.0), or $ZULIP_TERM.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo build --release --quiet
bin=$PWD/target/release/topicterm
zt=${ZULIP_TERM:-$PWD/target/tmp/zulip-terminal-0.7.0/bin/zulip-term}
port=$(( 20000 + RANDOM % 20000 ))
work=$(mktemp -d)
sock="topicterm-scale-$$"
cleanup() { tmux -L "$sock" kill-server 2>/dev/null || true; kill "$server" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

mkdir -p "$work/rc"
t0=$(date +%s%N)
"$bin" demo-server --size large --addr "127.0.0.1:$port" --zuliprc-dir "$work/rc" > "$work/server.log" 2>&1 &
server=$!
until grep -q "listening" "$work/server.log" 2>/dev/null; do sleep 0.1; done
until [ -s "$work/rc/member.zuliprc" ]; do sleep 0.1; done
echo "large demo server ready in $(( ($(date +%s%N) - t0) / 1000000 )) ms (RSS $(( $(ps -o rss= -p "$server") / 1024 )) MB)"
rc="$work/rc/member.zuliprc"
email=$(sed -n 's/^email=//p' "$rc"); key=$(sed -n 's/^key=//p' "$rc"); site="http://127.0.0.1:$port"

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }

# launch → first message text; prints ms, leaves the session running for the memory sample.
launch() {
  local cmd=$1 pattern=$2
  local start end
  start=$(date +%s%N)
  tmux -L "$sock" new-session -d -s b -x 160 -y 48 "$cmd"
  until tmux -L "$sock" capture-pane -p -t b 2>/dev/null | grep -Eq "$pattern"; do
    sleep 0.01
    if (( ($(date +%s%N) - start) / 1000000 > 120000 )); then echo "timeout" >&2; break; fi
  done
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}

rss_after_10s() {
  sleep 10
  local pid
  pid=$(tmux -L "$sock" list-panes -t b -F '#{pane_pid}')
  # The client is the pane's process or its child (a shell may sit in between).
  local kids; kids=$(pgrep -P "$pid" || true)
  local total=0
  for p in $pid $kids; do total=$(( total + $(ps -o rss= -p "$p" 2>/dev/null || echo 0) )); done
  echo $(( total / 1024 ))
}

# Both clients open at the first unread message: a generated one, whose text starts with a
# capitalised word of the generator's vocabulary (channel and topic names are lower case).
pattern='(Deploy|Staging|Latency|Rollback|Ticket|Merge|Cache|Queue|Schema|Dashboard|Customer|Draft|Timeline|Estimate|Blocker|Owner|Scope|Config|Branch|Benchmark|Index|Backfill|Quota|Region|Patch|Retry|Budget) [a-z]+ [a-z]+'
: > "$work/tt.ms"; : > "$work/tt.mb"; : > "$work/warm.ms"; : > "$work/warm.mb"; : > "$work/zt.ms"; : > "$work/zt.mb"; : > "$work/curl.ms"; : > "$work/frame.us"
have_zt=0; [ -x "$zt" ] && have_zt=1
# The client's own register form, for the floor.
form=()
while IFS= read -r line; do form+=(--data-urlencode "$line"); done < <("$bin" register-form)
for i in $(seq "$runs"); do
  home=$(mktemp -d -p "$work")
  tt="HOME=$home XDG_STATE_HOME=$home/state XDG_CACHE_HOME=$home/cache TOPICTERM_LOG=topicterm::frame=debug exec $bin -c $rc"
  ms=$(launch "$tt" "$pattern")
  mb=$(rss_after_10s)
  for _ in $(seq 300); do tmux -L "$sock" send-keys -t b k; sleep 0.01; done
  sleep 1; tmux -L "$sock" kill-server 2>/dev/null || true
  sed -n 's/.*key_to_frame_us=\([0-9]*\).*/\1/p' "$home/state/topicterm/topicterm.log" >> "$work/frame.us"
  echo "$ms" >> "$work/tt.ms"; echo "$mb" >> "$work/tt.mb"
  echo "run $i topicterm: ${ms} ms, ${mb} MB"
  # Again in the same home: the first run kept its session (once its first page was in).
  ms=$(launch "$tt" "$pattern")
  mb=$(rss_after_10s); tmux -L "$sock" kill-server 2>/dev/null || true
  echo "$ms" >> "$work/warm.ms"; echo "$mb" >> "$work/warm.mb"
  echo "run $i topicterm, last session kept: ${ms} ms, ${mb} MB"
  if [ $have_zt = 1 ]; then
    home=$(mktemp -d -p "$work")
    ms=$(launch "cd $home && HOME=$home exec $zt -c $rc" "$pattern")
    mb=$(rss_after_10s); tmux -L "$sock" kill-server 2>/dev/null || true
    echo "$ms" >> "$work/zt.ms"; echo "$mb" >> "$work/zt.mb"
    echo "run $i zulip-terminal: ${ms} ms, ${mb} MB"
  fi
  # The floor: topicterm's start-up requests (register as it asks, then the first page).
  start=$(date +%s%N)
  reg=$(curl -s --compressed -u "$email:$key" "$site/api/v1/register" "${form[@]}" \
    -o "$work/register.json" -w '%{size_download}')
  curl -s --compressed -u "$email:$key" -G "$site/api/v1/messages" --data-urlencode 'anchor=first_unread' \
    --data-urlencode 'num_before=50' --data-urlencode 'num_after=50' --data-urlencode 'apply_markdown=true' -o /dev/null
  echo $(( ($(date +%s%N) - start) / 1000000 )) >> "$work/curl.ms"
done

echo
echo "| ${runs} runs, medians | launch → message text | resident memory after 10 s |"
echo "|---|---|---|"
echo "| topicterm | $(median < "$work/tt.ms") ms | $(median < "$work/tt.mb") MB |"
echo "| topicterm, last session kept | $(median < "$work/warm.ms") ms | $(median < "$work/warm.mb") MB |"
if [ $have_zt = 1 ]; then
  echo "| zulip-terminal 0.7.0 | $(median < "$work/zt.ms") ms | $(median < "$work/zt.mb") MB |"
else
  echo "| zulip-terminal 0.7.0 | not installed (run cargo test --test zulip_terminal) | |"
fi
echo "| curl: register ($(( reg / 1024 )) KB compressed) + first page | $(median < "$work/curl.ms") ms | |"
pct() { sort -n | awk -v p="$1" '{a[NR]=$1} END {i=int(NR*p/100); if (i<1) i=1; print a[i]}'; }
echo
echo "key-to-frame while paging ($(wc -l < "$work/frame.us") frames): median $(pct 50 < "$work/frame.us") µs, p99 $(pct 99 < "$work/frame.us") µs"
