"""The names a buffer may use, from the board its last check prepared: completion, hover, definition.

An orders file's names come from its state (an aa board: spaces with their other
spellings, powers, unit types, unit ids; a maneuver battlefield: corps, bases,
landmarks, terrain); a state's from itself.  The key the cursor is under says which
names are meant (``path:`` spaces, ``units:`` unit types or ids, ``corps:`` corps ...);
anywhere else every name is offered.  At a key's place, the keys the file's schema
allows there are offered.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from movecheck.files import outside_root
from movecheck.i18n import _
from movecheck.server.diagnostics import lsp_range
from movecheck.server.files import path_of, uri_of
from movecheck.server.spans import Node, Point, Spans, yaml_plain
from movecheck.systems import known, system

if TYPE_CHECKING:  # pragma: no cover
    from movecheck.server.buffers import Server

Named = dict[str, tuple[str, str]]
"""name or spelling -> (category, detail)."""

SPACE, POWER, TYPE, UNIT, CORPS, BASE, LANDMARK, TERRAIN = (
    "space", "power", "unit type", "unit", "corps", "base", "landmark", "terrain")
_BY_KEY = {
    "path": (SPACE,), "from": (SPACE,), "to": (SPACE,), "at": (SPACE,), "attack": (SPACE,), "territory": (SPACE,),
    "space": (SPACE,), "control": (SPACE, POWER), "power": (POWER,), "owner": (POWER,), "type": (TYPE,),
    "units": (TYPE, UNIT), "transport": (UNIT,), "corps": (CORPS,), "base": (BASE,), "bases": (BASE,),
    "landmark": (LANDMARK,), "towards": (LANDMARK, CORPS), "terrain": (TERRAIN,),
}
_ITEM = lsp.CompletionItemKind
_KIND = {SPACE: _ITEM.Value, POWER: _ITEM.EnumMember, TYPE: _ITEM.Class, UNIT: _ITEM.Variable, CORPS: _ITEM.Module,
         BASE: _ITEM.Variable, LANDMARK: _ITEM.Reference, TERRAIN: _ITEM.Reference}
_CODE = re.compile(r"^[A-Z]{2}\d{3}$")
_PLAIN = re.compile(r"^[^\s,\[\]{}:#&*!|>'\"%@`-][^,\[\]{}:#]*(?<=\S)$")


def names_of(prepared: Any) -> Named:
    """Every name of a prepared board or battlefield, with what it is."""
    model = getattr(prepared, "model", None)
    found: Named = {}
    if model is None:
        return found
    game_map = getattr(model, "map", None)
    if game_map is not None:  # an aa board
        for name, space in game_map.spaces.items():
            found[name] = (SPACE, _("sea zone") if space.sea else _("territory"))
        for spelling, name in game_map.space_names.spellings.items():
            found.setdefault(spelling, (SPACE, _("other spelling of {name}").format(name=name)))
        for name in game_map.powers:
            found[name] = (POWER, _("power"))
        for name in game_map.unit_types:
            found[name] = (TYPE, _("unit type"))
        for spelling, name in {**game_map.power_names.spellings, **game_map.type_names.spellings}.items():
            found.setdefault(spelling, (POWER if name in game_map.powers else TYPE,
                                        _("other spelling of {name}").format(name=name)))
        for uid, unit in model.by_id.items():
            found[uid] = (UNIT, f"{unit.power} {unit.type.name}, {unit.at}")
        return found
    for cid, corps in getattr(model, "corps", {}).items():
        found[cid] = (CORPS, _("corps of {side}").format(side=corps.side))
    for bid, base in getattr(model, "bases", {}).items():
        found[bid] = (BASE, _("base of {corps}").format(corps=base.corps))
    for lid, landmark in getattr(model, "landmarks", {}).items():
        found[lid] = (LANDMARK, landmark.describe())
    for tid in getattr(model, "terrain", {}):
        found.setdefault(tid, (TERRAIN, _("terrain")))
    return found


def _key_at(spans: Spans, point: Point, node: Node | None) -> tuple[str | None, bool]:
    """The key the cursor is under, and whether the cursor is where a key goes."""
    if node is not None:
        keys = [step for step in node.path if isinstance(step, str)]
        if node.is_key:
            parent = [step for step in node.path[:-1] if isinstance(step, str)]
            return (parent[-1] if parent else None), True
        return (keys[-1] if keys else None), False
    line = spans.lines[point[0]] if point[0] < len(spans.lines) else ""
    before = line[:point[1]]
    opened = re.search(r"([A-Za-z_]+)\s*:\s*[\[{]?[^:]*$", before)
    if (opened and before.rstrip().endswith((":", "[", ",", "{"))) or (opened and not before.strip().startswith("-")):
        return opened.group(1), False
    return None, bool(re.fullmatch(r"\s*(?:-\s*)?[A-Za-z_]*", before))


def complete(ls: Server, uri: str, position: lsp.Position) -> lsp.CompletionList | None:
    """The names (or keys) that may go at the cursor."""
    checked, spans = ls.spans_of(uri)
    if spans is None or checked is None:
        return None
    point = (position.line, position.character)
    node = spans.at(point)
    key, key_place = _key_at(spans, point, node)
    start = node.start if node is not None else _word_start(spans, point)
    end = node.end if node is not None else point
    quoted = node is not None and spans.lines[node.start[0]][node.start[1]:node.start[1] + 1] in ("'", '"')
    items: list[lsp.CompletionItem] = []
    if key_place and (node is None or node.is_key):
        mapping = node.path[:-1] if node is not None else _mapping_path(spans, point)
        items = [_item(name, lsp.CompletionItemKind.Property, _("key"), start, end, quoted)
                 for name in schema_keys(checked.kind, mapping)]
    if not items:
        wanted = _BY_KEY.get(key or "", ())
        result = checked.result
        named = names_of(result.prepared if result is not None else None)
        items = [_item(name, _KIND[cat], detail, start, end, quoted)
                 for name, (cat, detail) in sorted(named.items()) if not wanted or cat in wanted]
        if key == "path" and result is not None:
            _rank_neighbours(items, result.prepared, _path_so_far(spans, point))
    where = node.path if node is not None else _mapping_path(spans, point)
    if ("units" in where or key == "units") and checked.result is not None:
        _rank_units_at_start(items, checked.result.prepared, spans, where)
    return lsp.CompletionList(is_incomplete=False, items=items)


def _rank_units_at_start(items: list[lsp.CompletionItem], prepared: Any, spans: Spans, where: tuple[Any, ...]) -> None:
    """In an order's ``units``, rank first the types and ids of the mover's units in the space its path starts in
    (issue 42)."""
    board = getattr(prepared, "model", None)
    if board is None or not hasattr(board, "units_at") or len(where) < 2 or not isinstance(where[1], int):
        return
    first = spans.node((where[0], where[1], "path", 0))
    if first is None or not isinstance(first.value, str):
        return
    space = board.map.space_names.spellings.get(first.value, first.value)
    if space not in board.map.spaces:
        return
    own = [u for u in board.units_at(space) if u.power == board.power]
    there = {u.type.name for u in own} | {u.id for u in own if u.id}
    for item in items:
        rank = 0 if item.label in there else 1
        item.sort_text = f"{rank}{item.sort_text or item.label}"


_FLOW_PATH = re.compile(r"\bpath\s*:\s*\[([^\]]*)$")


def _path_so_far(spans: Spans, point: Point) -> list[str]:
    """The spaces written before the cursor in a flow list of a path on the cursor's line (``path: [A, B, Cu``,
    closed or not): ``["A", "B"]``."""
    line = spans.lines[point[0]][:point[1]] if point[0] < len(spans.lines) else ""
    written = _FLOW_PATH.search(line)
    if written is None:
        return []
    return [part.strip().strip("'\"") for part in written.group(1).split(",")[:-1] if part.strip()]


def _rank_neighbours(items: list[lsp.CompletionItem], prepared: Any, before: list[str]) -> None:
    """Rank the neighbours of the path's last space first (by their names, then their other spellings), the other
    spaces after (issue 42): an editor lists the items by ``sort_text``."""
    game_map = getattr(getattr(prepared, "model", None), "map", None)
    if game_map is None or not before:
        return
    spellings = game_map.space_names.spellings
    last = spellings.get(before[-1], before[-1])
    if last not in game_map.spaces:
        return
    near = set(game_map.neighbours(last))
    for item in items:
        name = spellings.get(item.label, item.label)
        rank = 0 if item.label in near else 1 if name in near else 2
        item.sort_text = f"{rank}{item.label}"
        item.preselect = rank == 0 or None


def _word_start(spans: Spans, point: Point) -> Point:
    line = spans.lines[point[0]] if point[0] < len(spans.lines) else ""
    col = point[1]
    while col > 0 and line[col - 1] not in "[,{: \t":
        col -= 1
    return point[0], col


def _item(name: str, kind: lsp.CompletionItemKind, detail: str, start: Point, end: Point,
          quoted: bool) -> lsp.CompletionItem:
    text = quote(name, force=quoted)
    return lsp.CompletionItem(label=name, kind=kind, detail=detail, filter_text=name,
                              text_edit=lsp.TextEdit(range=lsp_range(start, end), new_text=text))


def quote(name: str, force: bool = False) -> str:
    """A name as YAML reads it back: plain when it can be, else single-quoted."""

    if not force and _PLAIN.match(name) and yaml_plain(name):
        return name
    return "'" + name.replace("'", "''") + "'"


def schema_keys(kind: str | None, path: tuple[Any, ...]) -> list[str]:
    """The keys the file's schema allows in the mapping at the document path ``path``."""
    if kind is None:
        return []
    from movecheck.schema import load_schema

    try:
        schema = load_schema(kind)
    except Exception:
        return []
    node: Any = schema
    for step in path:
        node = _resolve(schema, node)
        node = _child(schema, node, step)
        if node is None:
            return []
    props: set[str] = set()
    for part in _alternatives(schema, _resolve(schema, node)):
        props |= set(part.get("properties", {}))
    return sorted(props)


def _mapping_path(spans: Spans, point: Point) -> tuple[Any, ...]:
    """The document path of the mapping a key typed at the cursor would go in (by indentation)."""
    line = spans.lines[point[0]] if point[0] < len(spans.lines) else ""
    indent = len(line) - len(line.lstrip(" -"))
    best: tuple[Any, ...] = ()
    for node in spans.nodes:
        if node.is_key and node.start[0] < point[0] and node.start[1] == indent:
            best = node.path[:-1]
    return best


def _resolve(schema: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node and node["$ref"].startswith("#/"):
        target: Any = schema
        for part in node["$ref"][2:].split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        node = target
    return node


def _alternatives(schema: dict[str, Any], node: Any) -> list[dict[str, Any]]:
    if not isinstance(node, dict):
        return []
    found = [node]
    for word in ("anyOf", "oneOf", "allOf"):
        for part in node.get(word, []):
            found += _alternatives(schema, _resolve(schema, part))
    return found


def _child(schema: dict[str, Any], node: Any, step: Any) -> Any:
    for part in _alternatives(schema, node):
        if isinstance(step, int) and "items" in part:
            return part["items"]
        if isinstance(step, str) and step in part.get("properties", {}):
            return part["properties"][step]
    return None


# -- hover -----------------------------------------------------------------------------------


def hover(ls: Server, uri: str, position: lsp.Position) -> lsp.Hover | None:
    """A clause on a finding's code, a space's facts on its name, a unit on its id."""
    checked, spans = ls.spans_of(uri)
    if checked is None:
        return None
    point = (position.line, position.character)
    codes = [str(d.code) for d in checked.published if d.code and _inside(d.range, point)]
    node = spans.at(point) if spans is not None else None
    if node is not None and _CODE.match(str(node.value)):
        codes.insert(0, str(node.value))
    if codes:
        from movecheck.catalogue import explain_clause

        text, status = explain_clause(codes[0])
        if status == 0:
            return lsp.Hover(contents=_block(text.rstrip()))
    if node is None or checked.result is None:
        return None
    facts = _facts(checked.result.prepared, str(node.value))
    if facts is None:
        return None
    return lsp.Hover(contents=_block(facts), range=lsp_range(node.start, node.end))


def _block(text: str) -> lsp.MarkupContent:
    """Text as the terminal shows it, in a Markdown code block."""
    return lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=f"```text\n{text}\n```")


def _inside(where: lsp.Range, point: Point) -> bool:
    return (where.start.line, where.start.character) <= point <= (where.end.line, where.end.character)


def _facts(prepared: Any, name: str) -> str | None:
    """What the state's system knows of a name (``System.describe``: a space, a unit, a corps or base)."""
    if getattr(prepared, "model", None) is None:
        return None

    owner = prepared.doc.get("system") if isinstance(prepared.doc.data, dict) else None
    return system(owner).describe(prepared, name) if known(owner) else None


# -- go to definition ------------------------------------------------------------------------


def definition(ls: Server, uri: str, position: lsp.Position) -> lsp.Location | None:
    """``state:`` and ``map:`` lead to the file they name (inside the workspace)."""
    _checked, spans = ls.spans_of(uri)
    path = path_of(uri)
    if spans is None or path is None:
        return None
    node = spans.at((position.line, position.character))
    if node is None or not node.path or node.path[-1] not in ("state", "map") or not isinstance(node.value, str):
        return None

    target = os.path.normpath(os.path.join(os.path.dirname(path), node.value))
    if outside_root(target, ls.roots.root_of(path)) or not os.path.isfile(target):
        return None
    return lsp.Location(uri=uri_of(target), range=lsp_range((0, 0), (0, 0)))
