"""A third rule system, for tests only: tokens that step along a line.

It proves that a system plugs into movecheck from outside the package: it is found
through the entry-point group ``movecheck.systems`` (``toy = "toysystem:SYSTEM"``, see
``tests/test_toysystem.py``) and declares everything in the one object below, with its
schemas beside it and one clause in :mod:`toysystem.rules`.  Nothing in ``movecheck/``
names it.

A state places tokens: ``tokens: {a: 0, b: 5}``; orders move them: ``steps: [{token: a,
to: 1}]``.  TY101: a step may not be longer than the option ``max_step`` (default 1).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from movecheck.document import Document
from movecheck.findings import Finding
from movecheck.systems import Outcome, Prepared, RuleSettings, RunContext, System

Places = dict[str, Any]
"""The toy's model of a state: ``tokens`` (name -> place) and the ``options`` its rules run under."""


class Toy(System[Places, None]):
    """Tokens on a line: a state says where each stands, orders step them."""

    name = "toy"
    title = "toy: tokens stepping along a line"
    kinds = ("state", "orders")
    schema_folder = Path(__file__).resolve().parent
    clause_modules = ("toysystem.rules",)
    options_module = "toysystem.options"
    orders_key = "steps"
    orders_markers = ("steps",)
    state_markers = ("tokens",)

    def prepare_state(self, doc: Document, rules: RuleSettings, clean: bool) -> Prepared[Places]:
        """The tokens' places and the step length the rules allow."""
        if not clean:
            return Prepared(doc, rules, reason="the state has errors")
        from toysystem.options import OPTIONS

        options = {**OPTIONS.defaults(), **rules.options}
        return Prepared(doc, rules, model={"tokens": dict(doc.data["tokens"]), "options": options})

    def fresh(self, prepared: Prepared[Places]) -> Places:
        """A copy of the places: the steps move the tokens."""
        model = prepared.ready()
        return {"tokens": dict(model["tokens"]), "options": model["options"]}

    def check_orders(
        self, orders: Document, prepared: Prepared[Places], valid_orders: set[int], context: RunContext
    ) -> Outcome[None]:
        """Each step in turn, by the clauses that run on a step."""
        from movecheck.clauses import CATALOGUE

        steps = orders.data.get("steps", [])
        outcome: Outcome[None] = Outcome(orders=len(steps))
        board = self.fresh(prepared)
        for number, step in enumerate(steps, 1):
            if number not in valid_orders or step["token"] not in board["tokens"]:
                continue
            for clause in CATALOGUE.running("toy", "step"):
                for violation in clause.run(step, board):
                    outcome.findings.append(
                        orders.finding(
                            violation.code or clause.code, violation.message, ("steps", number - 1, *violation.where)
                        )
                    )
            board["tokens"][step["token"]] = step["to"]
            outcome.checked.add(number)
        return outcome

    def lint_file(self, doc: Document, kind: str, clean: bool) -> list[Finding]:
        """Orders get their schema check only."""
        return []


SYSTEM = Toy()
