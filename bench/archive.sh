#!/usr/bin/env bash
# The archive (issue 38) measured on the whole binary, against the large demo organization
# (`topicterm demo-server --size large`: 200,000 messages, of which `member` can read the
# ~155,000 in their channels — what `:archive all` fetches for them):
#   1. `:archive all` typed into the client (tmux, 160×48): seconds until the status line says
#      it is done (every page fetched), and until the archive holds every page (its backfill
#      record, written in each page's transaction, says the oldest was reached); meanwhile j/k
#      pressed every 20 ms, the client logging each frame's key-to-frame time
#      (TOPICTERM_LOG=topicterm::frame=debug): median and p99 over the runs;
#   2. the archive's size on disk once the client has quit, against the messages' JSON as the
#      client fetches it (every page of the same narrow, `apply_markdown` and `client_gravatar`
#      as the client asks, each message re-serialised compactly, and the answers' bytes);
#   3. `/WORD` Enter in the client just after: until the archive's matches are on screen (polled
#      in tmux: an upper bound); `topicterm search WORD` on that archive, the whole process timed (median and p95 of 20),
#      for a common word, a rare one, a prefix, a phrase and a word in one channel;
#   4. start-up, launch → the first message text, cold (no last session) and with the last
#      session kept, with the archive present (history = true, the default) and with
#      `history = false`, the runs alternating; medians.
# Usage: bench/archive.sh [runs] (default 3; the backfill runs `runs` times, the start-ups
# 3×runs). $TOPICTERM_BIN runs another build instead of building this one. The machine's other
# load shows in every figure: rerun it when the machine is quiet.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
if [ -n "${TOPICTERM_BIN:-}" ]; then
  bin=$TOPICTERM_BIN
else
  cargo build --release --quiet
  bin=$PWD/target/release/topicterm
fi
port=$(( 20000 + RANDOM % 20000 ))
work=$(mktemp -d)
sock="topicterm-archive-$$"
server=
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

now_ns() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }
pct() { sort -n | awk -v p="$1" '{a[NR]=$1} END {i=int((NR*p+99)/100); if (i<1) i=1; print a[i]}'; }

mkdir -p "$work/rc"
t0=$(now_ns)
"$bin" demo-server --size large --addr "127.0.0.1:$port" --zuliprc-dir "$work/rc" > "$work/server.log" 2>&1 &
server=$!
until grep -q "listening" "$work/server.log" 2>/dev/null; do sleep 0.1; done
until [ -s "$work/rc/member.zuliprc" ]; do sleep 0.1; done
echo "large demo server ready in $(( ($(now_ns) - t0) / 1000000 )) ms"
rc="$work/rc/member.zuliprc"
email=$(sed -n 's/^email=//p' "$rc"); key=$(sed -n 's/^key=//p' "$rc"); site="http://127.0.0.1:$port"

# The messages' JSON, fetched as the backfill fetches it (all of member's history, 1,000 a page,
# one connection each): also the floor, the server's own time to serve those pages.
read -r json_count json_bytes body_bytes floor_ms < <(python3 - "$site" "$email" "$key" <<'EOF'
import base64, json, sys, time, urllib.parse, urllib.request
site, email, key = sys.argv[1:4]
start = time.monotonic()
auth = "Basic " + base64.b64encode(f"{email}:{key}".encode()).decode()
anchor, first, count, compact, body = "newest", True, 0, 0, 0
while True:
    q = urllib.parse.urlencode({"anchor": anchor, "num_before": 1000, "num_after": 0,
                                "include_anchor": str(first).lower(), "apply_markdown": "true",
                                "client_gravatar": "true"})
    raw = urllib.request.urlopen(urllib.request.Request(f"{site}/api/v1/messages?{q}",
                                                        headers={"Authorization": auth})).read()
    page = json.loads(raw)
    body += len(raw)
    count += len(page["messages"])
    compact += sum(len(json.dumps(m, separators=(",", ":"), ensure_ascii=False).encode())
                   for m in page["messages"])
    first = False
    if page["found_oldest"] or not page["messages"]:
        break
    anchor = str(min(m["id"] for m in page["messages"]))
print(count, compact, body, int((time.monotonic() - start) * 1000))
EOF
)
echo "member's history: $json_count messages, their JSON $(( json_bytes / 1000000 )) MB (the answers $(( body_bytes / 1000000 )) MB);" \
  "fetched alone (python, 1,000 a page) in $floor_ms ms"

# The client in tmux on home $1 (extra environment in $2), until the first message text.
pattern='(Deploy|Staging|Latency|Rollback|Ticket|Merge|Cache|Queue|Schema|Dashboard|Customer|Draft|Timeline|Estimate|Blocker|Owner|Scope|Config|Branch|Benchmark|Index|Backfill|Quota|Region|Patch|Retry|Budget) [a-z]+ [a-z]+'
client() {
  local home=$1
  echo "HOME=$home XDG_CONFIG_HOME=$home/config XDG_STATE_HOME=$home/state XDG_CACHE_HOME=$home/cache XDG_DATA_HOME=$home/data TOPICTERM_LOG=topicterm::frame=debug exec $bin -c $rc"
}
screen() { tmux -L "$sock" capture-pane -p -t b 2>/dev/null; }
launch() {
  local start end
  start=$(now_ns)
  tmux -L "$sock" new-session -d -s b -x 160 -y 48 "$1"
  until screen | grep -Eq "$pattern"; do
    sleep 0.01
    if (( ($(now_ns) - start) / 1000000 > 120000 )); then echo "timeout" >&2; break; fi
  done
  end=$(now_ns)
  echo $(( (end - start) / 1000000 ))
}
# Quit the client with q (its archive written and closed), at most 30 s.
quit() {
  tmux -L "$sock" send-keys -t b q
  for _ in $(seq 300); do tmux -L "$sock" has-session -t b 2>/dev/null || return 0; sleep 0.1; done
  tmux -L "$sock" kill-server 2>/dev/null || true
}
# The backfill record of `all` in archive $1: found_oldest|fetched, empty before the first page.
record() {
  python3 - "$1" <<'EOF' 2>/dev/null || true
import sqlite3, sys
try:
    c = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True, timeout=5)
    r = c.execute("SELECT found_oldest, fetched FROM backfill WHERE key = 'all'").fetchone()
    print(f"{r[0]}|{r[1]}" if r else "")
except Exception:
    print("")
EOF
}

: > "$work/fetched.ms"; : > "$work/written.ms"; : > "$work/frame.us"; : > "$work/tui.search"
archive_home=
for i in $(seq "$runs"); do
  home=$(mktemp -d -p "$work")
  launch "$(client "$home")" > /dev/null
  until db=$(find "$home/data/topicterm/archive" -name '*.db' 2>/dev/null | head -1) && [ -n "$db" ]; do sleep 0.1; done
  log="$home/state/topicterm/topicterm.log"
  sleep 2
  before=$(wc -l < "$log" 2>/dev/null || echo 0)
  tmux -L "$sock" send-keys -t b ':archive all' Enter
  start=$(now_ns)
  fetched=; written=; n=0
  while [ -z "$written" ]; do
    if (( n % 2 )); then tmux -L "$sock" send-keys -t b j; else tmux -L "$sock" send-keys -t b k; fi
    n=$(( n + 1 ))
    sleep 0.02
    if (( n % 10 == 0 )); then
      if [ -z "$fetched" ] && screen | grep -q "archived all"; then fetched=$(( ($(now_ns) - start) / 1000000 )); fi
      if screen | grep -q "archiving all messages stopped"; then echo "the backfill stopped: $(screen | grep 'stopped')" >&2; exit 1; fi
    fi
    if (( n % 25 == 0 )) && [ "$(record "$db" | cut -d'|' -f1)" = 1 ]; then
      written=$(( ($(now_ns) - start) / 1000000 ))
      [ -n "$fetched" ] || fetched=$written
    fi
    if (( ($(now_ns) - start) / 1000000 > 600000 )); then echo "timeout" >&2; exit 1; fi
  done
  total=$(record "$db" | cut -d'|' -f2)
  tail -n +"$(( before + 1 ))" "$log" | sed -n 's/.*key_to_frame_us=\([0-9]*\).*/\1/p' > "$work/run.us"
  cat "$work/run.us" >> "$work/frame.us"
  # `/WORD` Enter in the client: until the archive's matches are drawn (the title says "local
  # results" until the server's answer takes their place), polled in tmux — each poll takes a
  # few ms, so the figure is an upper bound. A new word each time (a search opened again is
  # shown as it was held).
  for w in rollback quota deploy staging latency ticket merge cache queue schema; do
    for _ in $(seq 100); do screen | grep -q "local results" || break; sleep 0.1; done
    tmux -L "$sock" send-keys -t b /; sleep 0.3
    tmux -L "$sock" send-keys -t b -l "$w"; sleep 0.3
    tmux -L "$sock" send-keys -t b Enter
    s=$(now_ns); got=miss
    while (( ($(now_ns) - s) / 1000000 < 5000 )); do
      if screen | grep -q "local results"; then got=$(( ($(now_ns) - s) / 100000 )); break; fi
    done
    echo "$got" >> "$work/tui.search"
    sleep 1; tmux -L "$sock" send-keys -t b Escape; sleep 0.5
  done
  quit
  size=$(( $(stat -c %s "$db") + $(stat -c %s "$db-wal" 2>/dev/null || echo 0) ))
  echo "$fetched" >> "$work/fetched.ms"; echo "$written" >> "$work/written.ms"
  echo "$size" >> "$work/size"
  echo "run $i: $total messages; every page fetched in $fetched ms, all written in $written ms;" \
    "key-to-frame meanwhile ($(wc -l < "$work/run.us") frames): median $(pct 50 < "$work/run.us") µs," \
    "p99 $(pct 99 < "$work/run.us") µs; archive $(( size / 1000000 )) MB on disk" \
    "($(awk -v a="$size" -v b="$json_bytes" 'BEGIN {printf "%.2f", a / b}')× the JSON)"
  archive_home=$home
done

# Searches on the last run's archive: the whole `topicterm search` process.
home=$archive_home
channel=$(python3 - "$(find "$home/data/topicterm/archive" -name '*.db' | head -1)" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
print(c.execute("SELECT channel_name FROM messages GROUP BY channel_id ORDER BY count(*) DESC LIMIT 1").fetchone()[0])
EOF
)
echo
echo "| topicterm search … (limit 50, as the client's first page), 20 runs | matches shown | median | p95 |"
echo "|---|---|---|---|"
for q in "rollback" "zebracorn" "roll" '"rollback quota"' "channel:$channel rollback" "rollback -quota is:unread"; do
  : > "$work/search.ms"
  for _ in $(seq 20); do
    s=$(now_ns)
    HOME=$home XDG_CONFIG_HOME=$home/config XDG_STATE_HOME=$home/state XDG_CACHE_HOME=$home/cache \
      XDG_DATA_HOME=$home/data "$bin" search -c "$rc" -n 50 "$q" > "$work/found" 2>&1 || true
    echo $(( ($(now_ns) - s) / 100000 )) >> "$work/search.ms"
  done
  tenths() { awk '{printf "%.1f ms", $1 / 10}'; }
  echo "| \`$q\` | $(wc -l < "$work/found") | $(median < "$work/search.ms" | tenths) | $(pct 95 < "$work/search.ms" | tenths) |"
done

# Start-up with the archive present, and with history = false; cold (the last session removed)
# and kept (started again at once).
: > "$work/on.cold"; : > "$work/on.kept"; : > "$work/off.cold"; : > "$work/off.kept"
for i in $(seq $(( runs * 3 ))); do
  for mode in on off; do
    mkdir -p "$home/config/topicterm"
    if [ $mode = off ]; then echo "history = false" > "$home/config/topicterm/config.toml"; else rm -f "$home/config/topicterm/config.toml"; fi
    rm -rf "$home/cache"
    ms=$(launch "$(client "$home")"); sleep 3; quit
    echo "$ms" >> "$work/$mode.cold"
    ms=$(launch "$(client "$home")"); sleep 1; quit
    echo "$ms" >> "$work/$mode.kept"
  done
done
rm -f "$home/config/topicterm/config.toml"

echo
echo "| $runs backfills, medians | figure | target |"
echo "|---|---|---|"
echo "| the floor: the same pages fetched by a script, nothing else done | $floor_ms ms | |"
echo "| \`:archive all\` ($json_count messages): every page fetched | $(median < "$work/fetched.ms") ms | |"
echo "| … all of it written in the archive | $(median < "$work/written.ms") ms | ≤ 30 s for 200,000 |"
echo "| … per 200,000 messages at that rate | $(median < "$work/written.ms" | awk -v n="$json_count" '{printf "%.1f s", $1 * 200000 / n / 1000}') | ≤ 30 s |"
echo "| key-to-frame meanwhile ($(wc -l < "$work/frame.us") frames) | median $(pct 50 < "$work/frame.us") µs, p99 $(pct 99 < "$work/frame.us") µs | p99 ≤ 16 ms |"
grep -v miss "$work/tui.search" > "$work/tui.hit" || true
echo "| \`/WORD\` Enter → the archive's matches drawn ($(wc -l < "$work/tui.hit") of $(wc -l < "$work/tui.search") seen before the server's) | median $(median < "$work/tui.hit" | awk '{printf "%.1f ms", $1 / 10}'), p95 $(pct 95 < "$work/tui.hit" | awk '{printf "%.1f ms", $1 / 10}') | p95 ≤ 50 ms |"
echo "| archive on disk | $(( $(median < "$work/size") / 1000000 )) MB, $(median < "$work/size" | awk -v b="$json_bytes" '{printf "%.2f", $1 / b}')× the messages' JSON ($(( json_bytes / 1000000 )) MB) | ≤ 1.5× |"
echo
echo "| start-up, launch → first message text, $(( runs * 3 )) runs, medians | history = true (archive of $json_count present) | history = false |"
echo "|---|---|---|"
echo "| cold (no last session) | $(median < "$work/on.cold") ms | $(median < "$work/off.cold") ms |"
echo "| last session kept | $(median < "$work/on.kept") ms | $(median < "$work/off.kept") ms |"
