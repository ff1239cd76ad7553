"""What a battlefield knows of a name, for the language server's hover (``Maneuver.describe``)."""

from __future__ import annotations

from typing import Any

from movecheck.i18n import _


def describe(prepared: Any, name: str) -> str | None:
    """A base, a corps or a landmark in words; None for another name."""
    model = prepared.model
    if name in getattr(model, "bases", {}):
        base = model.bases[name]
        said = _("base {id} of {side}, corps {corps}: at ({x}, {y}) facing {facing}, "
                 "{width} by {depth}, mobility {mobility}")
        return said.format(
            id=name, side=base.side, corps=base.corps, x=base.x, y=base.y, facing=base.facing, width=base.width,
            depth=base.depth, mobility=base.mobility)
    if name in getattr(model, "corps", {}):
        corps = model.corps[name]
        bases = ", ".join(b.id for b in corps.bases)
        return _("corps {id} of {side}: bases {bases}").format(id=name, side=corps.side, bases=bases)
    if name in getattr(model, "landmarks", {}):
        return str(model.landmarks[name].describe())
    return None
