"""The editor's re-check of an orders file whose data did not change (issue 37): the last carrying-out given again.

While a player types, most re-checks of a big turn follow an edit that changes no order: a space, a new line, a
comment, a quote.  The language server checks the same orders against the same prepared state again and again
(:data:`movecheck.systems.REPEATED`), so the engine's run of the file is kept, per orders file, with what decides it:

- the prepared board itself (its identity: a state edit, another map or other rules prepare a new one; the kept
  entry holds the board, so its identity cannot be taken by another);
- the orders' data, every value with its type and every mapping's keys in their order (:func:`data_key`);
- the phase, the language of the messages and the engine's switches.

Only a run whose verdict does not depend on the search's budget is kept (no MC012: a run that ran out would be
given again under a larger budget) and only one none of whose findings suggests a fix (a fix's edit holds the
scalar's position in the text it was made from).  The run's findings are made against a :class:`Probe` of the
document, whose positions are tokens naming the node each finding points at; they are placed in the text checked
now (:func:`placed`), whether the run was made now or kept: the same ``pos``/``key_pos`` of the same nodes, so the
same findings as a fresh run's, byte for byte (``tests/server/test_kept.py``).  The command line keeps nothing.

An edit that changes an order whose place lies past :data:`BACK_SHARE` of the orders takes the kept greedy run
(:class:`~movecheck.aa.engine.InPlace`) back to the first changed order through its undo log and carries on from
there with the new orders (:meth:`~movecheck.aa.engine.InPlace.again_from`): the orders before it are the same data
on the same board, naming the same ids (which tell units apart in every order).  A run made after such an edit
logs its orders from the edited one, for the next keystroke.
"""

from __future__ import annotations

import pickle
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from movecheck.aa import engine, moves
from movecheck.aa.choice import OBSERVER, named_ids
from movecheck.document import Document, Path
from movecheck.i18n import language

if TYPE_CHECKING:
    from movecheck.aa.engine import InPlace, Run
    from movecheck.aa.model import Board
    from movecheck.findings import Finding

KEEP_RUNS = True
"""Runs are kept for the editor; off only to compare (every re-check carries the orders out)."""
KEEP = 16
"""Orders files whose last run is kept (the least recently checked goes first)."""

_KEPT: OrderedDict[str, _Kept] = OrderedDict()
given = 0
"""Kept runs given again (the tests and the benchmark read it)."""
taken_back = 0
"""Kept greedy runs taken back to an edited order and carried on (the tests read it)."""


BACK_SHARE = 0.6
"""An edit takes the kept greedy run back only when the first order it changes lies past this share of the orders,
and only then does a run log its orders for the next edit: undoing the orders after it and carrying them out again
logged costs about two and a half times carrying them out unlogged (``bench/server.py``, 100 orders: the first
order edited 40 ms taken back against 29 ms anew; the middle one 29 against 28; the 81st 24 against 27)."""
PROBES = 20_000
"""Tokens a file's probes may hand out over its runs taken back and carried on before a run starts anew."""


@dataclass
class _Kept:
    board: Board
    key: tuple[Any, ...]
    """The phase, the language, the engine's switches and the orders file's data but its orders (:func:`data_key`)."""
    orders: list[bytes]
    """Each order's data (:func:`data_key`)."""
    run: Run
    probes: list[tuple[bool, Path]]
    logged: InPlace | None
    """The greedy run the run started from, with its undo log, to be taken back to an edited order (None: none)."""
    named: frozenset[str]
    """The ids the orders name (:func:`~movecheck.aa.choice.named_ids`): they tell units apart in every order."""


@dataclass
class Probe(Document):
    """The orders document as the engine reads it, except that a position is a token: ``(-k, 0)`` for the ``k``-th
    node asked for (:attr:`probes`: whether its key was asked for, and its path), placed later by :func:`placed`.
    A copy (``dataclasses.replace``: the search's orders in another order) hands out the same tokens."""

    probes: list[tuple[bool, Path]] = field(default_factory=list)

    @classmethod
    def of(cls, doc: Document, probes: list[tuple[bool, Path]] | None = None) -> Probe:
        """A probe of ``doc``; ``probes``: an earlier probe's tokens, handed out on (its findings are kept)."""
        return cls(doc.path, doc.data, doc.positions, doc.key_positions, doc.implicit, doc.findings, doc.text,
                   doc.broken, doc.root, [] if probes is None else probes)

    def pos(self, path: Path) -> tuple[int, int]:
        self.probes.append((False, tuple(path)))
        return -len(self.probes), 0

    def key_pos(self, path: Path) -> tuple[int, int]:
        self.probes.append((True, tuple(path)))
        return -len(self.probes), 0


def data_key(data: Any) -> bytes | None:
    """The orders' data as bytes equal only for equal data with every value of the same type and every mapping's
    keys in the same order (``1``, ``1.0`` and ``true`` are equal in Python, and so are two mappings with their keys
    in another order: not to the rules' findings).  Pickled: data shared in one text and not in another (an alias)
    give other bytes, which only costs a carrying-out.  None: data that cannot be pickled (never kept)."""
    try:
        return pickle.dumps(data, protocol=5)
    except Exception:  # a value the reader made that pickle refuses: carried out every time
        return None


def carried_out(doc: Document, board: Board, phase_name: str, repeated: bool) -> Run:
    """The engine's run of the orders ``doc`` against the prepared ``board`` (copied: the orders move the copy's
    units); ``repeated`` (the editor): the run kept for this file when nothing it reads has changed, else the kept
    greedy run taken back to the first order that changed and carried on from there (:meth:`InPlace.again_from`)."""
    global given, taken_back
    split = _split(doc.data) if repeated and KEEP_RUNS and OBSERVER.get() is None else None
    if split is None:
        return engine.run(doc, board.copy(), phase_name, fresh=board.copy, begun=board)
    rest, orders = split
    key = (phase_name, language(), _switches(), rest)
    kept = _KEPT.pop(doc.path, None)  # taken back, the kept run changes: kept again once the new one has ended
    if kept is not None and (kept.board is not board or kept.key != key):
        kept = None
    if kept is not None and kept.orders == orders:
        given += 1
        _keep(doc.path, kept)
        return placed(kept.run, kept.probes, doc)
    changed = _first_change(kept.orders, orders) if kept is not None else None
    if changed is not None and changed < BACK_SHARE * len(orders):
        changed = None  # near the top: the orders carried out anew, unlogged, cost less
    named = named_ids(doc.data["moves"])
    if (kept is not None and kept.logged is not None and changed is not None and len(kept.probes) < PROBES
            and kept.named == named):
        probe = Probe.of(doc, kept.probes)
        back = min(changed, len(kept.orders) - 1)  # an order at least: the end clauses' facts are put back too
        found = engine.run(probe, board, phase_name, fresh=board.copy, log_from=changed, again=(kept.logged, back),
                           begun=board)
        taken_back += found.in_place is kept.logged
    else:
        probe = Probe.of(doc)
        found = engine.run(probe, board.copy(), phase_name, fresh=board.copy, log_from=changed, begun=board)
    if _keepable(found):
        _keep(doc.path, _Kept(board, key, orders, found, probe.probes, found.in_place, named))
    return placed(found, probe.probes, doc)


def _split(data: Any) -> tuple[bytes, list[bytes]] | None:
    """The orders file's data but its orders, and each order (:func:`data_key`); None: not a mapping with a list
    of orders, or data pickle refuses (never kept)."""
    if not isinstance(data, dict) or not isinstance(data.get("moves"), list):
        return None
    rest = data_key({k: v for k, v in data.items() if k != "moves"})
    orders = [data_key(raw) for raw in data["moves"]]
    if rest is None or any(order is None for order in orders):
        return None
    return rest, cast(list[bytes], orders)


def _first_change(before: list[bytes], now: list[bytes]) -> int:
    """The first (0-based) order whose data changed, was added or went."""
    return next((k for k, (old, new) in enumerate(zip(before, now, strict=False)) if old != new),
                min(len(before), len(now)))


def _keep(path: str, kept: _Kept) -> None:
    _KEPT[path] = kept
    _KEPT.move_to_end(path)
    while len(_KEPT) > KEEP:
        _KEPT.popitem(last=False)


def placed(found: Run, probes: list[tuple[bool, Path]], doc: Document) -> Run:
    """The run with its findings' positions those of the nodes they point at in ``doc``."""
    return replace(found, findings=[_place(f, probes, doc) for f in found.findings], checked=set(found.checked))


def _place(finding: Finding, probes: list[tuple[bool, Path]], doc: Document) -> Finding:
    if finding.line >= 0 or finding.file != doc.path:
        return finding
    key, path = probes[-finding.line - 1]
    line, column = doc.key_pos(path) if key else doc.pos(path)
    return replace(finding, line=line, column=column)


def _keepable(found: Run) -> bool:
    """A run whose findings every later check would give: no budget ran out, no fix holds a position of its text."""
    return not any(f.code == "MC012" or f.fixes for f in found.findings)


def _switches() -> tuple[Any, ...]:
    """The engine's switches (the tests and benchmarks turn them off to compare)."""
    return (engine.KEEP_LISTINGS, engine.PARTIAL_COPIES, engine.REPLAY, engine.CUT, engine.SWAPPABLE, engine.BOUNDS,
            engine.ERROR_FIRST, engine.FIRST_TRY_IN_PLACE, moves.WATCHED_STACK)


def forget() -> None:
    """Keep nothing (the tests)."""
    _KEPT.clear()


__all__ = ["KEEP", "KEEP_RUNS", "Probe", "carried_out", "data_key", "forget", "placed"]
