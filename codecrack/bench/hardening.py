"""``codecrack bench hardening``: what the heaviest table a client may create costs a real
``codecrack serve`` process, and what slow clients get (issue 24; docs/security.md).

For each game, in a fresh server on SQLite: a table of the game's largest allowed options with
every seat played by ``hard`` AIs (the human seat's player connects and leaves at once, and the
takeover AI plays it), to the end; then a review and a replay hint of that seat, and the whole replay
page by page, ten times, while another client asks ``/healthz`` without pause. Reported: the server's peak
RSS above its start (``VmHWM``) and the CPU seconds it used, and those of its worker processes
(where the hint, the review and heavy tables' bot moves run: their CPU in all, the largest peak), the longest ``/healthz`` answer
during the replay (the longest stall another client saw), and then what idle and slow HTTP
connections from one address get.

``codecrack bench ai-share`` (issue 24 §4): one client (address 127.0.0.1) makes the default limit's
20 tables of ``hard`` bots at once, all seats AIs, while another client (127.0.0.2) plays a table of
its own against one ``hard`` bot and a third (127.0.0.3) asks ``/healthz`` back to back. Reported:
how long the other client's bot took for each of its moves (from the moment its turn began until the
player's turn came back, the ``ai_pace`` of 0.6 s included), the ``/healthz`` answers and the
server's CPU, over ``-o seconds=N`` (60) while the flood's tables play. With ``-o heavy=true`` the
flood's tables have the game's largest allowed options (Alphabet Code: 10 letters on 13 x 7, whose
bots move in the heavy tables' worker process), the other client's table the defaults: the longest
``/healthz`` answer is then the longest stall heavy bots cause another table's client.

``codecrack bench hint-share`` (issue 24 §1): on the largest Alphabet Code table allowed, a seated
player asks for hints back to back (each one at the first move: every code a candidate) while
another client (127.0.0.3) asks ``/healthz`` back to back, for ``-o seconds=N`` (60). Reported: the
hints answered and their times, the ``/healthz`` answers, and the CPU and peak RSS of the server's
process and of its worker processes (hints run in workers since the runtime budget). With ``-o
after_codes=true`` the player first makes its code and waits until the bot has made its own (the
sheet's table of codes built for it), then asks: the first hint a player gets at its turn.
"""

from __future__ import annotations

import json
import select
import socket
import statistics
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from ..loadtest.target import ServerProcess, codecrack_server
from ..protocol.deltas import followed

# The largest option sets a client may choose (Alphabet Code: the largest sheet within the default
# work budget, docs/ai.md; Coda: the dashes, its dearest moves by ``move-cost``), with each game's
# most players.
LARGEST: dict[str, dict[str, Any]] = {
    "coda": {"players": 4, "options": {"dashes": True}},
    "coding": {"players": 4, "options": {}},
    "alphacode": {"players": 2, "options": {"letters": 10, "columns": 13, "rows": 7}},
}
GUARD = 600.0  # seconds the benchmark waits for one game at most
REPLAYS = 10  # the whole replay is read this many times while another client asks /healthz


def proc_status(pid: int, key: str) -> int:
    """A ``/proc/PID/status`` figure in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise KeyError(key)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime + stime, in ticks of 10 ms


class Pinger(threading.Thread):
    """Asks ``/healthz`` back to back; ``longest`` is the slowest answer in seconds."""

    def __init__(self, url: str, address: str = "127.0.0.1") -> None:
        super().__init__(daemon=True)
        self.url, self.address, self.longest, self.count = url, address, 0.0, 0
        self.answers: list[float] = []
        self.done = threading.Event()

    def run(self) -> None:
        with client_at(self.address, timeout=60) as client:
            while not self.done.is_set():
                started = time.perf_counter()
                client.get(f"{self.url}/healthz")
                self.answers.append(time.perf_counter() - started)
                self.longest = max(self.longest, self.answers[-1])
                self.count += 1


def client_at(address: str, **settings: Any) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (any 127.x.y.z on loopback)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), **settings)


def socket_at(url: str, address: str) -> socket.socket:
    """A TCP connection from ``address`` to the server at ``url``."""
    connection = socket.socket()
    connection.settimeout(60)
    connection.bind((address, 0))
    connection.connect(("127.0.0.1", int(url.rsplit(":", 1)[1])))
    return connection


def leave_at_once(url: str, code: str, token: str) -> None:
    """The seat's player connects and leaves: the takeover AI plays the seat from then on."""
    with connect(f"ws{url.removeprefix('http')}/ws/{code}", open_timeout=60) as player:
        player.send(json.dumps({"type": "hello", "token": token}))
        player.recv(timeout=60)


def heaviest_table(server: ServerProcess, game: str) -> dict[str, Any]:
    plan = LARGEST[game]
    seats = [{"kind": "human"}] + [{"kind": "ai", "agent": "hard"}] * (plan["players"] - 1)
    base_rss, base_cpu = proc_status(server.pid, "VmRSS"), cpu_seconds(server.pid)
    started = time.monotonic()
    with httpx.Client(base_url=server.url, timeout=GUARD) as client:
        made = client.post(
            "/api/tables",
            json={"game": game, "seats": seats, "options": plan["options"], "takeover": "hard", "sit": 0},
        )
        made.raise_for_status()
        code, token = made.json()["code"], made.json()["token"]
        leave_at_once(server.url, code, token)
        while client.get(f"/api/tables/{code}").json().get("result") is None:
            if time.monotonic() - started > GUARD:
                raise TimeoutError(f"{game}: the game did not end within {GUARD:.0f} s")
            time.sleep(0.2)
        played = time.monotonic() - started
        mine = {"Authorization": f"Bearer {token}"}
        client.get(f"/api/tables/{code}/review", headers=mine).raise_for_status()
        steps = client.get(f"/api/tables/{code}/replay").json()["steps"]
        client.get(f"/api/tables/{code}/replay/{steps // 2}/hint", headers=mine).raise_for_status()
        pinger = Pinger(server.url)
        pinger.start()
        while not pinger.count:  # the other client is asking before the replays start
            time.sleep(0.01)
        pages, replay_bytes = 0, 0
        for _ in range(REPLAYS):
            start = 0
            while start < steps:
                page = client.get(f"/api/tables/{code}/replay", params={"start": start}, headers=mine)
                page.raise_for_status()
                replay_bytes += len(page.content)
                start += len(page.json()["frames"])
                pages += 1
        pinger.done.set()
        pinger.join(timeout=60)
    workers = descendants(server.pid)  # the fork server and the workers of the AI's heavy work
    return {
        "game": game,
        "players": plan["players"],
        "options": plan["options"],
        "steps": steps,
        "game_seconds": round(played, 1),
        "peak_rss_mb_above_start": round((proc_status(server.pid, "VmHWM") - base_rss) / 1024, 1),
        "cpu_seconds": round(cpu_seconds(server.pid) - base_cpu, 2),
        "worker_cpu_seconds": round(sum(cpu_seconds(pid) for pid in workers), 2),
        "worker_peak_rss_mb": round(max((proc_status(pid, "VmHWM") for pid in workers), default=0) / 1024, 1),
        "replay_pages": pages,
        "replay_mb_read": round(replay_bytes / 2**20, 2),
        "longest_healthz_during_replay_ms": round(pinger.longest * 1000, 1),
        "healthz_answers_during_replay": pinger.count,
    }


def slow_connections(server: ServerProcess, sockets: int = 100) -> dict[str, Any]:
    """``sockets`` connections from one address that send nothing, and one that drips its headers:
    how many the server kept, and when it closed them."""
    port = int(server.url.rsplit(":", 1)[1])
    opened = [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(sockets)]
    started = time.monotonic()
    closed_at: list[float] = []
    waiting = list(opened)
    while waiting and time.monotonic() - started < 120:
        readable, _, _ = select.select(waiting, [], [], 1.0)
        for connection in readable:  # readable with nothing to read: closed by the server
            try:
                connection.recv(1)
            except OSError:
                pass
            closed_at.append(time.monotonic() - started)
            waiting.remove(connection)
    for connection in opened:
        connection.close()
    drip = socket.create_connection(("127.0.0.1", port), timeout=60)
    dripped, drip_started = 0, time.monotonic()
    try:
        drip.sendall(b"GET /healthz HTTP/1.1\r\n")
        while True:
            time.sleep(1)
            drip.sendall(b"X-Slow: 1\r\n")
            dripped += 1
    except OSError:
        pass
    drip_closed = time.monotonic() - drip_started
    drip.close()
    early = [moment for moment in closed_at if moment < 1]
    return {
        "idle_sockets": sockets,
        "closed_at_once": len(early),
        "kept_then_closed_after_s": round(max(closed_at), 1) if closed_at else None,
        "dripping_headers_closed_after_s": round(drip_closed, 1),
        "header_lines_dripped": dripped,
    }


def bot_turns(url: str, address: str, game: str, until: threading.Event) -> list[float]:
    """Tables of ``game`` against one ``hard`` bot, played from ``address`` (the first legal
    action each turn) until ``until`` is set: the seconds each of the bot's turns took."""
    turns: list[float] = []
    with client_at(address, base_url=url, timeout=GUARD) as client:
        while not until.is_set():
            made = client.post(
                "/api/tables",
                json={"game": game, "seats": [{"kind": "human"}, {"kind": "ai", "agent": "hard"}], "sit": 0},
            )
            made.raise_for_status()
            code, token = made.json()["code"], made.json()["token"]
            ws_url = f"ws{url.removeprefix('http')}/ws/{code}"
            with connect(ws_url, sock=socket_at(url, address), open_timeout=60) as player:
                player.send(json.dumps({"type": "hello", "token": token}))
                view, step, acted, waiting_since = None, -1, -1, None
                while not until.is_set():
                    message = json.loads(player.recv(timeout=GUARD))
                    if message["type"] == "table" and message["table"]["over"]:
                        break
                    if message["type"] not in ("state", "delta"):
                        continue
                    step, view = followed(view, step, message)
                    if not view["legal_actions"]:
                        waiting_since = waiting_since or time.monotonic()
                        continue
                    if waiting_since is not None:
                        turns.append(time.monotonic() - waiting_since)
                        waiting_since = None
                    if acted != step:
                        acted = step
                        player.send(json.dumps({"type": "action", "action": view["legal_actions"][0]}))
    return turns


def ai_share(
    game: str | None = None, games: int | None = None, seconds: float = 60, heavy: str = "false", **_: Any
) -> dict[str, Any]:
    """``games`` (20) all-``hard`` tables of ``game`` (Coda) from one client, of its largest allowed
    options if ``heavy``, while another plays for ``seconds`` (or until the flood's games end)."""
    game, flood = game or "coda", games or 20
    options = LARGEST[game]["options"] if str(heavy).lower() == "true" else {}
    with codecrack_server(CODECRACK_TABLES_PER_MINUTE="20") as server:
        with client_at("127.0.0.1", base_url=server.url, timeout=GUARD) as greedy:
            codes = []
            for _table in range(flood):
                made = greedy.post(
                    "/api/tables",
                    json={"game": game, "seats": [{"kind": "ai", "agent": "hard"}] * 4, "options": options},
                )
                made.raise_for_status()
                codes.append(made.json()["code"])
            started, cpu = time.monotonic(), cpu_seconds(server.pid)
            over = threading.Event()
            pinger = Pinger(server.url, "127.0.0.3")
            pinger.start()
            turns: list[float] = []
            player = threading.Thread(
                target=lambda: turns.extend(bot_turns(server.url, "127.0.0.2", game, over)), daemon=True
            )
            player.start()
            while time.monotonic() - started < float(seconds) and any(
                greedy.get(f"/api/tables/{code}").json()["result"] is None for code in codes
            ):
                time.sleep(0.5)
            over.set()
            pinger.done.set()
            elapsed, cpu = time.monotonic() - started, cpu_seconds(server.pid) - cpu
            workers = sum(cpu_seconds(pid) for pid in descendants(server.pid))
            player.join(timeout=GUARD)
            pinger.join(timeout=60)
    return {
        "game": game,
        "flood_tables": flood,
        "flood_options": options,
        "seconds": round(elapsed, 1),
        "server_cpu_percent_of_a_core": round(100 * cpu / elapsed),
        "worker_cpu_s": round(workers, 2),
        "other_bot_turns": len(turns),
        "other_bot_turn_median_s": round(statistics.median(turns), 2) if turns else None,
        "other_bot_turn_max_s": round(max(turns), 2) if turns else None,
        "healthz_median_ms": round(1000 * statistics.median(pinger.answers), 1),
        "healthz_max_ms": round(1000 * pinger.longest, 1),
    }


def descendants(pid: int) -> list[int]:
    """The processes started by ``pid`` (its children, theirs, ...)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = proc_status(int(entry.name), "PPid")
            except (OSError, KeyError):
                continue
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def codes_made(player: Any) -> None:
    """Make the seat's code, then read until both codes are made."""
    player.send(json.dumps({"type": "action", "action": {"type": "random_code"}}))
    view, step = None, -1
    while view is None or view["phase"] == "code":
        message = json.loads(player.recv(timeout=GUARD))
        if message["type"] in ("state", "delta"):
            step, view = followed(view, step, message)


def hint_share(seconds: float = 60, after_codes: str = "false", **_: Any) -> dict[str, Any]:
    """Hints back to back on the largest Alphabet Code table while another client asks ``/healthz``
    (once both codes are made if ``after_codes``)."""
    plan = LARGEST["alphacode"]
    seats = [{"kind": "human"}, {"kind": "ai", "agent": "hard"}]
    with codecrack_server() as server, httpx.Client(base_url=server.url, timeout=GUARD) as client:
        made = client.post(
            "/api/tables", json={"game": "alphacode", "seats": seats, "options": plan["options"], "sit": 0}
        )
        made.raise_for_status()
        base_rss, cpu = proc_status(server.pid, "VmRSS"), cpu_seconds(server.pid)
        hints: list[float] = []
        refused = 0
        with connect(f"ws{server.url.removeprefix('http')}/ws/{made.json()['code']}", open_timeout=60) as player:
            player.send(json.dumps({"type": "hello", "token": made.json()["token"]}))
            if str(after_codes).lower() == "true":
                codes_made(player)
            pinger = Pinger(server.url, "127.0.0.3")
            pinger.start()
            started = time.monotonic()
            while time.monotonic() - started < float(seconds):
                asked = time.monotonic()
                player.send(json.dumps({"type": "hint"}))
                while (kind := json.loads(player.recv(timeout=GUARD))["type"]) not in ("hint", "error"):
                    pass
                hints.append(time.monotonic() - asked)
                refused += kind == "error"
            elapsed = time.monotonic() - started
            pinger.done.set()
            pinger.join(timeout=60)
        workers = descendants(server.pid)
        report = {
            "after_codes": str(after_codes).lower() == "true",
            "hints": len(hints),
            "refused": refused,
            "first_hint_s": round(hints[0], 2),
            "later_hints_median_s": round(statistics.median(hints[1:]), 2) if len(hints) > 1 else None,
            "healthz_answers": pinger.count,
            "healthz_median_ms": round(1000 * statistics.median(pinger.answers), 1),
            "healthz_max_ms": round(1000 * pinger.longest, 1),
            "server_cpu_percent_of_a_core": round(100 * (cpu_seconds(server.pid) - cpu) / elapsed),
            "server_peak_rss_mb_above_start": round((proc_status(server.pid, "VmHWM") - base_rss) / 1024, 1),
            "worker_cpu_s": round(sum(cpu_seconds(pid) for pid in workers), 2),
            "worker_peak_rss_mb": [round(proc_status(pid, "VmHWM") / 1024, 1) for pid in workers],
        }
    return report


def hardening(game: str | None = None, **_: Any) -> dict[str, Any]:
    """Every game's heaviest table (or ``game``'s alone), then the slow connections."""
    report: dict[str, Any] = {"tables": []}
    for name in [game] if game else list(LARGEST):
        with codecrack_server(CODECRACK_AI_PACE="0", CODECRACK_DISCONNECT_TIMEOUT="0") as server:
            report["tables"].append(heaviest_table(server, name))
    with codecrack_server(CODECRACK_HTTP_CONNECTIONS_PER_ADDRESS="64") as server:  # the default cap
        report["slow_connections"] = slow_connections(server)
    return report


BENCHMARKS = {"hardening": hardening, "ai-share": ai_share, "hint-share": hint_share}
