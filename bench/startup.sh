#!/usr/bin/env bash
# Whole-binary start-up time: from launching `topicterm --demo` in tmux until the channel list
# and the first messages are on screen. Usage: bench/startup.sh [runs] (release build).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo build --release --quiet
bin=target/release/topicterm
sock="topicterm-bench-$$"
home=$(mktemp -d)
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$home"' EXIT
for i in $(seq "$runs"); do
  start=$(date +%s%N)
  tmux -L "$sock" new-session -d -s b -x 120 -y 40 "HOME=$home XDG_STATE_HOME=$home/state $bin --demo"
  until tmux -L "$sock" capture-pane -p -t b 2>/dev/null | grep -q "Helper Bot\|Alice Okafor\|Maya Lindqvist"; do sleep 0.005; done
  end=$(date +%s%N)
  echo "run $i: $(( (end - start) / 1000000 )) ms to first messages"
  tmux -L "$sock" kill-server
done
