#!/usr/bin/env bash
# Bytes on the wire, default against --low-bandwidth (issue 39), on the large demo organization
# (`topicterm demo-server --size large`: 20,000 users, 2,000 channels, 200,000 messages):
#   - start-up plus IDLE seconds of nothing (default 600: ten minutes): from launch until the
#     first message is on screen, then the client left alone (its long polls, presence pings);
#   - reading 100 messages: 100 presses of j, 50 ms apart, then 3 s for what they cause (the
#     flags marked read, pages fetched further on).
# Every answer is counted as it leaves the server (compressed, as the server sends it: the
# client asks for gzip like a real one), through bench/link.py on a fast loopback link (1 ms
# round trip, 1 Gbit/s) that writes each request's answer size to a timeline; the requests'
# own bytes (small: a register form, queries) are not counted. After the table, each phase's
# bytes by endpoint (IDs in paths shown as {id}).
# Usage: bench/bandwidth.sh [IDLE seconds]. $TOPICTERM_BIN runs another build instead of
# building this one.
set -euo pipefail
cd "$(dirname "$0")/.."
idle=${1:-600}
if [ -n "${TOPICTERM_BIN:-}" ]; then
  bin=$TOPICTERM_BIN
else
  cargo build --release --quiet
  bin=$PWD/target/release/topicterm
fi
port=$(( 20000 + RANDOM % 20000 ))
work=$(mktemp -d)
sock="topicterm-bandwidth-$$"
linker=
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  kill "$server" 2>/dev/null || true
  [ -n "$linker" ] && kill "$linker" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/rc"
"$bin" demo-server --size large --addr "127.0.0.1:$port" --zuliprc-dir "$work/rc" > "$work/server.log" 2>&1 &
server=$!
until grep -q "listening" "$work/server.log" 2>/dev/null; do sleep 0.1; done
until [ -s "$work/rc/member.zuliprc" ]; do sleep 0.1; done
echo "large demo server ready; idle time ${idle} s"

# Both modes open at the first unread message, a generated one (see bench/scale.sh).
pattern='(Deploy|Staging|Latency|Rollback|Ticket|Merge|Cache|Queue|Schema|Dashboard|Customer|Draft|Timeline|Estimate|Blocker|Owner|Scope|Config|Branch|Benchmark|Index|Backfill|Quota|Region|Patch|Retry|Budget) [a-z]+ [a-z]+'
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# Answer bytes of the requests started at or after $2 ms and before $3 ms, in timeline $1.
bytes() {
  awk -v from="$2" -v to="$3" '
    $1 == "S" { s[$2 " " $3] = $4 }
    $1 == "E" { k = $2 " " $3; if (s[k] >= from && s[k] < to) n += $5 }
    END { print n + 0 }' "$1"
}
kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1024 }'; }
# The same, by endpoint ("METHOD /path", numbers in the path as {id}), largest first.
by_endpoint() {
  awk -v from="$2" -v to="$3" '
    $1 == "S" { k = $2 " " $3; s[k] = $4; p = $6; sub(/\?.*/, "", p); sub(/^\/api\/v1/, "", p)
                gsub(/\/[0-9]+/, "/{id}", p); e[k] = $5 " " p }
    $1 == "E" { k = $2 " " $3; if (s[k] >= from && s[k] < to) { n[e[k]] += $5; c[e[k]]++ } }
    END { for (x in n) printf "    %8.1f KB  %4d × %s\n", n[x] / 1024, c[x], x }' "$1" | sort -rn
}

# One run: launch, idle, read; prints "start-up+idle bytes, reading bytes".
run() {
  local flag=$1 name=$2
  local lport=$(( port + 1 + RANDOM % 1000 ))
  local timeline="$work/timeline-$name"
  : > "$timeline"
  python3 bench/link.py "$lport" "127.0.0.1:$port" "$timeline" --rtt-ms 1 --mbit 1000 > "$work/link-$name.log" 2>&1 &
  linker=$!
  until grep -q "listening" "$work/link-$name.log" 2>/dev/null; do sleep 0.1; done
  # A zuliprc is read only when only its owner can read it.
  (umask 077; sed "s|^site=.*|site=http://127.0.0.1:$lport|" "$work/rc/member.zuliprc" > "$work/rc/$name.zuliprc")
  local home; home=$(mktemp -d -p "$work")
  local t0; t0=$(now_ms)
  tmux -L "$sock" new-session -d -s b -x 160 -y 48 \
    "HOME=$home XDG_STATE_HOME=$home/state XDG_CACHE_HOME=$home/cache XDG_DATA_HOME=$home/data exec $bin $flag -c $work/rc/$name.zuliprc"
  local waited=0
  until tmux -L "$sock" capture-pane -p -t b 2>/dev/null | grep -Eq "$pattern"; do
    sleep 0.05; waited=$(( waited + 1 ))
    if [ $waited -gt 2400 ]; then echo "no message on screen after 120 s" >&2; exit 1; fi
  done
  sleep "$idle"
  local t1; t1=$(now_ms)
  for _ in $(seq 100); do tmux -L "$sock" send-keys -t b j; sleep 0.05; done
  sleep 3
  local t2; t2=$(now_ms)
  tmux -L "$sock" send-keys -t b q
  sleep 1
  tmux -L "$sock" kill-server 2>/dev/null || true
  kill "$linker" 2>/dev/null || true; linker=
  echo "$(bytes "$timeline" "$t0" "$t1") $(bytes "$timeline" "$t1" "$t2") $t0 $t1 $t2"
}

read -r d_start d_read d0 d1 d2 < <(run "" default)
echo "default: start-up + idle $(kb "$d_start"), reading 100 messages $(kb "$d_read")"
read -r l_start l_read l0 l1 l2 < <(run "--low-bandwidth" low)
echo "--low-bandwidth: start-up + idle $(kb "$l_start"), reading 100 messages $(kb "$l_read")"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
echo
echo "| bytes from the server (compressed) | default | --low-bandwidth | low / default |"
echo "|---|---|---|---|"
echo "| start-up + $(( idle / 60 )) idle minutes | $(kb "$d_start") | $(kb "$l_start") | $(ratio "$l_start" "$d_start") |"
echo "| reading 100 messages | $(kb "$d_read") | $(kb "$l_read") | $(ratio "$l_read" "$d_read") |"
echo "| both | $(kb $(( d_start + d_read ))) | $(kb $(( l_start + l_read ))) | $(ratio $(( l_start + l_read )) $(( d_start + d_read ))) |"
echo
for mode in "default $d0 $d1 $d2" "low $l0 $l1 $l2"; do
  read -r name a b c <<< "$mode"
  echo "$name, start-up + idle, by endpoint:"; by_endpoint "$work/timeline-$name" "$a" "$b"
  echo "$name, reading 100 messages, by endpoint:"; by_endpoint "$work/timeline-$name" "$b" "$c"
done
