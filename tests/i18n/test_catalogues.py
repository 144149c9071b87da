"""Every catalogue is complete: each front-end language has exactly the keys of en.json, each .po
exactly the texts extraction finds, all translated, with the same {placeholders} as the source."""

from __future__ import annotations

import json

import pytest

from codecrack.core.registry import GAMES, game_class

from .catalogues import (
    FRONT,
    extracted_messages,
    front_catalogue,
    front_languages,
    placeholders,
    po_catalogue,
    po_languages,
)

OTHER_LANGUAGES = [lang for lang in front_languages() if lang != "en"]


def test_english_and_thai_are_shipped_in_both_halves():
    assert {"en", "th"} <= set(front_languages())
    assert "th" in po_languages()


def test_every_language_has_both_catalogues():
    """A language is a JSON catalogue for the browser and a .po for the server and the terminal."""
    assert set(po_languages()) == set(OTHER_LANGUAGES)


@pytest.mark.parametrize("lang", front_languages())
def test_front_catalogue_is_flat_sorted_and_named(lang):
    text = (FRONT / f"{lang}.json").read_text(encoding="utf-8")
    catalogue = json.loads(text)
    assert all(isinstance(value, str) and value.strip() for value in catalogue.values())
    assert list(catalogue) == sorted(catalogue), "keys are kept sorted (merges stay small)"
    assert text == json.dumps(catalogue, ensure_ascii=False, indent=2) + "\n", "two-space JSON, one key a line"
    assert catalogue["language.name"]


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_front_catalogue_has_exactly_the_english_keys(lang):
    english, other = front_catalogue("en"), front_catalogue(lang)
    assert sorted(set(english) - set(other)) == [], "keys missing"
    assert sorted(set(other) - set(english)) == [], "keys English does not have"
    wrong = [key for key in english if placeholders(english[key]) != placeholders(other[key])]
    assert wrong == [], "the {placeholders} differ"


@pytest.mark.parametrize("lang", po_languages())
def test_po_file_has_exactly_the_extracted_texts_all_translated(lang):
    catalog = po_catalogue(lang)
    ids = {text for m in catalog if m.id for text in ((m.id,) if isinstance(m.id, str) else m.id)}
    extracted = extracted_messages()
    assert sorted(extracted - ids) == [], "texts missing: run `make messages` and translate them"
    assert sorted(ids - extracted) == [], "texts no longer in the code: run `make messages`"
    untranslated = [m.id for m in catalog if m.id and (not m.string or m.fuzzy)]
    assert untranslated == []
    for message in catalog:
        if message.id:
            singular = message.id if isinstance(message.id, str) else message.id[0]
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            assert all(placeholders(s) == placeholders(singular) for s in strings), message.id


def test_every_option_and_preset_text_is_marked_for_translation():
    """The lobby and `codecrack play --help` show these; each must reach the .po files."""
    extracted = extracted_messages()
    texts = set()
    for name in GAMES:
        cls = game_class(name)
        for field in cls.Options.model_fields.values():
            texts |= {field.title, field.description}
        for preset in cls.presets:
            texts |= {preset.title, preset.description}
    assert sorted(texts - extracted - {None}) == []
