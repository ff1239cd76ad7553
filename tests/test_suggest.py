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


# -- words of multi-word names, forum spellings and plurals (issue 35) -----------------------------


@pytest.fixture(scope="module")
def maps():
    from movecheck.aa.maps import builtin_map
    from movecheck.aa.maps.gamemap import GameMap

    return {name: GameMap(builtin_map(name)) for name in ("aa1942-2e", "aa-revised")}


@pytest.mark.parametrize(
    ("edition", "word", "first"),
    [("aa1942-2e", "Spai", "Spain Portugal"), ("aa1942-2e", "Baltic", "Baltic States"),
     ("aa1942-2e", "Wak", "Wake Island"), ("aa-revised", "Wak Isl", "Wake Island"),
     ("aa1942-2e", "Trans Jord", "Trans-Jordan"), ("aa1942-2e", "Anglo Egypt", "Anglo-Egyptian Sudan"),
     ("aa-revised", "Italian Africa", "Italian East Africa"), ("aa1942-2e", "Eastern Canad", "Eastern Canada"),
     ("aa1942-2e", "Tra Jor", "Trans-Jordan"), ("aa1942-2e", "Sov Far", "Soviet Far East")],
)
def test_a_word_that_begins_the_words_of_a_name_suggests_it_first(maps, edition: str, word: str, first: str) -> None:
    assert maps[edition].resolve(word) is None
    assert maps[edition].suggest(word)[0] == first


def test_spain_no_longer_suggests_japan_first(maps) -> None:
    assert maps["aa1942-2e"].suggest("Spai")[0] == "Spain Portugal"
    assert hint("Spai", maps["aa1942-2e"]._index("space", maps["aa1942-2e"].space_names)).startswith(
        "; did you mean 'Spain Portugal'")


@pytest.mark.parametrize(("edition", "word", "name"),
                         [("aa1942-2e", "Spain", "Spain Portugal"), ("aa1942-2e", "Wake", "Wake Island"),
                          ("aa-revised", "Wake", "Wake Island"), ("aa1942-2e", "Trans Jordan", "Trans-Jordan"),
                          ("aa-revised", "trans jordan", "Trans-Jordan"), ("aa-revised", "Spain", "Spain")])
def test_the_forum_spellings_of_spaces_resolve(maps, edition: str, word: str, name: str) -> None:
    assert maps[edition].resolve(word) == name


def test_a_word_too_short_or_matching_no_word_gives_no_word_hint(maps) -> None:
    board = maps["aa1942-2e"]
    assert "Wake Island" not in board.suggest("Wa")  # two letters stand for no word
    assert board.suggest("Island Wake")[:1] != ["Wake Island"]  # the words in their order
    assert maps["aa-revised"].suggest("Baltic") == []  # the revised map has no Baltic territory


@pytest.mark.parametrize(
    ("word", "name"),
    [("tanks", "tank"), ("Fighters", "fighter"), ("infs", "infantry"), ("bbs", "battleship"), ("subs", "submarine"),
     ("artilleries", "artillery"), ("infantries", "infantry"), ("ftrs", "fighter"), ("trns", "transport"),
     ("ics", "factory"), ("aa guns", "aa_gun"), ("transports", "transport")],
)
def test_a_plural_is_not_a_name_but_suggests_its_singular_alone(maps, word: str, name: str) -> None:
    for board in maps.values():
        assert board.resolve_type(word) is None  # the spec's names and aliases only
        assert board.suggest_type(word) == [name]


def test_the_word_search_is_charged_to_the_file() -> None:
    class Document:
        pass

    doc = Document()
    names = Names([f"Space {k} Island" for k in range(2000)], {})
    close_names("Spa Isl", names, charge=doc)
    assert doc._suggest_work > 2000 * len("space 1 island")  # the words indexed and compared are counted


def test_words_of_names_are_found_only_with_other_spellings() -> None:
    # plain names (a schema's keys) keep difflib's own answers
    assert close_names("Wake", ["Wake Island", "Make"], 3, 0.6) == difflib.get_close_matches(
        "Wake", ["Wake Island", "Make"], 3, 0.6)
