"""Errors raised through the engine contract."""


class IllegalAction(ValueError):
    """An action that is malformed or not allowed now. The game is left unchanged."""


class OptionError(ValueError):
    """An unknown game, an unknown option, or an option value out of range."""
