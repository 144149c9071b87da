"""The configurations every environment test covers: each game with 2 and 4 seats, and variants."""

CONFIGS = [
    ("coda", 2, {}),
    ("coda", 4, {}),
    ("coda", 3, {"draw": "deck", "dashes": True, "memory": True}),
    ("coda", 2, {"rounds": 3, "draw": "deck"}),
    ("coding", 2, {}),
    ("coding", 4, {}),
    ("coding", 2, {"mode": "speed"}),
    ("coding", 4, {"mode": "speed"}),
    ("coding", 3, {"mode": "one-shot"}),
    ("coding", 4, {"mode": "counter"}),
    ("alphacode", 2, {}),
    ("alphacode", 3, {}),
    ("alphacode", 4, {"real_words": True}),
]


def config_id(config) -> str:
    name, players, options = config
    return "-".join([name, str(players), *(f"{k}={v}" for k, v in options.items())])
