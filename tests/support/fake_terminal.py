"""A terminal that answers the graphics queries as a given kitty would, for the binary's
start-up probe: `fake_terminal.py VERSION -- COMMAND…` runs COMMAND on a pseudo-terminal of
80x24 cells (10x20 pixels each) and answers, in order, each query it writes: kitty's graphics
probe, the device attributes, the cell size, XTVERSION (`kitty(VERSION)`) and the status report.
Everything else the program draws is read and dropped. With `--answer-after TEXT` it answers
nothing until the program has drawn TEXT (the queries written before are answered then). Ends
when the program ends, or on SIGTERM (taking the program with it)."""

import os
import pty
import select
import signal
import struct
import sys
import fcntl
import termios

version = sys.argv[1]
options = sys.argv[2 : sys.argv.index("--")]
cmd = sys.argv[sys.argv.index("--") + 1 :]
after = options[options.index("--answer-after") + 1].encode() if "--answer-after" in options else b""
ANSWERS = [
    (b"\x1b_Gi=31,", b"\x1b_Gi=31;OK\x1b\\"),
    (b"\x1b[c", b"\x1b[?62;22c"),
    (b"\x1b[16t", b"\x1b[6;20;10t"),
    (b"\x1b[>0q", b"\x1bP>|kitty(" + version.encode() + b")\x1b\\"),
    (b"\x1b[5n", b"\x1b[0n"),
]

pid, fd = pty.fork()
if pid == 0:
    os.execvp(cmd[0], cmd)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 800, 480))


def stop(*_):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    sys.exit(0)


signal.signal(signal.SIGTERM, stop)
pending = b""
while True:
    ready, _, _ = select.select([fd], [], [], 1.0)
    if not ready:
        continue
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    pending += chunk
    if after:
        if after not in pending:
            # Held: the queries are kept, and enough of the rest to find TEXT across reads.
            continue
        after = b""
    # Answer the queries in the order they were written.
    while True:
        found = [(pending.find(q), q, a) for q, a in ANSWERS if pending.find(q) >= 0]
        if not found:
            break
        at, q, a = min(found)
        os.write(fd, a)
        pending = pending[at + len(q) :]
    pending = pending[-16:]
os.waitpid(pid, 0)
