"""Builders for maneuver battlefields and orders, on the shared harness (:mod:`tests.harness`):
checking in memory, linting, ``codes``/``errors``/``only``, the same for every system."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from movecheck.findings import Finding
from movecheck.settings import Settings
from tests.harness import check_report, codes, errors, lint_text, only, yaml_text

__all__ = ["base", "codes", "corps", "corps_order", "dump", "errors", "free", "only", "orders", "rect_terrain",
           "run_check", "run_lint", "state"]


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
    return yaml_text(data, sort_keys=False, default_flow_style=None, allow_unicode=True)


def run_check(tmp_path: Path, state_doc: dict[str, Any] | str, orders_doc: dict[str, Any] | str,
              suggest: bool = False) -> tuple[list[Finding], list[str], Any]:
    """Check orders against a state in memory: (findings, suggestions, report).

    The two files are written to ``tmp_path`` too, for the tests that go on to run the
    command line on them.
    """
    state_text, orders_text = _text(state_doc), _text(orders_doc)
    (tmp_path / "state.yaml").write_text(state_text, encoding="utf-8")
    (tmp_path / "orders.yaml").write_text(orders_text, encoding="utf-8")
    report, outcome = check_report(state_text, orders_text, Settings(suggest=suggest), folder=tmp_path)
    suggestions = [outcome.required_ends] if outcome is not None and outcome.required_ends else []
    return report.sorted_findings(), suggestions, report


def run_lint(tmp_path: Path, state_doc: dict[str, Any] | str) -> list[Finding]:
    """Lint a battlefield in-process."""
    return lint_text(_text(state_doc), tmp_path, "state.yaml")


def _text(doc: dict[str, Any] | str) -> str:
    return doc if isinstance(doc, str) else dump(doc)
