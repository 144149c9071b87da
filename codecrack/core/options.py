"""Game options: one pydantic model per game, parsed from keywords or ``key=value`` text.

>>> from pydantic import BaseModel
>>> class Demo(GameOptions):
...     notes: bool = True
>>> parse_options(Demo, {"notes": "false"}).notes
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..i18n import N_
from .errors import OptionError
from .validation import Problems


class GameOptions(BaseModel):
    """Base of every game's options. ``first`` fixes the starting seat; ``None`` draws it from the seed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    first: int | None = Field(
        None,
        title=N_("Who starts"),
        description=N_("The seat that plays first; drawn at random unless you pick one."),
        json_schema_extra={"control": "seat", "unset": N_("drawn at random")},
    )

    def work_cost(self) -> tuple[float, float]:
        """(peak bytes, CPU seconds) that one AI move, hint or review step may take with these
        options, as measured; infinite when never measured. A game whose AI's work does not grow
        with its options keeps this (nothing on top of its fixed cost)."""
        return 0.0, 0.0


def seat_option(title: str, description: str, unset: str) -> Any:
    """A field naming a seat (0-based in the engine; hosts show it as the seat's name and number);
    ``unset`` says in plain words what no choice means."""
    return Field(None, title=title, description=description, json_schema_extra={"control": "seat", "unset": unset})


def file_option(title: str, description: str) -> Any:
    """A field naming a file on the machine that runs the game: set from the command line, never by
    a web client (``server_only``: the lobby leaves it out and the API refuses it)."""
    return Field(None, title=title, description=description, json_schema_extra={"server_only": True})


def server_only(model: type[GameOptions], name: str) -> bool:
    """Whether option ``name`` of ``model`` is set only where the game runs (see :func:`file_option`)."""
    extra = model.model_fields[name].json_schema_extra
    return isinstance(extra, dict) and bool(extra.get("server_only"))


def choice_option(default: Any, choices: list[Any], title: str, description: str, **limits: Any) -> Any:
    """A field whose legal values are ``choices`` only (hosts offer a choice, not a free number)."""
    return Field(default, title=title, description=description, json_schema_extra={"choices": choices}, **limits)


@dataclass(frozen=True)
class Preset:
    """A named set of options a game offers (``codecrack play --preset``, the lobby's presets)."""

    name: str
    title: str
    description: str
    options: Mapping[str, Any] = field(default_factory=dict)
    default: bool = False  # the game's defaults: the preset chosen when none is named


def find_preset(presets: tuple[Preset, ...], name: str) -> Preset:
    """The preset called ``name``, or an :class:`OptionError` that lists the valid ones."""
    for preset in presets:
        if preset.name == name:
            return preset
    raise OptionError(
        N_("unknown preset {name!r}; valid presets: {presets}"),
        name=name,
        presets=", ".join(preset.name for preset in presets) or "-",
    )


def option_values(model: type[GameOptions], name: str) -> str:
    """The legal values of option ``name`` as short text, for help listings: ``classic|deck``."""
    prop = model.model_json_schema()["properties"][name]
    variants = prop.get("anyOf", [prop])
    choices = prop.get("choices") or [v for variant in variants for v in variant.get("enum", [])]
    if choices:
        return "|".join(str(choice).lower() if isinstance(choice, bool) else str(choice) for choice in choices)
    types = {variant.get("type") for variant in variants} - {"null"}
    if prop.get("control") == "seat":
        return "SEAT"
    return {"boolean": "true|false", "integer": "N", "number": "NUMBER"}.get(next(iter(types), ""), "TEXT")


def parse_options(model: type[GameOptions], given: Mapping[str, Any]) -> GameOptions:
    """Validate ``given`` against ``model``, raising :class:`OptionError` with a readable message."""
    valid = sorted(model.model_fields)
    unknown = sorted(set(given) - set(valid))
    if unknown:
        raise OptionError(
            N_("unknown option(s) {unknown}; valid options: {valid}"),
            unknown=", ".join(unknown),
            valid=", ".join(valid),
        )
    try:
        return model(**given)
    except ValidationError as error:
        raise OptionError(N_("bad option value: {problems}"), problems=Problems(error.errors())) from None


def split_option_text(pairs: list[str]) -> dict[str, str]:
    """Turn CLI ``key=value`` strings into a dict.

    >>> split_option_text(["draw=deck", "dashes=true"])
    {'draw': 'deck', 'dashes': 'true'}
    """
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise OptionError(N_("option {pair!r} is not of the form key=value"), pair=pair)
        options[key.strip()] = value.strip()
    return options
