"""Builders for maneuver battlefields and orders, and an in-process ``check``/``lint``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from movecheck.core import Settings, check, lint
from movecheck.findings import Finding


def base(bid: str, x: float, y: float, facing: float = 0, **extra: Any) -> dict[str, Any]:
    """A base entry."""
    return {"id": bid, "x": x, "y": y, "facing": facing, **extra}


def corps(cid: str, *bases: dict[str, Any], mobility: float = 8, size: tuple[float, float] = (4, 2)) -> dict[str, Any]:
    """A corps entry."""
    return {"id": cid, "mobility": mobility, "base": list(size), "bases": list(bases)}


def rect_terrain(tid: str, kind: str, x0: float, y0: float, x1: float, y1: float) -> dict[str, Any]:
    """An axis-aligned rectangle of terrain."""
    return {"id": tid, "kind": kind, "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


def state(red: list[dict[str, Any]], blue: list[dict[str, Any]] | None = None, *, terrain: list[dict[str, Any]] = (),
          landmarks: list[dict[str, Any]] = (), options: dict[str, Any] | None = None,
          field: tuple[float, float] = (200, 200)) -> dict[str, Any]:
    """A battlefield document; blue defaults to one far-away base."""
    if blue is None:
        blue = [corps("blue-far", base("bfar", 195, 195, 180))]
    doc: dict[str, Any] = {
        "movecheck": 1,
        "system": "maneuver",
        "field": {"width": field[0], "depth": field[1]},
        "sides": {"red": red, "blue": blue},
    }
    if options:
        doc["options"] = options
    if terrain:
        doc["terrain"] = list(terrain)
    if landmarks:
        doc["landmarks"] = list(landmarks)
    return doc


def orders(*items: dict[str, Any], side: str = "red") -> dict[str, Any]:
    """An orders document naming ``state.yaml``."""
    return {"movecheck": 1, "system": "maneuver", "state": "state.yaml", "side": side, "orders": list(items)}


def free(bid: str, *path: tuple[float, float], **extra: Any) -> dict[str, Any]:
    """A free move order."""
    return {"order": "free", "base": bid, "path": [list(p) for p in path], **extra}


def corps_order(kind: str, cid: str, end: dict[str, tuple[float, float]], **extra: Any) -> dict[str, Any]:
    """A corps order with declared ends."""
    return {"order": kind, "corps": cid, "end": {k: {"x": v[0], "y": v[1]} for k, v in end.items()}, **extra}


def dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=None, allow_unicode=True)


def run_check(tmp_path: Path, state_doc: dict[str, Any] | str, orders_doc: dict[str, Any] | str,
              suggest: bool = False) -> tuple[list[Finding], list[str], Any]:
    """Check orders against a state in-process: (findings, suggestions, report)."""
    (tmp_path / "state.yaml").write_text(state_doc if isinstance(state_doc, str) else dump(state_doc), encoding="utf-8")
    (tmp_path / "orders.yaml").write_text(orders_doc if isinstance(orders_doc, str) else dump(orders_doc), encoding="utf-8")
    report, suggestions = check([str(tmp_path / "orders.yaml")], Settings(suggest=suggest))
    return report.sorted_findings(), suggestions, report


def run_lint(tmp_path: Path, state_doc: dict[str, Any] | str) -> list[Finding]:
    """Lint a battlefield in-process."""
    (tmp_path / "state.yaml").write_text(state_doc if isinstance(state_doc, str) else dump(state_doc), encoding="utf-8")
    return lint([str(tmp_path / "state.yaml")], Settings()).sorted_findings()


def codes(findings: list[Finding], severity: str | None = None) -> list[str]:
    """Codes of the findings (of one severity), sorted."""
    return sorted(f.code for f in findings if severity is None or f.severity.value == severity)


def errors(findings: list[Finding]) -> list[str]:
    return codes(findings, "error")


def only(findings: list[Finding], code: str) -> list[Finding]:
    return [f for f in findings if f.code == code]
