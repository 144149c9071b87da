"""A protocol bot that misbehaves on purpose: ``python hostile_bot.py MODE [FILE]``.

It answers the ping, then on its first ``act`` does what MODE says. ``record`` plays the first
legal action and appends every line it receives to FILE; ``forker`` leaves a child holding its
output and writes the child's pid to FILE.
"""

import json
import os
import subprocess
import sys
import time


def main():
    mode = sys.argv[1]
    if mode == "exit_at_start":
        sys.stderr.write("cannot load my weights\n")
        sys.exit(3)
    for line in sys.stdin:
        if mode == "record":
            with open(sys.argv[2], "a") as log:
                log.write(line)
        message = json.loads(line)
        if message["type"] == "ping":
            print(json.dumps({"type": "pong", "id": message["id"]}), flush=True)
            if mode == "deaf":
                time.sleep(600)
            continue
        if message["type"] == "quit":
            return
        if message["type"] == "hello":
            continue
        legal = message["view"]["legal_actions"][0]
        if mode == "raise":
            raise RuntimeError("my bug")
        if mode == "sleep":
            time.sleep(600)
        if mode == "illegal":
            print(json.dumps({"type": "action", "id": message["id"], "action": {"type": "cheat"}}), flush=True)
        elif mode == "garbage":
            print("e2e4", flush=True)
        elif mode == "flood":
            chunk = "x" * (1 << 20)
            for _ in range(1 << 10):
                sys.stdout.write(chunk)
        elif mode == "chatty":
            print(json.dumps({"type": "action", "id": message["id"], "action": legal}), flush=True)
            print(json.dumps({"type": "action", "id": message["id"], "action": legal}), flush=True)
        elif mode == "forker":
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
            with open(sys.argv[2], "w") as out:
                out.write(str(child.pid))
            os._exit(0)
        elif mode == "stderr_spam":
            sys.stderr.write("thinking... " * 100_000)
            print(json.dumps({"type": "action", "id": message["id"], "action": legal}), flush=True)
        else:
            print(json.dumps({"type": "action", "id": message["id"], "action": legal}), flush=True)


if __name__ == "__main__":
    main()
