"""The maneuver system: corps of bases on a continuous battlefield.

The entry points the core calls are light; the battlefield model and its
geometry (shapely) are imported only when a file of this system is linted or
checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from movecheck.document import findings_at
from movecheck.findings import Finding
from movecheck.i18n import N_, _
from movecheck.systems import Drawing, Outcome, Prepared, Read, RuleSettings, RunContext, System, has_errors

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.document import Document
    from movecheck.maneuver.engine import Assumed
    from movecheck.maneuver.model import Battlefield
    from movecheck.summary import Checked, Section

Carried = tuple["Battlefield", str, "list[Assumed]"]
"""What maneuver orders leave: the battlefield they were carried out on, the side that moved, the rolls assumed."""


class Maneuver(System["Battlefield", Carried]):
    """Miniatures manoeuvre: a state is a battlefield (terrain, corps of bases); orders move them."""

    name = "maneuver"
    title = N_("maneuver: miniatures manoeuvre")
    clause_modules = ("movecheck.maneuver.rules",)
    clause_index = "movecheck.maneuver.clause_index"
    options_module = "movecheck.maneuver.options"
    draws = True
    commands = "movecheck.maneuver.commands:register"
    output_schemas = ("reach",)
    source_titles = {"Manoeuvre (corps and bases)": N_("manoeuvre rules, corps and bases")}  # noqa: RUF012
    orders_key = "orders"
    orders_markers = ("orders", "side")
    state_markers = ("field",)
    suggest_fills = ("end",)

    def prepare_state(self, doc: Document, rules: RuleSettings, clean: bool) -> Prepared[Battlefield]:
        """Build the battlefield of a state and lint it (geometry only when nothing is wrong)."""
        require_geometry(doc.path)
        findings, battlefield = lint_state(doc, rules, clean)
        return Prepared(
            doc, rules, battlefield, findings, reason=None if battlefield is not None else _("the state has errors")
        )

    def fresh(self, prepared: Prepared[Battlefield]) -> Battlefield:
        """A copy of the prepared battlefield: the orders move its bases."""
        return prepared.ready().copy()

    def check_orders(
        self, orders: Document, prepared: Prepared[Battlefield], valid_orders: set[int], context: RunContext
    ) -> Outcome[Carried]:
        """Check a maneuver orders file against its prepared battlefield."""
        from movecheck.maneuver.setup import suggested

        doc, battlefield = orders, prepared.ready()
        items = doc.get("orders", default=[])
        outcome: Outcome[Carried] = Outcome(orders=len(items) if isinstance(items, list) else 0)
        outcome.readings = {"maneuver": battlefield.options.readings()}
        side = doc.get("side")
        if not isinstance(side, str) or side not in battlefield.sides:
            sides = sorted(battlefield.sides)
            hint, fixes = suggested(side, sides, doc, ("side",))
            outcome.findings.append(
                doc.finding(
                    "MC006",
                    _("the orders are for side {side}, which is not a side of {state} ({sides})").format(
                        side=repr(side), state=prepared.doc.path, sides=", ".join(sides)) + hint,
                    ("side",),
                    fixes=fixes,
                )
            )
            outcome.reason = _("the orders do not match the state")
            return outcome
        from movecheck.maneuver.engine import run

        battlefield = self.fresh(prepared)  # render observes each order's facts
        found, required_ends, checked, assumed = run(doc, battlefield, side, valid_orders, context.observe,
                                                     drafts=context.suggest)
        outcome.findings.extend(found)
        outcome.checked = checked
        outcome.final = (battlefield, side, assumed)
        if assumed:
            outcome.hold = _("not written: the orders are legal only for some results of rolls nobody declared "
                             "(MV304); declare the rolls, or give --force to write the state that assumes them")
        if context.suggest:
            outcome.required_ends = required_ends
        return outcome

    def describe(self, prepared: Prepared[Battlefield], name: str) -> str | None:
        """A base, a corps or a landmark of the battlefield (:mod:`movecheck.maneuver.describe`)."""
        from movecheck.maneuver.describe import describe

        return describe(prepared, name)

    def picture(self, loaded: Read, run: Drawing, reach: list[str] | None = None, around: str | None = None) -> str:
        """The battlefield, or orders on it with what ``check`` finds (:mod:`movecheck.maneuver.picture`);
        ``reach``: the bases and corps whose reach is drawn (on a state); ``around``: the battlefield is
        always drawn whole."""
        from movecheck.maneuver.picture import picture

        return picture(loaded, run, reach or [])

    def summary(self, item: Checked) -> list[Section]:
        """The post's sections for one maneuver file (:mod:`movecheck.maneuver.summary`)."""
        from movecheck.maneuver.summary import sections

        return sections(item)

    def summary_title(self, item: Checked) -> str:
        from movecheck.maneuver.summary import title

        return title(item)

    def next_state(
        self, outcome: Outcome[Carried], prepared: Prepared[Battlefield], orders_path: str, output: str | None,
        forced: bool
    ) -> str:
        """The battlefield after the orders (:mod:`movecheck.maneuver.apply`), the next side to move."""
        from movecheck.maneuver.apply import next_state

        if outcome.final is None:
            raise RuntimeError(f"{orders_path}: apply of orders that were not carried out")
        battlefield, side, assumed = outcome.final
        return next_state(battlefield, prepared, orders_path, side, forced, assumed)


SYSTEM = Maneuver()


def require_geometry(path: str) -> None:
    """Stop the run with one line (exit 2) when shapely, the ``movecheck[maneuver]`` extra, is missing.

    Looked up, not imported: the geometry is imported only when it is checked.
    """
    from importlib.util import find_spec

    if find_spec("shapely") is None:
        from movecheck.reading import InputError

        message = _(
            "{path}: a manoeuvre battlefield needs shapely, which is not installed: install movecheck[maneuver]"
        )
        raise InputError(message.format(path=path))


def lint_state(doc: Document, rules: RuleSettings | None = None, clean: bool = True) -> tuple[list[Finding], Any]:
    """Findings of building and linting a battlefield, and the battlefield (None when unusable).

    ``clean``: the file's reading and schema found no error (else no geometry is checked).
    """
    from movecheck.maneuver import rules as _rules  # noqa: F401  (registers the clauses)
    from movecheck.maneuver.lint import LintContext, run_lint
    from movecheck.maneuver.setup import build_battlefield

    setup = build_battlefield(doc, rules)
    findings = list(setup.findings)
    geometry = setup.battlefield is not None and clean and not has_errors(findings)
    findings.extend(findings_at(doc, run_lint(LintContext(doc, setup.battlefield), geometry)))
    if not geometry or has_errors(findings):
        return findings, None
    return findings, setup.battlefield
