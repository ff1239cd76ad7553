"""The one "did you mean": names with other spellings rank the name an abbreviation stands for."""

from __future__ import annotations

import difflib

import pytest

from movecheck.aa.names import UNIT_ABBREVIATIONS, unit_aliases
from movecheck.suggest import Names, close_names, hint

TYPES = list(UNIT_ABBREVIATIONS)


def typed(word: str) -> list[str]:
    """The unit types suggested for ``word``, abbreviations counted (as an aa map asks)."""
    return close_names(word, Names(TYPES, unit_aliases()), n=3, cutoff=0.5)


def test_plain_names_stay_difflibs():
    # without other spellings nothing changes: ``bb`` is nearest to bomber by letters
    assert close_names("bb", TYPES, 3, 0.5) == difflib.get_close_matches("bb", TYPES, 3, 0.5) == ["bomber"]


@pytest.mark.parametrize(
    ("word", "first"),
    [("bbb", "battleship"), ("BBs", "battleship"), ("artt", "artillery"), ("ddd", "destroyer"), ("ftrs", "fighter"),
     ("trns", "transport"), ("Infantri", "infantry")],
)
def test_an_abbreviation_close_to_the_word_gives_its_name_first(word, first):
    assert typed(word)[0] == first


def test_bb_never_suggests_bomber():
    assert "bomber" not in typed("bbb")


def test_a_name_is_suggested_once_however_many_spellings_are_close():
    assert typed("tpp") == ["transport"]  # close to tp and tpt


def test_short_spellings_must_be_close_to_count():
    assert typed("tnak") == ["tank"]  # 'trn' shares two letters of four: not a transport


def test_a_spelling_of_two_names_suggests_both():
    names = Names(["Saudi Arabia", "Union of South Africa"], {"SA": "Saudi Arabia", "sa": "Union of South Africa"})
    assert close_names("SAA", names) == ["Saudi Arabia", "Union of South Africa"]


def test_the_closest_spelling_ranks_its_name_first():
    names = Names(["Karelia S.S.R.", "Kareliya"], {"Karelia": "Karelia S.S.R."})
    assert close_names("Karella", names, n=2) == ["Karelia S.S.R.", "Kareliya"]  # karelia 0.86, kareliya 0.8


def test_hint_words_the_names():
    assert hint("bbb", Names(TYPES, unit_aliases())) == "; did you mean 'battleship'?"
