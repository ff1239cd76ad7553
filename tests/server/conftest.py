"""Fixtures of the language server tests."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

STATE = Path(__file__).resolve().parents[2] / "examples" / "aa" / "states" / "g1-combat.yaml"


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    """A workspace folder beside a state outside it (and a link in the workspace to that state)."""
    inside = tmp_path / "ws"
    (inside / "orders").mkdir(parents=True)
    shutil.copy(STATE, tmp_path / "outside-state.yaml")
    os.symlink(tmp_path / "outside-state.yaml", inside / "linked-state.yaml")
    return inside
