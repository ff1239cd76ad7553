"""The aa system: Axis & Allies area movement (combat move, noncombat move, landing).

The entry points the core calls are light; the board model is imported only
when a file of this system is checked.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from movecheck.aa.maps import BUILTIN_MAPS
from movecheck.aa.prepare import is_mobilize, is_purchase, is_results, lint_state
from movecheck.document import findings_at
from movecheck.findings import Finding
from movecheck.i18n import N_, _
from movecheck.reading import InputError
from movecheck.systems import (
    REPEATED,
    Baseline,
    Drawing,
    Edition,
    Outcome,
    Prepared,
    Read,
    RuleSettings,
    RunContext,
    System,
)

if TYPE_CHECKING:
    from movecheck.aa.model import Board
    from movecheck.document import Document
    from movecheck.summary import Checked, Section


class AA(System["Board", object]):
    """Axis & Allies: a state is a board (map, control, units); orders are moves."""

    name = "aa"
    title = N_("aa: Axis & Allies area movement")
    clause_modules = ("movecheck.aa.rules",)
    clause_index = "movecheck.aa.clause_index"
    options_module = "movecheck.aa.options"
    commands = "movecheck.aa.commands:register"
    map_schemas = ("aa-orders", "aa-state", "aa-battles", "aa-purchase", "aa-mobilize")
    builtin_maps = BUILTIN_MAPS
    source_titles = {  # noqa: RUF012 - a declaration, never changed
        "A&A, Phase 2: Combat move (fragment)": N_("A&A 1942 rulebook, combat move"),
        "A&A, Phase 4: Noncombat move": N_("A&A 1942 rulebook, noncombat move"),
    }
    orders_key = "moves"
    orders_markers = ("moves", "phase", "power")
    state_markers = ("turn",)
    kinds = ("map", "state", "orders", "battles", "purchase", "mobilize")
    output_schemas = ("aa-odds",)
    orders_kinds = ("orders", "battles", "purchase", "mobilize")
    order_lists = ("moves", "results", "place")
    reference_keys = ("map",)

    def identify(self, data: dict[str, object]) -> str:
        """A map, a state, orders, battle results (``phase: battles`` or ``results:``, no ``turn:``) or a purchase."""
        kind = super().identify(data)
        if "kind" not in data and is_results(data):
            return "battles"
        if "kind" not in data and is_purchase(data):
            return "purchase"
        if "kind" not in data and is_mobilize(data):
            return "mobilize"
        return kind

    def orders_key_of(self, kind: str) -> str:
        """``results`` in a battle results file, ``purchase`` in a purchase file, ``place`` in a mobilization, ``moves``
        in orders."""
        return {"aa-battles": "results", "aa-purchase": "purchase", "aa-mobilize": "place"}.get(kind, "moves")

    def next_state(
        self, outcome: Outcome[object], prepared: Prepared[Board], orders_path: str, output: str | None, forced: bool
    ) -> str:
        """The state that follows: a combat move's battles, battle results' noncombat move, the next power's turn."""
        from movecheck.aa.turn.apply import next_state

        return next_state(outcome.final, prepared.doc.data, prepared.doc.path, orders_path, output, forced)

    def applied(self, outcome: Outcome[object], prepared: Prepared[Board], orders_path: str, output: str | None,
                forced: bool) -> tuple[str, dict[str, object]]:
        """The state that follows and the report of what apply did (:mod:`movecheck.aa.turn.apply_report`)."""
        from movecheck.aa.turn.apply import applied

        text, report = applied(outcome.final, prepared.doc.data, prepared.doc.path, orders_path, output, forced)
        return text, report.as_json()

    @property
    def default_edition(self) -> str:
        """The edition of a state that names none and whose map names none."""
        from movecheck.aa.editions import DEFAULT_EDITION

        return DEFAULT_EDITION.name

    def editions(self) -> dict[str, Edition]:
        """The editions (``aa1942`` ...), each a class in :mod:`movecheck.aa.editions`."""
        from movecheck.aa.editions import EDITIONS

        return dict(EDITIONS)

    def find_edition(self, name: str) -> Edition | None:
        """The edition a name or alias names (``revised``), else None."""
        from movecheck.aa.editions import find_edition

        return find_edition(name)

    def close_editions(self, name: str) -> list[str]:
        """Editions spelt like ``name``."""
        from movecheck.aa.editions import close_editions

        return close_editions(name)

    def describe(self, prepared: Prepared[Board], name: str) -> str | None:
        """A unit or a space of the board (:mod:`movecheck.aa.describe`)."""
        from movecheck.aa.describe import describe

        return describe(prepared, name)

    def state_edit(self, before: object, after: object) -> object | None:
        """An edit of ``units:`` and ``control:`` entries alone (:mod:`movecheck.aa.edits`)."""
        from movecheck.aa.edits import edit_of

        return edit_of(before, after)

    def edit_can_change(self, edit: object, state_path: str, prepared: Prepared[Board], orders: object) -> bool:
        """False only for a move whose orders are out of reach of every space the edit changed
        (:mod:`movecheck.aa.edits`)."""
        from movecheck.aa.edits import Edit, can_change

        return not isinstance(edit, Edit) or can_change(edit, state_path, prepared, orders)

    def battle_under(self, kind: str, data: object, item_in: Callable[[str], int | None]) -> int | None:
        """A battles state's battle, or an order of a combat move (:mod:`movecheck.aa.battle.under`)."""
        from movecheck.aa.battle.under import battle_under

        return battle_under(kind, data, item_in)

    def battle_odds(self, path: str, kind: str, data: object, item: int, kernel: object) -> tuple[object, str]:
        """Its odds as ``movecheck odds --battle`` gives them (:mod:`movecheck.aa.battle.under`)."""
        from movecheck.aa.battle.under import battle_odds

        return battle_odds(path, kind, data, item, kernel)

    def forget_read_files(self) -> None:
        """The map files the setup read (it reads each once per process)."""

        map_files = sys.modules.get(f"{__name__}.maps.files")
        if map_files is not None:
            map_files._MAP_FILES.clear()

    def map_schema(self, name: str, game_map: str) -> str:
        """The schema ``name`` with a map's names as enums (:mod:`movecheck.aa.maps.schema`)."""
        from movecheck.aa.maps.schema import map_schema_text

        return map_schema_text(name, game_map)

    def lint_file(self, doc: Document, kind: str, clean: bool) -> list[Finding]:
        """Consistency of an aa map (orders get their schema check only)."""
        from movecheck.aa.lint import LintContext, run_lint
        from movecheck.aa.maps.gamemap import GameMap

        if not clean or kind != "aa-map":
            return []
        ctx = LintContext(doc, GameMap(doc.data), doc.data, ())
        return findings_at(doc, run_lint(ctx, "map"))

    def prepare_state(self, doc: Document, rules: RuleSettings, clean: bool) -> Prepared[Board]:
        """Build the board of a state and lint it (a state with errors is not built)."""
        prepared: Prepared[Board] = Prepared(doc, rules, reason=_("the state has errors"))
        if not clean:
            return prepared
        prepared.findings, prepared.model, map_file = lint_state(doc, rules)
        if map_file is not None:
            prepared.referenced.append(map_file)
        if prepared.model is not None and not any(f.severity.value == "error" for f in prepared.findings):
            prepared.reason = None
        else:
            prepared.model = None
        return prepared

    def rule_baseline(self, prepared: Prepared[Board]) -> Baseline:
        """The options of the edition the board is played under, and the edition without the configuration's."""
        from movecheck.aa.maps.files import edition_of

        board_map = prepared.ready().map
        edition, _found = edition_of(prepared.doc, board_map, prepared.rules)
        unconfigured, _found = edition_of(prepared.doc, board_map, RuleSettings())
        layers: tuple[tuple[str, str, dict[str, Any]], ...] = ()
        if board_map.options:  # a map's own options (its game's settings) are a source a report names
            source = prepared.referenced[0].doc.path if prepared.referenced else prepared.doc.path
            layers = (("map", source, dict(board_map.options)),)
        return Baseline(edition.option_values(), edition.name, unconfigured.name, layers)

    draws = True

    def picture(self, loaded: Read, run: Drawing, reach: list[str] | None = None, around: str | None = None) -> str:
        """The board, or the orders or battle results on it (:mod:`movecheck.aa.picture.collect`); no reach.

        ``around``: ``all`` (the whole board) or a margin in board pixels about what the turn touches."""
        from movecheck.aa.picture.collect import picture

        if reach:
            raise InputError(_("--reach draws where a manoeuvre base can go; {path} is an aa file").format(
                path=loaded.doc.path))
        return picture(loaded, run, around)

    def summary(self, item: Checked) -> list[Section]:
        """The post's sections for one aa file (:mod:`movecheck.aa.post.sections`)."""
        from movecheck.aa.post.sections import sections

        return sections(item)

    def summary_title(self, item: Checked) -> str:
        from movecheck.aa.post.sections import title

        return title(item)

    def summary_order(self, item: Checked) -> tuple[int, ...]:
        from movecheck.aa.post.sections import turn_order

        return turn_order(item)

    def fresh(self, prepared: Prepared[Board]) -> Board:
        """A copy of the prepared board: the orders move its units."""
        return prepared.ready().copy()

    def check_orders(
        self, orders: Document, prepared: Prepared[Board], valid_orders: set[int], context: RunContext
    ) -> Outcome[object]:
        """Check an aa orders file against its prepared state."""
        if is_results(orders.data):
            from movecheck.aa.turn.results import check_results

            return check_results(orders, prepared)
        if is_purchase(orders.data):
            from movecheck.aa.checks import purchase as _clauses  # noqa: F401  (registers the purchase clauses)
            from movecheck.aa.turn.purchase import check_purchase

            return check_purchase(orders, prepared)
        if is_mobilize(orders.data):
            from movecheck.aa.turn.mobilize import check_mobilize

            return check_mobilize(orders, prepared, valid_orders)
        from movecheck.aa.kept import carried_out

        doc, board = orders, prepared.ready()
        moves = doc.get("moves", default=[])
        outcome: Outcome[object] = Outcome(orders=len(moves) if isinstance(moves, list) else 0)  # not a list: MC003
        written, phase = doc.get("power"), doc.get("phase")
        power = board.map.resolve_power(written)
        turn = prepared.doc.get("turn", default={})
        mismatch = []
        if not isinstance(written, str):
            pass  # missing or not text: the schema has said so (MC003)
        elif power is None:
            from movecheck.aa.setup import unknown_power

            mismatch.append(unknown_power(doc, board.map, written, ("power",)))
        elif power != board.power:
            mismatch.append(
                doc.finding(
                    "MC006",
                    _("the orders are for the {power}, but the state is at the turn of the {turn}").format(
                        power=power, turn=board.power
                    ),
                    ("power",),
                )
            )
        if phase in ("combat_move", "noncombat_move") and phase != turn.get("phase"):
            mismatch.append(
                doc.finding(
                    "MC006",
                    _("the orders are for {phase}, but the state is at {turn}").format(
                        phase=phase, turn=turn.get("phase")
                    ),
                    ("phase",),
                )
            )
        if mismatch:
            outcome.findings.extend(mismatch)
            outcome.reason = _("the orders do not match the state")
            return outcome
        result = carried_out(doc, board, turn.get("phase", "combat_move"), REPEATED.get())
        outcome.findings.extend(result.findings)
        outcome.orders = result.orders
        outcome.checked = result.checked
        outcome.assignment = result.assignment()
        outcome.final = result.phase
        return outcome


SYSTEM = AA()


__all__ = ["AA", "SYSTEM"]
