"""The aa system: Axis & Allies area movement (combat move, noncombat move, landing).

The entry points the core calls are light; the board model (networkx) is
imported only when a file of this system is checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from movecheck.findings import Finding
from movecheck.i18n import _
from movecheck.loading import findings_at
from movecheck.systems import Baseline, Prepared, RuleSettings, System

if TYPE_CHECKING:
    from movecheck.core import Outcome, Settings
    from movecheck.loading import Document


class AA(System):
    """Axis & Allies: a state is a board (map, control, units); orders are moves."""

    name = "aa"
    orders_key = "moves"
    orders_markers = ("moves", "phase", "power")
    state_markers = ("turn",)
    kinds = ("map", "state", "orders", "battles")
    orders_kinds = ("orders", "battles")
    order_lists = ("moves", "results")
    reference_keys = ("map",)

    def identify(self, data: dict[str, Any]) -> str:
        """A map, a state, orders, or battle results (``phase: battles`` or ``results:``, no ``turn:``)."""
        kind = super().identify(data)
        if "kind" not in data and is_results(data):
            return "battles"
        return kind

    def orders_key_of(self, kind: str) -> str:
        """``results`` in a battle results file, ``moves`` in orders."""
        return "results" if kind == "aa-battles" else "moves"

    def next_state(self, outcome: Outcome, prepared: Prepared, orders_path: str, output: str | None, forced: bool) -> str:
        """The state that follows: a combat move's battles, battle results' noncombat move, the next power's turn."""
        from movecheck.aa.apply import next_state

        return next_state(outcome.final, prepared.doc.data, prepared.doc.path, orders_path, output, forced)

    def applied(self, outcome: Outcome, prepared: Prepared, orders_path: str, output: str | None,
                forced: bool) -> tuple[str, dict[str, Any]]:
        """The state that follows and the report of what apply did (:mod:`movecheck.aa.apply_report`)."""
        from movecheck.aa.apply import applied

        text, report = applied(outcome.final, prepared.doc.data, prepared.doc.path, orders_path, output, forced)
        return text, report.as_json()

    @property
    def default_edition(self) -> str:  # type: ignore[override]
        """The edition of a state that names none and whose map names none."""
        from movecheck.aa.editions import DEFAULT_EDITION

        return DEFAULT_EDITION.name

    def lint_file(self, doc: Document, kind: str, clean: bool) -> list[Finding]:
        """Consistency of an aa map (orders get their schema check only)."""
        from movecheck.aa.lint import LintContext, run_lint
        from movecheck.aa.model import GameMap

        if not clean or kind != "aa-map":
            return []
        ctx = LintContext(doc, GameMap(doc.data), doc.data, ())
        return findings_at(doc, run_lint(ctx, "map"))

    def prepare_state(self, doc: Document, rules: RuleSettings, clean: bool) -> Prepared:
        """Build the board of a state and lint it (a state with errors is not built)."""
        prepared = Prepared(doc, rules, reason=_("the state has errors"))
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

    def rule_baseline(self, prepared: Prepared) -> Baseline:
        """The options of the edition the board is played under, and the edition without the configuration's."""
        from movecheck.aa.setup import edition_of

        board_map = prepared.model.map
        edition, _found = edition_of(prepared.doc, board_map, prepared.rules)
        unconfigured, _found = edition_of(prepared.doc, board_map, RuleSettings())
        layers: tuple[tuple[str, str, dict[str, Any]], ...] = ()
        if board_map.options:  # a map's own options (its game's settings) are a source a report names
            source = prepared.referenced[0].doc.path if prepared.referenced else prepared.doc.path
            layers = (("map", source, dict(board_map.options)),)
        return Baseline(edition.option_values(), edition.name, unconfigured.name, layers)

    def summary(self, item: Any) -> list[Any]:
        """The post's sections for one aa file (:mod:`movecheck.aa.summary`)."""
        from movecheck.aa.summary import sections

        return sections(item)

    def summary_title(self, item: Any) -> str:
        from movecheck.aa.summary import title

        return title(item)

    def fresh(self, prepared: Prepared) -> Any:
        """A copy of the prepared board: the orders move its units."""
        return prepared.model.copy()

    def check_orders(self, orders: Document, prepared: Prepared, valid_orders: set[int], settings: Settings) -> Outcome:
        """Check an aa orders file against its prepared state."""
        from movecheck.aa.engine import run
        from movecheck.core import Outcome

        if is_results(orders.data):
            from movecheck.aa.results import check_results

            return check_results(orders, prepared)
        doc, board = orders, prepared.model
        moves = doc.get("moves", default=[])
        outcome = Outcome(orders=len(moves) if isinstance(moves, list) else 0)  # not a list: MC003
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
            mismatch.append(doc.finding(
                "MC006", _("the orders are for the {power}, but the state is at the turn of the {turn}").format(power=power, turn=board.power),
                ("power",),
            ))
        if phase in ("combat_move", "noncombat_move") and phase != turn.get("phase"):
            mismatch.append(doc.finding(
                "MC006", _("the orders are for {phase}, but the state is at {turn}").format(phase=phase, turn=turn.get("phase")), ("phase",)
            ))
        if mismatch:
            outcome.findings.extend(mismatch)
            outcome.reason = _("the orders do not match the state")
            return outcome
        result = run(doc, self.fresh(prepared), turn.get("phase", "combat_move"), fresh=lambda: self.fresh(prepared))
        outcome.findings.extend(result.findings)
        outcome.orders = result.orders
        outcome.checked = result.checked
        outcome.assignment = result.assignment()
        outcome.final = result.phase
        return outcome


SYSTEM = AA()


def is_results(data: Any) -> bool:
    """A battle results file: ``phase: battles`` or a ``results:`` list (aa.md, "Battle results")."""
    return isinstance(data, dict) and (data.get("phase") == "battles" or "results" in data) and "turn" not in data


def lint_state(doc: Document, rules: RuleSettings | None = None) -> tuple[list[Finding], Any, Any]:
    """Findings of building and linting a state, its board (None when it cannot be built), its map file.

    The map file (a ``Loaded``, when ``map:`` names a file) carries its own findings;
    they are not among the state's.
    """
    from movecheck.aa.lint import LintContext, run_lint
    from movecheck.aa.setup import build_board

    setup = build_board(doc, rules)
    findings = list(setup.findings)
    if setup.board is None:
        return findings, None, setup.map_file
    map_data = doc.data["map"] if isinstance(doc.data.get("map"), dict) else {}
    ctx = LintContext(doc, setup.board.map, map_data, ("map",), setup.board)
    found = run_lint(ctx, "state")
    if map_data:
        found += run_lint(ctx, "map")
    findings.extend(findings_at(doc, found))
    return findings, setup.board, setup.map_file
