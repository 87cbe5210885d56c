#!/usr/bin/env bash
# Soak benchmark (issue 26, "small for days"): a flood of messages sent to an open client, its
# resident memory sampled through the flood and after it.
#   - the demo server (`topicterm demo-server`, the demo org or `--size large`) in its own process;
#   - the release client in tmux (160×48) as the member on the combined feed at its newest
#     message (`a`, then `G`), so the shown window grows with the flood, with a config file
#     setting `max_messages` (--cap, default 50,000; 0 for no bound);
#   - another user (alice) sends MESSAGES messages (default 100,000) as fast as the server takes
#     them (bench/soak.py flood: four kept-alive connections): nine in ten to three channels and
#     eight topics, every tenth a direct message to the member;
#   - meanwhile the client's resident memory is sampled every second (ps -o rss=), through the
#     flood and for 60 s after it, and k is pressed every 100 ms through the flood (one message
#     older each, as bench/scale.sh does), the client logging key-to-frame for each frame that
#     answers keys (TOPICTERM_LOG=topicterm::frame=debug);
#   - at the end the client writes its state (`:dump-state`), and bench/soak.py check compares
#     its unread messages with the server's (is:unread paged from the oldest) and fetches the
#     messages it holds by ID, as it asks for them, to measure their JSON.
# Prints messages sent and the send rate; the CPU time the client and the server took; resident memory before, at its peak, at the end of the
# flood and 60 s after; held messages and their JSON; whether the target (25 MB + that JSON) is
# met 60 s after; flatness (max − min of the last 30 s of samples); unread equal or not; and
# key-to-frame during the flood.
# A separate script rather than a mode of bench/scale.sh: that one alternates clients over short
# launches; this is one long session with a sender beside it and a different report.
# Usage: bench/soak.sh [MESSAGES] [--cap N] [--size demo|large] [--samples FILE] [--notify M].
# --samples writes the memory samples to FILE ("seconds since the flood began" "MB" per line);
# --notify sets how the client announces the direct messages (default desktop, as the client's
# own default: notify-send run for each, the bell where it fails).
# $TOPICTERM_BIN runs another build of topicterm instead of building this one.
set -euo pipefail
cd "$(dirname "$0")/.."
count=100000 cap=50000 size=demo samples= notify=desktop
while [ $# -gt 0 ]; do
  case $1 in
    --cap) cap=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --samples) samples=$2; shift 2 ;;
    --notify) notify=$2; shift 2 ;;
    [0-9]*) count=$1; shift ;;
    *) echo "usage: bench/soak.sh [MESSAGES] [--cap N] [--size demo|large] [--samples FILE] [--notify desktop|bell|none]" >&2; exit 2 ;;
  esac
done
if [ -n "${TOPICTERM_BIN:-}" ]; then
  bin=$TOPICTERM_BIN
else
  cargo build --release --quiet
  bin=$PWD/target/release/topicterm
fi
port=$(( 20000 + RANDOM % 20000 ))
work=$(mktemp -d)
sock="topicterm-soak-$$"
sampler= keys=
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  for p in $sampler $keys $server; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/rc" "$work/home"
"$bin" demo-server --size "$size" --addr "127.0.0.1:$port" --zuliprc-dir "$work/rc" > "$work/server.log" 2>&1 &
server=$!
until grep -q "listening" "$work/server.log" 2>/dev/null; do sleep 0.1; done
until [ -s "$work/rc/member.zuliprc" ] && [ -s "$work/rc/alice.zuliprc" ]; do sleep 0.1; done
printf 'max_messages = %s\n[notifications]\nmethod = "%s"\n' "$cap" "$notify" > "$work/config.toml"
home=$work/home
tmux -L "$sock" new-session -d -s b -x 160 -y 48 \
  "HOME=$home XDG_STATE_HOME=$home/state XDG_CACHE_HOME=$home/cache XDG_CONFIG_HOME=$home/config TOPICTERM_LOG=topicterm::frame=debug exec $bin -c $work/rc/member.zuliprc --config $work/config.toml"
screen() { tmux -L "$sock" capture-pane -p -t b; }
wait_screen() {
  local start=$SECONDS
  until screen | grep -q "$1"; do
    sleep 0.1
    if (( SECONDS - start > 120 )); then echo "timeout waiting for '$1'; screen:" >&2; screen >&2; exit 1; fi
  done
}
wait_screen "All messages"
tmux -L "$sock" send-keys -t b a
sleep 2
tmux -L "$sock" send-keys -t b G
sleep 3
client=$(tmux -L "$sock" list-panes -t b -F '#{pane_pid}')
now() { echo $(( $(date +%s%N) / 1000000 )); }
# Resident memory every second, in KB, with the time in ms.
( while kill -0 "$client" 2>/dev/null; do echo "$(now) $(ps -o rss= -p "$client" || echo 0)"; sleep 1; done ) > "$work/rss" &
sampler=$!
sleep 2
rss_at() { awk -v t="$1" '$1 <= t { r = $2 } END { print int(r / 1024) }' "$work/rss"; }
t_start=$(now)
before=$(rss_at "$t_start")
bound="at most $cap held"; [ "$cap" = 0 ] && bound="no bound on what is held"
echo "soak: $count messages to a client with $bound ($size org, notifications: $notify); RSS before ${before} MB"
( while :; do tmux -L "$sock" send-keys -t b k; sleep 0.1; done ) &
keys=$!
python3 bench/soak.py flood "$work/rc/alice.zuliprc" "$count" "$(sed -n 's/^email=//p' "$work/rc/member.zuliprc")" 4 > "$work/flood.json"
t_end=$(now)
kill "$keys"; keys=
sleep 60
# Only keys pressed during the flood are logged (the presses stop with it).
sed -n 's/.*key_to_frame_us=\([0-9]*\).*/\1/p' "$home/state/topicterm/topicterm.log" > "$work/frame.us"
t_after=$(now)
cpu() { ps -o times= -p "$1" | tr -d ' '; }
cpu_client=$(cpu "$client"); cpu_server=$(cpu "$server")
kill "$sampler"; sampler=
# The client writes down what it holds.
tmux -L "$sock" send-keys -t b Escape; sleep 0.3
tmux -L "$sock" send-keys -t b :
tmux -L "$sock" send-keys -t b -l "dump-state $work/dump.json"
tmux -L "$sock" send-keys -t b Enter
start=$SECONDS
until python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/dump.json" 2>/dev/null; do
  sleep 0.2
  if (( SECONDS - start > 60 )); then echo "no state dump; screen:" >&2; screen >&2; exit 1; fi
done
python3 bench/soak.py check "$work/rc/member.zuliprc" "$work/dump.json" > "$work/check.json"
[ -n "$samples" ] && awk -v t="$t_start" '{ printf "%.0f %.1f\n", ($1 - t) / 1000, $2 / 1024 }' "$work/rss" > "$samples"

field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$@"; }
sent=$(field "$work/flood.json" sent); failed=$(field "$work/flood.json" failed); secs=$(field "$work/flood.json" seconds)
held=$(field "$work/check.json" held); in_windows=$(field "$work/check.json" in_windows)
json_mb=$(awk -v b="$(field "$work/check.json" json_bytes)" 'BEGIN { printf "%.1f", b / 1048576 }')
peak=$(awk '{ if ($2 > m) m = $2 } END { print int(m / 1024) }' "$work/rss")
at_end=$(rss_at "$t_end"); after=$(rss_at "$t_after")
flat=$(awk -v t="$t_after" '$1 > t - 30500 { if (n++ == 0 || $2 < lo) lo = $2; if ($2 > hi) hi = $2 } END { printf "%.1f", (hi - lo) / 1024 }' "$work/rss")
target=$(awk -v j="$json_mb" 'BEGIN { printf "%.1f", 25 + j }')
met=$(awk -v a="$after" -v t="$target" 'BEGIN { print (a <= t) ? "met" : "NOT met" }')
pct() { sort -n | awk -v p="$1" '{a[NR]=$1} END {i=int(NR*p/100); if (i<1) i=1; print a[i]+0}'; }
echo
echo "| max_messages = $cap, $size org | |"
echo "|---|---|"
echo "| messages sent | $sent in ${secs} s ($(awk -v n="$sent" -v s="$secs" 'BEGIN { printf "%d", n / s }')/s), $failed failed |"
echo "| resident memory before / peak / end of flood / 60 s after | $before / $peak / $at_end / $after MB |"
echo "| CPU time to the end: client / server | $cpu_client / $cpu_server s |"
echo "| messages held | $held ($in_windows in its windows) |"
echo "| their JSON (fetched by ID as the client asks) | $json_mb MB |"
echo "| target: 25 MB + that JSON = $target MB, 60 s after | $met |"
echo "| flat after: max − min of the last 30 s | $flat MB |"
echo "| unread: client / server, equal | $(field "$work/check.json" unread_client) / $(field "$work/check.json" unread_server), $(field "$work/check.json" unread_equal) |"
echo "| key-to-frame during the flood ($(wc -l < "$work/frame.us") frames): median / p99 | $(pct 50 < "$work/frame.us") / $(pct 99 < "$work/frame.us") µs |"
