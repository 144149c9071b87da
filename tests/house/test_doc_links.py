"""Every relative link in README.md and docs/**/*.md points to a file that exists, and to a heading of it;
and no doc is longer than 400 lines."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def prose(path: Path) -> list[str]:
    """The file's lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for line in prose(path):
        match = HEADING.match(line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(path: Path) -> list[str]:
    broken = []
    for line in prose(path):
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                continue  # http:, https:, mailto: ...
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            if not linked.exists():
                broken.append(f"{path.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                broken.append(f"{path.relative_to(ROOT)}: {target} (no such heading)")
    return broken


def test_every_relative_link_in_the_docs_points_to_an_existing_file_and_heading():
    broken = [fault for path in documents() for fault in broken_links(path)]
    assert not broken, "\n".join(broken)


def test_the_readme_links_every_doc():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in LINK.findall(readme)}
    docs = [path for path in sorted((ROOT / "docs").glob("*.md")) if path.resolve() not in linked]
    assert not docs, f"README.md does not link: {', '.join(str(p.relative_to(ROOT)) for p in docs)}"


def test_the_anchor_rule_follows_github():
    assert slug("Memory over thousands of games, and kill -9 under load") == (
        "memory-over-thousands-of-games-and-kill--9-under-load"
    )
    assert slug("Websocket `/ws/{code}`") == "websocket-wscode"


LONGEST_DOC = 400  # lines (issue 26 section 5): a doc read end to end; history lives in git or docs/notes/


def test_every_doc_is_short_enough_to_read():
    """A doc that outgrows the limit is trimmed or split by its readers' questions, not let grow."""
    lengths = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines()) for path in documents()
    }
    assert {name: n for name, n in lengths.items() if n > LONGEST_DOC} == {}
