"""The hosts name no game (issue 26 §2): a game's pieces (hints, clock, tutorial, board module...)
live in its own package and every host finds them through the registry, so a new game is one
package. A host file names a game when it holds one of codecrack's game names as a string (or a
JavaScript key), or when it is named after one (``terminal/coda.py``); doctest examples do not count.

``STILL_NAMED`` lists the host files that still do, each with its reason; it only shrinks: a
listed file that no longer names a game fails the test, so that the list stays true."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "codecrack"
GAMES = sorted(path.name for path in (ROOT / "games").iterdir() if (path / "rules.py").is_file())
HOSTS = ("web", "terminal", "review", "tutorials", "agents", "env", "loadtest", "protocol", "cli.py", "cli_admin.py")
NAMED = re.compile(r"""["'`](%s)["'`]|^\s*(%s)\s*:""" % ("|".join(GAMES), "|".join(GAMES)), re.MULTILINE)

# host file (from codecrack/) -> why it still names a game (issue 26 §2 lists what is left)
STILL_NAMED: dict[str, str] = {}


def host_files() -> list[Path]:
    paths = [ROOT / host for host in HOSTS]
    found = [path for path in paths if path.is_file()] + [f for p in paths if p.is_dir() for f in sorted(p.rglob("*"))]
    return [path for path in found if path.suffix in (".py", ".js")]


def names_a_game(path: Path) -> bool:
    text = "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith(">>>"))
    named_after = path.stem in GAMES or path.stem.startswith(tuple(f"{game}_" for game in GAMES))
    return named_after or NAMED.search(text) is not None


def test_the_hosts_name_no_game():
    named = {str(path.relative_to(ROOT)) for path in host_files() if names_a_game(path)}
    assert sorted(named - set(STILL_NAMED)) == [], "a host names a game: put that piece in the game's package"
    assert sorted(set(STILL_NAMED) - named) == [], "no longer names a game: remove it from STILL_NAMED"
