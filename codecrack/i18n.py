"""Translations of the server's and the terminal's texts (gettext catalogues read with Babel).

A language is one file, ``codecrack/locale/<lang>/LC_MESSAGES/codecrack.po``; English is the source
language and needs none. A catalogue is compiled in memory the first time it is used, so there is no
build step and no compiled ``.mo`` file in the repository. See docs/i18n.md.

>>> translate("How to draw", "en")
'How to draw'
>>> from_accept_language("fr-CH, fr;q=0.9, th;q=0.8, en;q=0.7")
'th'
>>> from_environment({"LANG": "th_TH.UTF-8"})
'th'
>>> with language("th"):
...     _("How to draw")
'วิธีจั่ว'
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALE = Path(__file__).with_name("locale")
DOMAIN = "codecrack"
SOURCE = "en"

_current: ContextVar[str] = ContextVar("codecrack_language", default=SOURCE)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (option titles, module constants)."""
    return message


@lru_cache(maxsize=1)
def languages() -> tuple[str, ...]:
    """The languages there are catalogues for, the source language first."""
    found = sorted(path.parent.parent.name for path in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (SOURCE, *[lang for lang in found if lang != SOURCE])


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (no translation at all for English or an unknown language)."""
    if lang == SOURCE or lang not in languages():
        return gettext.NullTranslations()
    with (LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def translate(message: str, lang: str | None = None) -> str:
    """``message`` in ``lang`` (the current language by default); itself where there is no translation."""
    if not message:
        return message  # gettext("") is the catalogue's header
    return translations(lang or _current.get()).gettext(message)


def _(message: str) -> str:
    """``message`` in the current language."""
    return translate(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of ``singular``/``plural`` for ``count`` in the current language."""
    return translations(_current.get()).ngettext(singular, plural, count)


def current() -> str:
    return _current.get()


def set_language(lang: str) -> None:
    """Use ``lang`` from now on in this context (the terminal calls it once, at start; a game socket
    in its own task)."""
    _current.set(best_language([lang]))


@contextmanager
def language(lang: str) -> Iterator[str]:
    """Use ``lang`` inside the ``with`` block only (a request, a test)."""
    token = _current.set(best_language([lang]))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def best_language(requested: Iterable[str]) -> str:
    """The first of ``requested`` (BCP 47 tags or POSIX locales, best first) there is a catalogue for:
    an exact match (``zh_TW``) or its primary language (``th`` for ``th-TH``); English if none."""
    known = {lang.lower(): lang for lang in languages()}
    for tag in requested:
        tag = re.split(r"[.@]", tag.strip())[0].replace("-", "_").lower()
        for candidate in (tag, tag.split("_")[0]):
            if candidate in known:
                return known[candidate]
    return SOURCE


# RFC 9110's weight: ";q=" and a qvalue, 0 to 1 with at most three decimals
QUALITY = re.compile(r"\s*;\s*q=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)\s*$", re.IGNORECASE)
LANGUAGE_RANGE = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")


def from_accept_language(header: str | None) -> str:
    """The best language of an HTTP ``Accept-Language`` header, by its q-values (RFC 9110); a part
    it cannot read (a malformed tag or weight) is ignored.

    >>> from_accept_language("en;q=1.2.3, th;q=0.5"), from_accept_language("th;q=., en;q=..")
    ('th', 'en')
    """
    weighted = []
    for position, part in enumerate((header or "").split(",")[:MAX_LANGUAGES]):
        tag, _sep, params = part.strip().partition(";")
        tag = tag.strip()
        quality = QUALITY.fullmatch(";" + params) if params else None
        if (params and quality is None) or not LANGUAGE_RANGE.fullmatch(tag):
            continue
        weight = float(quality.group(1)) if quality else 1.0
        if weight > 0:
            weighted.append((-weight, position, tag))
    return best_language(tag for _w, _p, tag in sorted(weighted))


MAX_LANGUAGES = 32  # the parts of an Accept-Language header read (a longer list is cut)


def from_environment(environ: Mapping[str, str]) -> str:
    """The terminal's language from the POSIX variables, in gettext's order:
    ``LANGUAGE`` (a colon-separated list), ``LC_ALL``, ``LC_MESSAGES``, ``LANG``."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value and value not in ("C", "POSIX"):
            return best_language(value.split(":"))
    return SOURCE
