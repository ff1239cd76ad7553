"""The toy system's one clause."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from movecheck.clauses import Violation, clause


@clause(
    "TY101",
    "step-too-long",
    "error",
    "a token steps further than max_step",
    system="toy",
    runs=("step",),
    example=("``{token: a, to: 3}`` from 0", "``{token: a, to: 1}`` from 0"),
)
def step_too_long(step: dict[str, Any], board: dict[str, Any]) -> Iterator[Violation]:
    """A token moves at most ``max_step`` places in one step, either way."""
    start = board["tokens"][step["token"]]
    if abs(step["to"] - start) > board["options"]["max_step"]:
        yield Violation(
            f"{step['token']} steps from {start} to {step['to']}, further than {board['options']['max_step']}", ("to",)
        )
