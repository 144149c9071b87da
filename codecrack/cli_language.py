"""The command line's help in the terminal's language.

``--help`` is printed while the command line is read, before any ``--lang`` is: so the help
follows the POSIX variables (``LANG=th_TH.UTF-8`` gives Thai), which ``codecrack.cli.main`` reads
first. Every help text of ``codecrack/cli.py`` is marked with ``N_()``; the command classes here
translate them, and Typer's own fixed texts (panel titles, ``[default: ...]``, ``Usage:``, the
``--help`` and completion options), when the command line starts. See docs/i18n.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer.rich_utils as typer_texts
from typer.core import TyperCommand, TyperGroup

from .core.registry import GAMES
from .i18n import N_, _, languages

# typer.rich_utils' fixed texts, read by its help printer each time it prints
TYPER_TEXTS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "ABORTED_TEXT": N_("Aborted."),
}
DEFAULT_TEXT = N_("[default: {default}]")
USAGE = N_("Usage: ")
# the help of the options Typer and click add themselves
BUILT_IN_HELP = (
    N_("Show this message and exit."),
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
)
# values a help text may name: {languages}, {games} (the installed ones)
HELP_VALUES = {"languages": ", ".join(languages()), "games": ", ".join(GAMES)}


def help_text(text: str | None) -> str | None:
    """A marked help text in the current language, its ``{values}`` filled."""
    return _(text).format(**HELP_VALUES) if text else text


if TYPE_CHECKING:  # the mixin overrides methods of the click Command that Typer ships
    from typer import _click

    HelpBase = _click.Command
else:
    HelpBase = object


class LocalizedHelp(HelpBase):
    """Usage line, help and the parameters' help of a command in the current language."""

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)), prefix=_(USAGE))

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = help_text(BUILT_IN_HELP[0])
        return option


class LocalizedCommand(LocalizedHelp, TyperCommand):
    pass


class LocalizedGroup(LocalizedHelp, TyperGroup):
    """The top-level command: before reading the command line, every help text of the tree and
    Typer's fixed texts are put in the current language."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        translate_typer_texts()
        translate_help(self)
        return super().main(*args, **kwargs)


def translate_help(command: Any) -> None:
    """``command``'s help, its parameters' and its subcommands' in the current language (Typer
    builds the command objects afresh for each run, so they still hold the marked English texts)."""
    command.help = help_text(command.help)
    command.short_help = help_text(command.short_help)
    for param in command.params:
        param.help = help_text(getattr(param, "help", None))
    for subcommand in getattr(command, "commands", {}).values():
        translate_help(subcommand)


def translate_typer_texts() -> None:
    for name, text in TYPER_TEXTS.items():
        setattr(typer_texts, name, _(text))
    typer_texts.DEFAULT_STRING = _(DEFAULT_TEXT).replace("{default}", "{}")
