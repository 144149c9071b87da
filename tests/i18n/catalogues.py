"""The catalogues as the tests read them: the front end's JSON files and the Python .po files."""

from __future__ import annotations

import json
import re
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from codecrack.i18n import LOCALE

ROOT = Path(__file__).resolve().parents[2]
FRONT = ROOT / "codecrack" / "web" / "static" / "i18n"
PLACEHOLDER = re.compile(r"\{(\w+(?:![rsa])?)\}")  # {name}, {name!r}


def front_catalogue(lang: str) -> dict[str, str]:
    return json.loads((FRONT / f"{lang}.json").read_text(encoding="utf-8"))


def front_languages() -> list[str]:
    return sorted(path.stem for path in FRONT.glob("*.json"))


def po_languages() -> list[str]:
    return sorted(path.parent.parent.name for path in LOCALE.glob("*/LC_MESSAGES/codecrack.po"))


def po_catalogue(lang: str):
    with (LOCALE / lang / "LC_MESSAGES" / "codecrack.po").open("rb") as po:
        return read_po(po, locale=lang)


def extracted_messages() -> set[str]:
    """Every text `make messages` (pybabel extract with babel.cfg) finds in the package."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT / "codecrack"), method_map, options_map
    ):
        found.update(message if isinstance(message, tuple) else (message,))
    return {m for m in found if m}


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))
