"""A Coda bot on the codecrack protocol: guess the hidden tile with the fewest values left."""

import json
import sys


def chance(view, guess):
    """1 / how many values the target tile can still hold, if the guessed one is among them."""
    row = view["rows"][guess["target"]]
    seen = {(t["color"], t["value"]) for r in view["rows"] for t in r if t["value"] is not None}
    if view["drawn"]:
        seen.add((view["drawn"]["color"], view["drawn"]["value"]))
    low = max([t["value"] for t in row[: guess["index"]] if t["value"] is not None], default=0)
    high = min([t["value"] for t in row[guess["index"] + 1 :] if t["value"] is not None], default=11)
    left = [v for v in range(low, high + 1) if (guess["color"], v) not in seen]
    return 1 / len(left) if guess["value"] in left else 0


def act(view):
    legal = view["legal_actions"]
    guesses = [a for a in legal if a["type"] == "guess"]
    if not guesses:
        return legal[0]
    best = max(guesses, key=lambda g: chance(view, g))
    stop = [a for a in legal if a["type"] == "stop"]
    return stop[0] if stop and chance(view, best) < 0.5 else best


def say(message):
    print(json.dumps(message), flush=True)


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "ping":
        say({"type": "pong", "id": message["id"]})
    elif message["type"] == "act":
        say({"type": "action", "id": message["id"], "action": act(message["view"])})
    elif message["type"] == "quit":
        break
