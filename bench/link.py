#!/usr/bin/env python3
"""A simulated real link between a client and a server on this machine, for bench/scale.sh.

    bench/link.py LISTEN_PORT UPSTREAM_HOST:PORT TIMELINE_FILE [--rtt-ms 100] [--mbit 20]

Every TCP connection to LISTEN_PORT is relayed to the upstream, each direction through a model
of a path of that round trip and rate:
  - connection set-up costs one round trip (the client's first byte leaves only after it);
  - each way takes half the round trip;
  - bytes leave at the rate (20 Mbit/s: 2.5 MB/s), one window per round trip: the window starts
    at 10 segments of 1,448 bytes and doubles each round trip that fills it (slow start, no
    loss), and starts again at 10 after an idle time of one retransmission timeout (200 ms +
    the round trip), as Linux does (tcp_slow_start_after_idle);
  - no TLS (its extra round trip is not modelled).
Each HTTP/1.1 request is written to TIMELINE_FILE when it starts (its first byte reaches the
link from the client) and when it ends (the last byte of its answer reaches the client), in
milliseconds since the epoch:
    S <connection> <request> <ms> <method> <path without query>
    E <connection> <request> <ms> <answer bytes as sent (compressed)>
Standard library only.
"""

import asyncio
import re
import sys
import time

SEGMENT = 1448
INITIAL_WINDOW = 10 * SEGMENT


class Http:
    """The messages in one direction of an HTTP/1.1 connection: calls `done(size)` at the end of
    each (request: `start(method, path)` at its first byte)."""

    def __init__(self, requests, start=None, done=None):
        self.requests = requests
        self.start, self.done = start, done
        self.buf = bytearray()
        self.state = "head"
        self.left = 0
        self.size = 0
        self.started = False

    def feed(self, data):
        if self.requests and not self.started and data:
            self.started = True
            m = re.match(rb"([A-Z]+) (\S+)", bytes(self.buf + data[:200]))
            if self.start:
                self.start(m.group(1).decode() if m else "?", m.group(2).decode().split("?")[0] if m else "?")
        self.buf += data
        self.size += len(data)
        while self.step():
            pass

    def step(self):
        if self.state == "head":
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return False
            head = bytes(self.buf[:end]).decode("latin-1").lower()
            del self.buf[: end + 4]
            first = head.split("\r\n", 1)[0]
            m = re.search(r"\r\ncontent-length:\s*(\d+)", head)
            if "transfer-encoding: chunked" in head:
                self.state = "chunk"
            elif m:
                self.state, self.left = "body", int(m.group(1))
            elif self.requests or first.split(" ")[1:2] in (["204"], ["304"]) or first.startswith("http/1.1 1"):
                self.state, self.left = "body", 0
            else:
                self.state, self.left = "body", 1 << 62  # until the connection closes
            return True
        if self.state == "body":
            take = min(self.left, len(self.buf))
            del self.buf[:take]
            self.left -= take
            if self.left == 0:
                self.finish()
                return True
            return False
        if self.state == "chunk":
            end = self.buf.find(b"\r\n")
            if end < 0:
                return False
            n = int(bytes(self.buf[:end]).split(b";")[0] or b"0", 16)
            del self.buf[: end + 2]
            self.state, self.left = ("trailer", 0) if n == 0 else ("chunkdata", n + 2)
            return True
        if self.state == "chunkdata":
            take = min(self.left, len(self.buf))
            del self.buf[:take]
            self.left -= take
            if self.left == 0:
                self.state = "chunk"
                return True
            return False
        if self.state == "trailer":
            end = self.buf.find(b"\r\n")
            if end < 0:
                return False
            del self.buf[: end + 2]
            if end == 0:
                self.finish()
            return True
        return False

    def finish(self):
        if self.done:
            self.done(self.size - len(self.buf))
        self.size = len(self.buf)
        self.state = "head"
        self.started = False
        if self.requests and self.buf and self.start:
            # The next request began in the same read.
            self.started = True
            m = re.match(rb"([A-Z]+) (\S+)", bytes(self.buf[:200]))
            self.start(m.group(1).decode() if m else "?", m.group(2).decode().split("?")[0] if m else "?")


class Path:
    """One direction: bytes read from `reader` reach `writer` as the model says."""

    def __init__(self, rtt, rate, ready_at, observe):
        self.rtt, self.rate = rtt, rate
        self.ready_at = ready_at
        self.observe = observe

    async def run(self, reader, writer):
        loop = asyncio.get_running_loop()
        deliveries = asyncio.Queue()
        rto = 0.2 + self.rtt

        async def deliver():
            while True:
                at, chunk = await deliveries.get()
                await asyncio.sleep(max(0.0, at - loop.time()))
                if chunk is None:
                    break
                self.observe(chunk)
                try:
                    writer.write(chunk)
                    await writer.drain()
                except (ConnectionError, RuntimeError):
                    break
            try:
                writer.write_eof()
            except (OSError, RuntimeError):
                pass

        task = asyncio.create_task(deliver())
        window, free_at, last_sent = INITIAL_WINDOW, self.ready_at, None
        pending = bytearray()
        eof = False
        while True:
            if not pending and not eof:
                data = await reader.read(1 << 16)
                if not data:
                    eof = True
                pending += data
            # Gather what is already here, up to a window.
            while not eof and len(pending) < window:
                try:
                    data = await asyncio.wait_for(reader.read(1 << 16), 0.001)
                except asyncio.TimeoutError:
                    break
                if not data:
                    eof = True
                    break
                pending += data
            if not pending and eof:
                break
            now = loop.time()
            t = max(now, free_at)
            if last_sent is not None and t - last_sent > rto:
                window = INITIAL_WINDOW
            chunk = bytes(pending[:window])
            del pending[: len(chunk)]
            serialise = len(chunk) / self.rate
            deliveries.put_nowait((t + serialise + self.rtt / 2, chunk))
            last_sent = t + serialise
            if len(chunk) == window:
                # The window is full: the next one leaves when its acknowledgements are back.
                free_at = t + max(self.rtt, serialise)
                window *= 2
            else:
                free_at = t + serialise
            if free_at > loop.time():
                await asyncio.sleep(free_at - loop.time())
        deliveries.put_nowait((loop.time(), None))
        await task


async def main():
    args = sys.argv[1:]
    listen, upstream, timeline = int(args[0]), args[1], args[2]
    rtt = float(args[args.index("--rtt-ms") + 1]) / 1000 if "--rtt-ms" in args else 0.1
    rate = float(args[args.index("--mbit") + 1]) * 1e6 / 8 if "--mbit" in args else 20e6 / 8
    host, port = upstream.rsplit(":", 1)
    log = open(timeline, "a", buffering=1)
    counter = [0]

    def ms():
        return int(time.time() * 1000)

    async def connection(c_reader, c_writer):
        counter[0] += 1
        conn = counter[0]
        loop = asyncio.get_running_loop()
        # The client's SYN arrives now; its first byte can leave a round trip later.
        ready = loop.time() + rtt
        try:
            s_reader, s_writer = await asyncio.open_connection(host, int(port))
        except OSError:
            c_writer.close()
            return
        numbers = [0, 0]

        def started(method, path):
            numbers[0] += 1
            log.write(f"S {conn} {numbers[0]} {ms()} {method} {path}\n")

        def answered(size):
            numbers[1] += 1
            log.write(f"E {conn} {numbers[1]} {ms()} {size}\n")

        requests = Http(True, start=started)
        answers = Http(False, done=answered)

        async def up():
            # The request is noted as it leaves the client, before the model delays it.
            async def tap():
                while True:
                    data = await c_reader.read(1 << 16)
                    if not data:
                        feed.feed_eof()
                        return
                    requests.feed(data)
                    feed.feed_data(data)

            feed = asyncio.StreamReader()
            t = asyncio.create_task(tap())
            await Path(rtt, rate, ready, lambda _: None).run(feed, s_writer)
            await t

        down = Path(rtt, rate, ready, answers.feed).run(s_reader, c_writer)
        try:
            await asyncio.gather(up(), down)
        except (ConnectionError, OSError):
            pass
        finally:
            for w in (c_writer, s_writer):
                try:
                    w.close()
                except OSError:
                    pass

    server = await asyncio.start_server(connection, "127.0.0.1", listen)
    print(f"link listening on {listen}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
