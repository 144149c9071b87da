"""Game options: one pydantic model per game, parsed from keywords or ``key=value`` text.

>>> from pydantic import BaseModel
>>> class Demo(GameOptions):
...     notes: bool = True
>>> parse_options(Demo, {"notes": "false"}).notes
False
"""

from __future__ import annotations

from typing import Any, Mapping

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import OptionError


class GameOptions(BaseModel):
    """Base of every game's options. ``first`` fixes the starting seat; ``None`` draws it from the seed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    first: int | None = None


def parse_options(model: type[GameOptions], given: Mapping[str, Any]) -> GameOptions:
    """Validate ``given`` against ``model``, raising :class:`OptionError` with a readable message."""
    valid = sorted(model.model_fields)
    unknown = sorted(set(given) - set(valid))
    if unknown:
        raise OptionError(f"unknown option(s) {', '.join(unknown)}; valid options: {', '.join(valid)}")
    try:
        return model(**given)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()
        )
        raise OptionError(f"bad option value: {problems}") from None


def split_option_text(pairs: list[str]) -> dict[str, str]:
    """Turn CLI ``key=value`` strings into a dict.

    >>> split_option_text(["draw=deck", "dashes=true"])
    {'draw': 'deck', 'dashes': 'true'}
    """
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise OptionError(f"option {pair!r} is not of the form key=value")
        options[key.strip()] = value.strip()
    return options
