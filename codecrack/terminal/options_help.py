"""Every game's options and presets as text for ``codecrack play --help``, and ``--preset``.

The labels and descriptions come from each game's ``Options`` model (``Field(title=...,
description=...)``) and its ``presets``, the same ones the web lobby shows.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import OptionError
from ..core.game import Game
from ..core.options import find_preset, option_values
from ..core.registry import GAMES, game_class
from ..i18n import N_, _

OPTION_LINE = N_("  {name}={values} (default: {default}): {title}. {description}")
PRESET_LINE = N_("  --preset {name}{marker}: {description}")
DEFAULT_MARKER = N_(" (default)")
SEAT_NOTE = N_(
    "A SEAT value counts from 1, as the table shows the seats: first=1 is the player the table shows as seat 1."
)
NOT_A_SEAT = N_("{name} is a seat: 1 to {last}, or none (not {value})")
GAME_HEADING = N_("{name} options (-o KEY=VALUE):")
PRESETS_HEADING = N_("{name} presets:")


def preset_options(game: str, name: str | None) -> dict[str, Any]:
    """The options of ``game``'s preset ``name``; with no name, the default preset's (if any)."""
    presets = game_class(game).presets
    if name is None:
        return next((dict(p.options) for p in presets if p.default), {})
    return dict(find_preset(presets, name).options)


def typed_seat_options(game: str, options: dict[str, Any], players: int) -> dict[str, Any]:
    """The options typed at the terminal with their seat options (``first``, ``creator``) turned
    from the table's numbering (1 to ``players``) into the engine's (from 0); ``none`` stays none."""
    fields = game_class(game).Options.model_fields
    engine = dict(options)
    for name, value in options.items():
        field = fields.get(name)
        extra = None if field is None else field.json_schema_extra
        if not isinstance(extra, dict) or extra.get("control") != "seat":
            continue
        text = str(value).strip().lower()
        if text == "none":
            engine[name] = None
        elif text.isdecimal() and 1 <= int(text) <= players:
            engine[name] = int(text) - 1
        else:
            raise OptionError(NOT_A_SEAT, name=name, last=players, value=value)
    return engine


def game_help(cls: type[Game]) -> list[str]:
    """One line per option, then one per preset."""
    model = cls.Options
    lines = [_(GAME_HEADING).format(name=cls.name)]
    for name, field in model.model_fields.items():
        default = field.default
        shown = "none" if default is None else str(default).lower() if isinstance(default, bool) else default
        lines.append(
            _(OPTION_LINE).format(
                name=name,
                values=option_values(model, name),
                default=shown,
                title=_(field.title or name),
                description=_(field.description or ""),
            )
        )
    if cls.presets:
        lines.append(_(PRESETS_HEADING).format(name=cls.name))
        lines += [
            _(PRESET_LINE).format(
                name=p.name, marker=_(DEFAULT_MARKER) if p.default else "", description=_(p.description)
            )
            for p in cls.presets
        ]
    return lines


def options_epilog() -> str:
    """Every installed game's options; paragraphs (one per line) as Typer's help expects."""
    lines = [_(SEAT_NOTE)]
    for name in GAMES:
        try:
            lines += game_help(game_class(name))
        except (ImportError, OptionError):  # a game that cannot be imported offers nothing
            continue
    return "\n\n".join(lines)
