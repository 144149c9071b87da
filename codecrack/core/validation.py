"""Validation errors (pydantic's) as one readable line in the current language: the API's 400s,
the websocket's refusals of malformed messages, bad game options.

pydantic's own ``msg`` is English only, so each error is written from its ``type`` and ``ctx``
through the catalogue (``MESSAGES``); a type missing there falls back to pydantic's text, and
tests/i18n/test_validation.py checks that every type the API and the websocket can answer is there.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set
from typing import Any

from ..i18n import N_, _

EXTRA = N_("not accepted (unknown, or set only by the server)")
NOT_FINITE = N_("numbers must be finite: NaN and Infinity are not allowed")
BAD_JSON = N_("this is not valid JSON")
BAD_JSON_AT = N_("this is not valid JSON (line {line}, column {column})")
WHOLE_NUMBER = N_("must be a whole number")
UNKNOWN_MESSAGE = N_("a message must be a JSON object whose 'type' is action, hint, ping or resync")

# pydantic's error type -> the text, with ``ctx``'s entries as {placeholders}
MESSAGES: dict[str, str] = {
    "missing": N_("required"),
    "extra_forbidden": EXTRA,
    "finite_number": NOT_FINITE,
    "int_type": WHOLE_NUMBER,
    "int_parsing": WHOLE_NUMBER,
    "int_from_float": WHOLE_NUMBER,
    "float_type": N_("must be a number"),
    "float_parsing": N_("must be a number"),
    "bool_type": N_("must be true or false"),
    "bool_parsing": N_("must be true or false"),
    "string_type": N_("must be a text"),
    "string_too_short": N_("must have at least {min_length} characters"),
    "string_too_long": N_("must have at most {max_length} characters"),
    "too_short": N_("must have at least {min_length} items"),
    "too_long": N_("must have at most {max_length} items"),
    "greater_than": N_("must be more than {gt}"),
    "greater_than_equal": N_("must be at least {ge}"),
    "less_than": N_("must be less than {lt}"),
    "less_than_equal": N_("must be at most {le}"),
    "literal_error": N_("must be one of: {expected}"),
    "enum": N_("must be one of: {expected}"),
    "dict_type": N_("must be a JSON object"),
    "model_type": N_("must be a JSON object"),
    "model_attributes_type": N_("must be a JSON object"),
    "list_type": N_("must be a list"),
    "none_required": N_("must be null"),
    "union_tag_invalid": N_("{discriminator} must be one of {expected_tags}, not {tag}"),
    "union_tag_not_found": N_("needs {discriminator}"),
    "unknown_game": N_("unknown game; valid games: {games}"),
    "unknown_message": UNKNOWN_MESSAGE,
}


def problem(errors: Sequence[Mapping[str, Any]], ignore: Set[str] = frozenset(), skip: int = 0) -> str:
    """One readable line for validation errors: ``where: what`` for each (at most five), in the
    current language. ``ignore`` names location parts that are not fields (``body``, a game's
    variant); ``skip`` drops the first parts of every location (a message's own variant).

    >>> from pydantic import BaseModel, ConfigDict, ValidationError
    >>> class Join(BaseModel):
    ...     model_config = ConfigDict(extra="forbid")
    ...     seat: int
    >>> try:
    ...     Join.model_validate({"seat": "x", "colour": 1})
    ... except ValidationError as error:
    ...     print(problem(error.errors()))
    seat: must be a whole number; colour: not accepted (unknown, or set only by the server)
    """
    if any(item["type"] == "finite_number" for item in errors):
        return _(NOT_FINITE)
    parts = []
    for item in errors[:5]:
        where = ".".join(str(p) for p in item["loc"][skip:] if p not in ignore and not _is_type_tag(p))
        what = explain_error(item)
        parts.append(f"{where}: {what}" if where else what)
    return "; ".join(dict.fromkeys(parts))


class Problems:
    """Validation errors as an error's param: written (:func:`problem`) in the language current
    when the error's text is, not when it is raised."""

    def __init__(self, errors: Sequence[Mapping[str, Any]]) -> None:
        self.errors = errors

    def __format__(self, spec: str) -> str:
        return format(problem(self.errors), spec)

    def __str__(self) -> str:
        return problem(self.errors)


def explain_error(item: Mapping[str, Any]) -> str:
    """One validation error's text in the current language (pydantic's English ``msg`` for a type
    the catalogue does not know)."""
    kind, context = item["type"], item.get("ctx") or {}
    if kind == "json_invalid":
        at = re.search(r"line (\d+) column (\d+)", str(context.get("error", "")))
        return _(BAD_JSON_AT).format(line=at.group(1), column=at.group(2)) if at else _(BAD_JSON)
    if kind == "value_error":  # a validator's ValueError: its text, marked with N_() where raised
        return _(str(context.get("error", item["msg"])))
    template = MESSAGES.get(kind)
    if template is None:
        return str(item["msg"])
    return _(template).format(**{key: _listed(value) for key, value in context.items()})


def _listed(value: Any) -> Any:
    """A list of choices as ``a, b, c``: pydantic writes ``expected`` as ``'a', 'b' or 'c'`` (in English)."""
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return ", ".join(re.split(r", | or ", value)) if isinstance(value, str) else value


def _is_type_tag(part: Any) -> bool:
    """Parts of a location that name a union member (``dict[str,...]``), not a field."""
    return isinstance(part, str) and ("[" in part or part in ("str", "int", "bool", "float", "none"))
