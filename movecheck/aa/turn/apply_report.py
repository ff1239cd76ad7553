"""What an aa ``movecheck apply`` did, for ``apply --format json`` (schema ``apply-report``).

Every aa apply fills one :class:`ApplyReport` while it writes the next state: the state
written and its turn, the aircraft the rules destroyed (removed from it), the territories
taken, the IPCs that changed hands or were spent, and the income of the end of the turn.
An apply of another phase adds its own fields here (with their lines in
``schemas/apply-report.schema.json``), so the header of the state and the JSON report
say the same from one record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

REPORT_VERSION = 1
"""The format version of the apply report (``movecheck`` key)."""


@dataclass
class Destroyed:
    """An aircraft the rules destroy where it ended its move (N17, AA308), a fighter that waited at sea and found no
    slot (AA708), or a defending fighter whose carrier sank with no landing given (a battle result): removed by
    apply."""

    type: str
    power: str
    at: str
    id: str | None = None

    def as_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"type": self.type, "power": self.power, "at": self.at}
        if self.id:
            found["id"] = self.id
        return found


@dataclass
class Capture:
    """A territory that changed hands: who took it and who holds it now (its original power when liberated)."""

    at: str
    by: str
    holder: str
    was: str | None
    liberated: bool = False
    returned: bool = False
    """An ally held it and it went back to its original power with that power's capital (not taken itself)."""

    def as_json(self) -> dict[str, Any]:
        return {"at": self.at, "by": self.by, "holder": self.holder, "was": self.was, "liberated": self.liberated}


@dataclass
class Transfer:
    """IPCs moved from one treasury to another (an enemy capital taken: aa-turn.md, "Income")."""

    source: str
    to: str
    amount: int
    reason: str
    at: str | None = None

    def as_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"from": self.source, "to": self.to, "amount": self.amount, "reason": self.reason}
        if self.at is not None:
            found["at"] = self.at
        return found


@dataclass
class Income:
    """The income a power collects at the end of its turn (filled by the mobilization apply)."""

    power: str
    amount: int
    territories: dict[str, int] = field(default_factory=dict)
    """The territories counted and their IPC value."""
    reason: str | None = None
    """Why nothing (or less) was collected, e.g. the capital is in enemy hands."""

    def as_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"power": self.power, "amount": self.amount, "territories": dict(self.territories)}
        if self.reason is not None:
            found["reason"] = self.reason
        return found


@dataclass
class ApplyReport:
    """One apply: what it read, what it wrote and what the rules did on the way."""

    orders: str
    state: str
    written: str
    turn: dict[str, Any] = field(default_factory=dict)
    """The turn of the state written (round, power, phase)."""
    forced: bool = False
    destroyed: list[Destroyed] = field(default_factory=list)
    captured: list[Capture] = field(default_factory=list)
    transfers: list[Transfer] = field(default_factory=list)
    spent: dict[str, int] = field(default_factory=dict)
    """IPCs the moving power spent in this phase: ``purchase``, ``repair``, ``research``."""
    purchased: dict[str, int] = field(default_factory=dict)
    income: Income | None = None
    refunded: int | None = None
    """IPCs returned for units left unplaced (the mobilization apply, ``unplaced_units: refunded``)."""
    ipcs: dict[str, int] | None = None
    """The treasuries of the state written (None: the state did not say and the map could not)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Fields another apply adds (each also described in the schema)."""

    def as_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "movecheck": REPORT_VERSION,
            "system": "aa",
            "orders": self.orders,
            "state": self.state,
            "written": self.written,
            "turn": dict(self.turn),
            "forced": self.forced,
            "destroyed": [d.as_json() for d in self.destroyed],
            "captured": [c.as_json() for c in self.captured],
            "transfers": [t.as_json() for t in self.transfers],
            "spent": dict(self.spent),
            "purchased": dict(self.purchased),
            "income": self.income.as_json() if self.income is not None else None,
            "refunded": self.refunded,
            "ipcs": dict(self.ipcs) if self.ipcs is not None else None,
            "unplaced": None,
            "notes": [],
        }
        found.update(self.extra)  # the mobilization apply's ``unplaced``, the battles apply's ``notes``
        return found


def render(report: dict[str, Any]) -> str:
    """The JSON text of a report (deterministic: keys in the order written, two-space indent)."""
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


__all__ = ["ApplyReport", "Capture", "Destroyed", "Income", "Transfer", "render"]
