"""What the editor's re-check of a long turn saves (issue 37's 30 ms): the readers of the board as the phase began
read the prepared board itself, and an order's clauses are called directly; the findings stay those of the command
line, and what the engine guards (a clause's undeclared code, a prepared board no run may change) stays guarded."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from movecheck.aa import engine, kept
from movecheck.clauses import CATALOGUE, ClauseError, Violation
from tests.harness import check_report

from .conftest import orders
from .test_bounds import NCM, G
from .test_replay import chain


def _checked(text: str, moves: list[dict[str, Any]]) -> list[tuple[str, int | None, str]]:
    with tempfile.TemporaryDirectory() as folder:
        report, _outcome = check_report(text, orders(G, NCM, moves), folder=Path(folder))
    return [(f.code, f.order, f.message) for f in report.sorted_findings()]


def test_the_bounds_and_the_parts_read_the_prepared_board_which_no_run_changes(monkeypatch: pytest.MonkeyPatch
                                                                              ) -> None:
    """The counting bounds and the split into parts are given the board the state prepared (no copy of their own),
    and the run leaves it as it was: every unit where the state put it, with its movement."""
    text, moves = chain(12)
    prepared: list[Any] = []
    read: list[Any] = []
    carried_out, least_errors = kept.carried_out, engine.least_errors

    def spied_carried_out(doc: Any, board: Any, phase_name: str, repeated: bool) -> Any:
        prepared.append((board, [(u.at, u.left, u.aboard) for u in board.units]))
        return carried_out(doc, board, phase_name, repeated)

    def spied_least_errors(raw_moves: Any, board: Any, combat: bool) -> int:
        read.append(board)
        return least_errors(raw_moves, board, combat)

    monkeypatch.setattr(kept, "carried_out", spied_carried_out)
    monkeypatch.setattr(engine, "least_errors", spied_least_errors)
    found = _checked(text, moves)
    assert [code for code, _order, _message in found] == ["AA104"]
    (board, before), = prepared
    assert read and all(r is board for r in read)
    assert [(u.at, u.left, u.aboard) for u in board.units] == before


def test_an_order_clause_that_emits_a_code_it_does_not_declare_is_still_stopped(monkeypatch: pytest.MonkeyPatch
                                                                               ) -> None:
    """The engine calls an order's checks itself (no wrapper per clause and order): a violation with a code the
    clause does not declare is a ClauseError as through :meth:`Clause.run`, and one with none gets the clause's."""
    text, moves = chain(3)
    clause = CATALOGUE.get("AA104")
    wrong = Violation("a code of another clause", ("moves", 0, "path"), code="AA101")
    monkeypatch.setattr(clause, "check", lambda move, phase: iter([wrong]) if move.index == 1 else iter(()))
    with pytest.raises(ClauseError, match="AA104 emitted AA101, which it does not declare"):
        _checked(text, moves)
    unnamed = Violation("a violation with no code", ("moves", 0, "path"))
    monkeypatch.setattr(clause, "check", lambda move, phase: iter([unnamed]) if move.index == 1 else iter(()))
    assert ("AA104", 1, "a violation with no code") in _checked(text, moves)


def test_a_lexicon_keeps_what_a_text_means_and_forgets_it_when_an_abbreviation_is_added() -> None:
    """A unit type's name is read once a text (the bounds and the order both ask), never stale: an abbreviation added
    later (a map's own table) changes what the text means, and one that makes it ambiguous makes it mean nothing."""
    from movecheck.aa.names import Lexicon

    lexicon = Lexicon(["infantry", "artillery", "tank"])
    assert lexicon.resolve("Infantry") == "infantry" and lexicon.resolve("inf") is None
    assert lexicon._resolved == {"Infantry": "infantry", "inf": None}
    lexicon.add("inf", "infantry")
    assert lexicon.resolve("inf") == "infantry"
    lexicon.add("a", "artillery")
    lexicon.add("a", "tank")
    assert lexicon.resolve("a") is None and lexicon.resolve(" INF") == "infantry" and lexicon.resolve(3) is None
    assert lexicon.resolve("TANK") == "tank"


def test_a_unit_types_domain_facts_are_kept_per_type_and_follow_its_fields() -> None:
    """The domain facts are read once a type and kept outside its fields: equal types stay equal (and hash alike)
    whether or not they were asked, and a type made from another with another domain answers for its own."""
    import dataclasses

    from movecheck.aa.units import UnitType

    fighter = UnitType("fighter", 4, "air", carrier_cost=1)
    assert fighter.is_air and fighter.is_fighter and not fighter.is_bomber and not fighter.is_land
    twin = UnitType("fighter", 4, "air", carrier_cost=1)
    assert fighter == twin and hash(fighter) == hash(twin) and "is_air" not in vars(twin)
    boat = dataclasses.replace(fighter, domain="sea", transport_capacity=5, carrier_capacity=2)
    assert boat.is_sea and boat.is_transport and boat.is_carrier and not boat.is_air and not boat.is_fighter
    assert dataclasses.asdict(fighter) == dataclasses.asdict(twin)
