"""Errors raised through the engine contract."""

from __future__ import annotations

from typing import Any

from ..i18n import _


class TemplateError(ValueError):
    """An error whose text is an English ``template``, marked for the catalogues with ``N_()``, and
    the ``params`` that fill it. ``str(error)`` is the English text (the Python API, logs); a person
    is shown :func:`explain` of it, in their language. A template is formatted only
    when it has ``params`` (so a text with braces and no params is fine).

    >>> from codecrack.i18n import N_
    >>> error = IllegalAction(N_("seat {seat} may not act now"), seat=2)
    >>> str(error), error.template, error.params
    ('seat 2 may not act now', 'seat {seat} may not act now', {'seat': 2})
    """

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params) if params else template)

    def __reduce__(self) -> tuple[Any, ...]:  # keeps template and params across processes
        return _rebuilt, (type(self), self.template, self.params)


def _rebuilt(cls: type[TemplateError], template: str, params: dict[str, Any]) -> TemplateError:
    return cls(template, **params)


class SeatNumber(int):
    """A seat named in an error's params: ``str(error)`` numbers it as the engine and the actions'
    JSON do (from 0); :func:`explain` as people see seats (from 1, as the web page
    and the terminal number them).

    >>> from codecrack.i18n import N_
    >>> error = IllegalAction(N_("seat {seat} is out of the game"), seat=SeatNumber(0))
    >>> str(error), explain(error)
    ('seat 0 is out of the game', 'seat 1 is out of the game')
    """


def seat_numbers(seats: Any) -> list[SeatNumber]:
    return [SeatNumber(seat) for seat in seats]


class IllegalAction(TemplateError):
    """An action that is malformed or not allowed now. The game is left unchanged.

    The engine knows no language: it raises a marked template and its params (:class:`TemplateError`).
    """


class MalformedAction(IllegalAction):
    """An action whose shape is wrong (a key missing or not its kind's), told apart from an action
    the rules refuse: no game state is read to find it (:func:`codecrack.core.shape.check_keys`)."""


class OptionError(TemplateError):
    """An unknown game, an unknown option, or an option value out of range (a :class:`TemplateError`:
    a marked template and its params, or a text already in the current language)."""


def explain(error: BaseException) -> str:
    """``error``'s text in the current language: a :class:`TemplateError`'s
    template (marked with ``N_()``) translated, then filled with its params (an error among them
    explained too); any other error's own text."""
    if not isinstance(error, TemplateError):
        return str(error)
    if not error.params:
        return _(error.template)
    return _(error.template).format(**{key: _shown(value) for key, value in error.params.items()})


def _shown(value: Any) -> Any:
    """A param as a person reads it: an error explained, a seat numbered from 1."""
    if isinstance(value, TemplateError):
        return explain(value)
    if isinstance(value, SeatNumber):
        return value + 1
    if isinstance(value, list) and any(isinstance(item, SeatNumber) for item in value):
        return [_shown(item) for item in value]
    return value
