"""Fixtures of the language server tests."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

STATE = Path(__file__).resolve().parents[2] / "examples" / "aa" / "states" / "g1-combat.yaml"


def lay_out_workspace(folder: Path) -> Path:
    """A workspace folder in ``folder`` beside a state outside it (and a link in the workspace to that state)."""
    inside = folder / "ws"
    (inside / "orders").mkdir(parents=True)
    shutil.copy(STATE, folder / "outside-state.yaml")
    os.symlink(folder / "outside-state.yaml", inside / "linked-state.yaml")
    return inside


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    """A workspace folder beside a state outside it (and a link in the workspace to that state)."""
    return lay_out_workspace(tmp_path)
