"""``movecheck render``: the picture of a file, drawn by its system (aa board, maneuver battlefield)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from movecheck.maneuver.picture import Unrenderable

__all__ = ["Unrenderable", "picture"]


def picture(path: str, settings: Any, select: Callable[[Any], Any] | None = None) -> str:
    """The SVG of an aa or maneuver file (the maneuver picture says what it cannot draw)."""
    if path != "-":
        from movecheck.core import read

        kind = read(path).kind
        if kind is not None and kind.startswith("aa-"):
            from movecheck.aa.picture import picture as aa_picture

            return aa_picture(path, settings, select)
    from movecheck.maneuver.picture import picture as maneuver_picture

    return maneuver_picture(path, settings, select)
