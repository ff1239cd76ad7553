"""What an aa board knows of a name, for the language server's hover (``AA.describe``)."""

from __future__ import annotations

from typing import Any

from movecheck.aa.maps import BUILTIN_MAPS, builtin_map
from movecheck.i18n import _


def describe(prepared: Any, name: str) -> str | None:
    """A unit's place and movement, or a space's facts (``map show``); None for another name."""
    model = prepared.model
    if name in model.by_id:
        unit = model.by_id[name]
        return _("{id}: {power} {type} at {space}, moved {moved} this turn").format(
            id=name, power=unit.power, type=unit.type.name, space=unit.at, moved=unit.moved)
    space = model.map.resolve(name)
    return _space_facts(prepared, space) if space is not None else None


def _space_facts(prepared: Any, space: str) -> str | None:
    """``movecheck map show MAP SPACE`` of the map the state is played on."""
    from movecheck.aa.maps import query as mapquery

    data = _map_data(prepared)
    if data is None:
        return None
    return mapquery.space_facts(mapquery.MapSource(str(data.get("name", "map")), data), space)


def _map_data(prepared: Any) -> dict[str, Any] | None:
    ref = prepared.doc.get("map")
    if isinstance(ref, dict):
        return ref

    if ref in BUILTIN_MAPS:
        return builtin_map(str(ref))
    for loaded in prepared.referenced:
        if loaded.kind == "aa-map" and isinstance(loaded.doc.data, dict):
            return dict(loaded.doc.data)
    return None
