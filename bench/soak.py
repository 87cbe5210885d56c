#!/usr/bin/env python3
"""The two halves of bench/soak.sh that talk to the server, over kept-alive connections.

soak.py flood ZULIPRC COUNT TO_EMAIL [THREADS]
    The user of ZULIPRC sends COUNT messages as fast as the server takes them, one connection
    per thread, never a process per message. Nine in ten go to channels (general, random,
    engineering), each to one of eight topics; every tenth is a direct message to TO_EMAIL. The
    text is generated, seeded, of chat-like length (a handful to forty words, now and then bold,
    code or a link). Prints one JSON line at the end: {"sent", "failed", "seconds",
    "content_bytes"}; progress goes to standard error.

soak.py check ZULIPRC DUMP
    Compares the client's state dump (`:dump-state DUMP`) with the server's truth for the user
    of ZULIPRC, and prints one JSON line: the messages the client holds ("held"; "in_windows":
    those its windows list), the JSON size of the held messages as the client asks for them
    (fetched by ID with apply_markdown and client_gravatar, compact JSON),
    the server's unread messages (is:unread paged from the oldest) and the client's, and
    whether they are the same.
"""

import base64
import configparser
import http.client
import json
import random
import sys
import threading
import time
import urllib.parse

WORDS = (
    "deploy staging latency rollback ticket merge cache queue schema dashboard customer draft "
    "timeline estimate blocker owner scope config branch benchmark index backfill quota region "
    "patch retry budget the a to of and in is it for on we should could would after before "
    "today tomorrow yesterday maybe definitely looks good thanks please check review ship"
).split()
CHANNELS = ("general", "random", "engineering")


def text(rng):
    words = [rng.choice(WORDS) for _ in range(rng.randint(4, 40))]
    words[0] = words[0].capitalize()
    roll = rng.random()
    if roll < 0.1:
        i = rng.randrange(len(words))
        words[i] = f"**{words[i]}**"
    elif roll < 0.2:
        i = rng.randrange(len(words))
        words[i] = f"`{words[i]}()`"
    elif roll < 0.25:
        words.append(f"https://example.com/issues/{rng.randint(1, 99999)}")
    return " ".join(words) + rng.choice((".", "?", "!", ""))


class Account:
    """A zuliprc's site and credentials."""

    def __init__(self, path):
        rc = configparser.ConfigParser()
        rc.read_string("[api]\n" + open(path).read().split("[api]", 1)[-1])
        self.site = urllib.parse.urlsplit(rc["api"]["site"])
        auth = base64.b64encode(f'{rc["api"]["email"]}:{rc["api"]["key"]}'.encode()).decode()
        self.headers = {"Authorization": f"Basic {auth}", "Content-Type": "application/x-www-form-urlencoded"}

    def connect(self):
        return http.client.HTTPConnection(self.site.hostname, self.site.port, timeout=60)


def flood(rc_path, count, to_email, threads=4):
    account = Account(rc_path)
    headers = account.headers
    lock = threading.Lock()
    state = {"next": 0, "sent": 0, "failed": 0, "bytes": 0}

    def take():
        with lock:
            n = state["next"]
            if n >= count:
                return None
            state["next"] = n + 1
            return n

    def work(seed):
        rng = random.Random(seed)
        conn = account.connect()
        while (n := take()) is not None:
            body = text(rng)
            if n % 10 == 9:
                form = {"type": "direct", "to": json.dumps([to_email]), "content": body}
            else:
                form = {"type": "stream", "to": CHANNELS[n % 3], "topic": f"soak {n % 8}", "content": body}
            ok = False
            for _ in range(3):
                try:
                    conn.request("POST", "/api/v1/messages", urllib.parse.urlencode(form), headers)
                    resp = conn.getresponse()
                    resp.read()
                    ok = resp.status == 200
                    break
                except (OSError, http.client.HTTPException):
                    conn.close()
                    conn = account.connect()
            with lock:
                state["sent" if ok else "failed"] += 1
                state["bytes"] += len(body.encode()) if ok else 0
                done = state["sent"] + state["failed"]
            if done % 10000 == 0:
                print(f"  {done} sent", file=sys.stderr, flush=True)

    start = time.monotonic()
    pool = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    seconds = time.monotonic() - start
    print(json.dumps({"sent": state["sent"], "failed": state["failed"], "seconds": round(seconds, 2),
                      "content_bytes": state["bytes"]}))


def check(rc_path, dump_path):
    account = Account(rc_path)
    conn = account.connect()

    def get_messages(params):
        query = urllib.parse.urlencode({"apply_markdown": "true", "client_gravatar": "true", **params})
        conn.request("GET", "/api/v1/messages?" + query, headers=account.headers)
        resp = conn.getresponse()
        body = json.loads(resp.read())
        if resp.status != 200:
            sys.exit(f"GET /messages: {resp.status} {body.get('msg')}")
        return body

    dump = json.load(open(dump_path))
    ids = dump["held"]
    in_windows = len({i for n in dump["narrows"] for i in n["ids"]})
    json_bytes = 0
    for at in range(0, len(ids), 1000):
        page = get_messages({"message_ids": json.dumps(ids[at:at + 1000])})
        json_bytes += sum(len(json.dumps(m, separators=(",", ":"), ensure_ascii=False).encode())
                          for m in page["messages"])
    unread, anchor = [], "oldest"
    narrow = json.dumps([{"operator": "is", "operand": "unread"}])
    while True:
        page = get_messages({"narrow": narrow, "anchor": anchor, "include_anchor": "false",
                             "num_before": 0, "num_after": 5000})
        unread += [m["id"] for m in page["messages"]]
        if page["found_newest"] or not page["messages"]:
            break
        anchor = page["messages"][-1]["id"]
    mine = sorted(dump["unread"])
    print(json.dumps({"held": len(ids), "in_windows": in_windows, "json_bytes": json_bytes,
                      "unread_server": len(unread), "unread_client": len(mine),
                      "unread_equal": mine == sorted(unread),
                      "only_server": len(set(unread) - set(mine)), "only_client": len(set(mine) - set(unread))}))


if __name__ == "__main__":
    if sys.argv[1:2] == ["flood"]:
        flood(sys.argv[2], int(sys.argv[3]), sys.argv[4], *(int(a) for a in sys.argv[5:6]))
    elif sys.argv[1:2] == ["check"]:
        check(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
