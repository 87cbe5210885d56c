#!/usr/bin/env bash
# Scale benchmark: the large demo organization (`topicterm demo-server --size large`: 20,000
# users, 2,000 channels of which 500 are the member's, 200,000 messages), measured for
# topicterm and, when it is installed, zulip-terminal 0.7.0, the runs alternating:
#   - launch → the first message text on screen (polled in tmux, 160×48), median of N runs;
#     for topicterm both cold (a new home: no last session) and warm (started again in the same
#     home: the last session is drawn from the cache while the server is asked);
#   - for each first start, its steps from the debug log (TOPICTERM_LOG=topicterm::start=debug),
#     in ms after launch: register asked, its answer read and decoded, applied, the first screen;
#   - resident memory 10 s after launch (median);
#   - key-to-frame while paging: after the memory sample, 300 presses of k (one message older
#     each, so older pages are fetched and merged as the selection climbs), 10 ms apart; the
#     client logs, for every frame that answers keys, the time from the oldest key to the frame
#     drawn (TOPICTERM_LOG=topicterm::frame=debug); median and 99th percentile over all runs;
#   - the network floor: curl replaying topicterm's own start-up requests (register with the
#     form `topicterm register-form` prints, compressed as the client asks, then the first
#     page), median.
# The server compresses its answers (gzip, brotli or deflate, as real servers do) for every client
# that asks, and both clients and curl ask.
#
# With --link, every client reaches the server through bench/link.py, a simulated real link
# (100 ms round trip, 20 Mbit/s, a round trip to set a connection up, TCP slow start from 10
# segments), and for each run each request's timeline is printed (its start and the end of its
# answer, in seconds after launch): topicterm cold, topicterm with its last session kept, and the
# floor — curl asking for register then the first page, one connection each, and the same two
# on one kept-alive connection. Memory and key-to-frame are measured on loopback only.
# Usage: bench/scale.sh [--link] [runs] (default 5). zulip-terminal is looked for in the venv the
# zulip-terminal test installs (target/tmp/zulip-terminal-0.7.0), or $ZULIP_TERM. $TOPICTERM_BIN
# runs another build of topicterm (e.g. an earlier commit's) instead of building this one.
set -euo pipefail
cd "$(dirname "$0")/.."
link=0
if [ "${1:-}" = "--link" ]; then link=1; shift; fi
runs=${1:-5}
if [ -n "${TOPICTERM_BIN:-}" ]; then
  bin=$TOPICTERM_BIN
else
  cargo build --release --quiet
  bin=$PWD/target/release/topicterm
fi
zt=${ZULIP_TERM:-$PWD/target/tmp/zulip-terminal-0.7.0/bin/zulip-term}
port=$(( 20000 + RANDOM % 20000 ))
work=$(mktemp -d)
sock="topicterm-scale-$$"
linker=
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  kill "$server" 2>/dev/null || true
  [ -n "$linker" ] && kill "$linker" 2>/dev/null || true
  rm -rf "$work"
}
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
if [ $link = 1 ]; then
  lport=$(( port + 1 ))
  python3 bench/link.py "$lport" "127.0.0.1:$port" "$work/timeline" > "$work/link.log" 2>&1 &
  linker=$!
  until grep -q "listening" "$work/link.log" 2>/dev/null; do sleep 0.1; done
  site="http://127.0.0.1:$lport"
  # A zuliprc is read only when only its owner can read it.
  (umask 077; sed "s|^site=.*|site=$site|" "$work/rc/member.zuliprc" > "$work/rc/member-link.zuliprc")
  rc="$work/rc/member-link.zuliprc"
  echo "through a simulated link: 100 ms round trip, 20 Mbit/s, connection set-up, slow start"
fi
: > "$work/timeline"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# Each request started since $1 (ms): its start and the end of its answer, in seconds after $1.
timeline() {
  [ $link = 1 ] || return 0
  sleep 0.3
  awk -v t0="$1" '
    $1 == "S" && $4 >= t0 { k = $2 " " $3; s[k] = $4; what[k] = $5 " " $6; order[++n] = k }
    $1 == "E" { k = $2 " " $3; e[k] = $4; size[k] = $5 }
    END {
      for (i = 1; i <= n; i++) {
        k = order[i]; split(k, c, " ")
        end = (k in e) ? sprintf("+%.3f s  %7.1f KB", (e[k] - t0) / 1000, size[k] / 1024) : "(still open)"
        printf "      %-34s connection %-4s +%.3f s -> %s\n", what[k], c[1], (s[k] - t0) / 1000, end
      }
    }' "$work/timeline"
}

# A first start's steps, from its log: each in ms after launch (the launch is when `main` began:
# the log's "accounts read X after launch" line says how long before it that was).
steps() {
  [ -f "$1" ] || return 0
  awk '
    function t(ts,  p) { split(substr(ts, 12, 15), p, ":"); return (p[1] * 3600 + p[2] * 60 + p[3]) * 1000 }
    function d(s,  v) { v = s + 0; if (s ~ /µs$/) return v / 1000; if (s ~ /ms$/) return v; if (s ~ /ns$/) return v / 1e6; return v * 1000 }
    /topicterm::start: accounts read/ && !l { l = t($1) - d($6) }
    /topicterm::start: register asked/ && !a { a = t($1) }
    /topicterm::start: register.s answer read/ && !r { r = t($1); kb = $7; sub(/\(/, "", kb); dec = d($NF) }
    /topicterm::start: register.s answer applied/ && !p { p = t($1) }
    /topicterm::start: first screen drawn/ && !f { f = t($1) }
    END {
      if (!l || !f) exit
      printf "    start: register asked +%.0f ms; its answer (%s KB) read +%.0f, decoded +%.0f; applied +%.0f; first screen +%.0f ms\n",
        a - l, kb, r - dec - l, r - l, p - l, f - l
    }' "$1"
}

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
: > "$work/tt.ms"; : > "$work/tt.mb"; : > "$work/warm.ms"; : > "$work/warm.mb"; : > "$work/zt.ms"; : > "$work/zt.mb"; : > "$work/curl.ms"; : > "$work/kept.ms"; : > "$work/frame.us"
have_zt=0; [ -x "$zt" ] && have_zt=1
# The client's own register form, for the floor.
form=()
while IFS= read -r line; do form+=(--data-urlencode "$line"); done < <("$bin" register-form)
for i in $(seq "$runs"); do
  home=$(mktemp -d -p "$work")
  tt="HOME=$home XDG_STATE_HOME=$home/state XDG_CACHE_HOME=$home/cache TOPICTERM_LOG=topicterm::frame=debug,topicterm::start=debug exec $bin -c $rc"
  t0=$(now_ms)
  ms=$(launch "$tt" "$pattern")
  if [ $link = 1 ]; then
    mb=-; sleep 1; tmux -L "$sock" kill-server 2>/dev/null || true
  else
    mb=$(rss_after_10s)
    for _ in $(seq 300); do tmux -L "$sock" send-keys -t b k; sleep 0.01; done
    sleep 1; tmux -L "$sock" kill-server 2>/dev/null || true
    sed -n 's/.*key_to_frame_us=\([0-9]*\).*/\1/p' "$home/state/topicterm/topicterm.log" >> "$work/frame.us"
  fi
  echo "$ms" >> "$work/tt.ms"; echo "$mb" >> "$work/tt.mb"
  echo "run $i topicterm: ${ms} ms, ${mb} MB"
  steps "$home/state/topicterm/topicterm.log"
  timeline "$t0"
  # Again in the same home: the first run kept its session (once its first page was in).
  t0=$(now_ms)
  ms=$(launch "$tt" "$pattern")
  if [ $link = 1 ]; then mb=-; sleep 1; else mb=$(rss_after_10s); fi
  tmux -L "$sock" kill-server 2>/dev/null || true
  echo "$ms" >> "$work/warm.ms"; echo "$mb" >> "$work/warm.mb"
  echo "run $i topicterm, last session kept: ${ms} ms, ${mb} MB"
  timeline "$t0"
  if [ $have_zt = 1 ]; then
    home=$(mktemp -d -p "$work")
    t0=$(now_ms)
    ms=$(launch "cd $home && HOME=$home exec $zt -c $rc" "$pattern")
    if [ $link = 1 ]; then mb=-; sleep 1; else mb=$(rss_after_10s); fi
    tmux -L "$sock" kill-server 2>/dev/null || true
    echo "$ms" >> "$work/zt.ms"; echo "$mb" >> "$work/zt.mb"
    echo "run $i zulip-terminal: ${ms} ms, ${mb} MB"
    timeline "$t0"
  fi
  # The floor: topicterm's start-up requests (register as it asks, then the first page), one
  # connection each.
  page=(-G "$site/api/v1/messages" --data-urlencode 'anchor=first_unread' --data-urlencode 'num_before=50'
    --data-urlencode 'num_after=50' --data-urlencode 'apply_markdown=true' --data-urlencode 'client_gravatar=true')
  t0=$(now_ms)
  reg=$(curl -s --compressed -u "$email:$key" "$site/api/v1/register" "${form[@]}" \
    -o "$work/register.json" -w '%{size_download}')
  curl -s --compressed -u "$email:$key" "${page[@]}" -o /dev/null
  echo $(( $(now_ms) - t0 )) >> "$work/curl.ms"
  echo "run $i curl, register then first page, a connection each: $(( $(now_ms) - t0 )) ms"
  timeline "$t0"
  # The same two one after the other on one kept-alive connection.
  t0=$(now_ms)
  curl -s --compressed -u "$email:$key" "$site/api/v1/register" "${form[@]}" -o /dev/null \
    --next -s --compressed -u "$email:$key" "${page[@]}" -o /dev/null
  echo $(( $(now_ms) - t0 )) >> "$work/kept.ms"
  echo "run $i curl, the same two on one connection: $(( $(now_ms) - t0 )) ms"
  timeline "$t0"
done

echo
echo "| ${runs} runs, medians | launch → message text | resident memory after 10 s |"
echo "|---|---|---|"
mem() { if [ $link = 1 ]; then echo "(loopback only)"; else echo "$(median < "$1") MB"; fi; }
echo "| topicterm | $(median < "$work/tt.ms") ms | $(mem "$work/tt.mb") |"
echo "| topicterm, last session kept | $(median < "$work/warm.ms") ms | $(mem "$work/warm.mb") |"
if [ $have_zt = 1 ]; then
  echo "| zulip-terminal 0.7.0 | $(median < "$work/zt.ms") ms | $(mem "$work/zt.mb") |"
else
  echo "| zulip-terminal 0.7.0 | not installed (run cargo test --test zulip_terminal) | |"
fi
echo "| curl: register ($(( reg / 1024 )) KB compressed) + first page, a connection each | $(median < "$work/curl.ms") ms | |"
echo "| curl: the same two on one kept-alive connection | $(median < "$work/kept.ms") ms | |"
[ $link = 1 ] && exit 0
pct() { sort -n | awk -v p="$1" '{a[NR]=$1} END {i=int(NR*p/100); if (i<1) i=1; print a[i]}'; }
echo
echo "key-to-frame while paging ($(wc -l < "$work/frame.us") frames): median $(pct 50 < "$work/frame.us") µs, p99 $(pct 99 < "$work/frame.us") µs"
