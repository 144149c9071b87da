"""What the lobby offers: each game's player range, agent tiers and an options form.

The form is generated from the game's pydantic ``Options`` model, so a new option appears in the
browser without front-end changes.
"""

from __future__ import annotations

from typing import Any

from ..agents import agent_names
from ..agents.registry import tier_names
from ..core.daily import daily_of
from ..core.errors import OptionError
from ..core.options import server_only
from ..core.registry import GAMES, game_class
from ..tutorials import tutorial
from .game_assets import module_url


def offered_options(game: str) -> list[str]:
    """The options a web client may set for ``game``: every option of its model but the server-only ones."""
    model = game_class(game).Options
    return [name for name in model.model_fields if not server_only(model, name)]


def option_fields(game: str) -> list[dict[str, Any]]:
    """One form field per offered option: ``{"name", "title", "help", "kind": bool|choice|int|seat|text,
    "default", ...}``; the title and help are the model's ``Field(title=..., description=...)``."""
    schema = game_class(game).Options.model_json_schema()
    fields = []
    for name, prop in schema.get("properties", {}).items():
        if name not in offered_options(game):
            continue
        fields.append(
            {
                "name": name,
                "title": prop.get("title", name),
                "default": prop.get("default"),
                "help": prop.get("description", ""),
                **_field_kind(prop),
            }
        )
    return fields


def _field_kind(prop: dict[str, Any]) -> dict[str, Any]:
    if prop.get("control") == "seat":
        return {"kind": "seat", "unset": prop.get("unset", "")}
    variants = prop.get("anyOf", [prop])
    choices = prop.get("choices") or [
        value for v in variants for value in v.get("enum", [v["const"]] if "const" in v else [])
    ]
    if choices:
        return {"kind": "choice", "choices": choices}
    types = {v.get("type") for v in variants}
    if types <= {"boolean"}:
        return {"kind": "bool"}
    if types & {"integer", "number"}:
        limits = next(v for v in variants if v.get("type") in ("integer", "number"))
        return {
            "kind": "int" if "integer" in types else "number",
            "min": limits.get("minimum"),
            "max": limits.get("maximum"),
        }
    return {"kind": "text"}


def game_info(game: str) -> dict[str, Any]:
    cls = game_class(game)
    script = tutorial(game)
    return {
        "name": game,
        "board": module_url(game, "board.js"),
        "daily": module_url(game, "daily.js") if daily_of(game) else None,
        "learn": script.level if script else None,
        "min_players": cls.min_players,
        "max_players": cls.max_players,
        "agents": agent_names(game),
        "tiers": tier_names(game),
        "facts": cls.facts() if hasattr(cls, "facts") else {},  # public data a how-to page draws
        "options": option_fields(game),
        "presets": [
            {"name": p.name, "title": p.title, "help": p.description, "options": dict(p.options), "default": p.default}
            for p in cls.presets
        ],
    }


def catalog() -> list[dict[str, Any]]:
    """Every game whose rules can be imported (a game still being built is left out)."""
    games = []
    for name in GAMES:
        try:
            games.append(game_info(name))
        except (ImportError, OptionError):
            continue
    return games
