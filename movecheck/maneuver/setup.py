"""Build a :class:`Battlefield` from a battlefield state document.

The builder is tolerant: it is also run on files with schema errors (so that
unknown names are still reported), skips whatever it cannot read, and never
raises.  Numbers are the schema's: NaN, infinities and values outside a
field's bounds are MC003 there, and the builder skips them.  Problems the JSON
Schema cannot express become findings at the node that holds them: MC003 for
bad die expressions and landmarks that are not exactly one of point/terrain/corps; MC004 for names
that do not exist (landmarks naming unknown terrain or corps, penalties naming
an unknown die).  Duplicate ids are reported by the lint (MV605); the builder
keeps the first entry of an id.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from movecheck.document import Document
from movecheck.findings import Finding
from movecheck.fixes import Fix, replacements
from movecheck.i18n import _
from movecheck.maneuver.dice import Dice, DiceError
from movecheck.maneuver.model import DEFAULT_BASE_SIZE, DEFAULT_MOBILITY, Base, Battlefield, Corps, Landmark, Terrain
from movecheck.maneuver.options import OPTIONS, Options
from movecheck.maneuver.terrain import TERRAIN_KINDS
from movecheck.suggest import close_names, did_you_mean, hint
from movecheck.systems import RuleSettings, resolve_rules, system


@dataclass
class Setup:
    """A battlefield built from a state, and what went wrong on the way."""

    battlefield: Battlefield | None
    findings: list[Finding] = field(default_factory=list)


def suggestion(name: Any, known: list[str], charge: Document | None = None) -> str:
    """``; did you mean 'A' or 'B'?`` for the closest known names, or nothing (``charge``: the
    document whose hint budget pays, see :mod:`movecheck.suggest`)."""
    return hint(name, known, charge=charge)


def suggested(name: Any, known: list[str], doc: Document, path: tuple[Any, ...]) -> tuple[str, tuple[Fix, ...]]:
    """:func:`suggestion` and the same names as fixes of the node at ``path`` (issue 42)."""
    close = close_names(name, known, charge=doc)
    return did_you_mean(close), replacements(doc, path, close)


def is_number(value: Any) -> bool:
    """A YAML number (not a boolean)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def finite(value: Any) -> bool:
    """A number that is neither NaN nor infinite."""
    return is_number(value) and math.isfinite(value)


class _Builder:
    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.findings: list[Finding] = []

    def number(self, value: Any, path: tuple[Any, ...], what: str, *, positive: bool = False) -> float | None:
        """A finite number, or None: the schema reports every other value (MC003: not a number,
        NaN or infinite, outside the bounds of its field)."""
        if not finite(value):
            return None
        if positive and value <= 0:
            return None
        return float(value)

    def point(self, value: Any, path: tuple[Any, ...], what: str) -> tuple[float, float] | None:
        if not isinstance(value, list) or len(value) != 2:
            return None
        x = self.number(value[0], (*path, 0), what)
        y = self.number(value[1], (*path, 1), what)
        return None if x is None or y is None else (x, y)

    # -- sections ----------------------------------------------------------

    def options(self, raw: Any) -> Options:
        options = Options()
        if not isinstance(raw, dict):
            return options
        dice = raw.get("dice")
        if isinstance(dice, dict):
            for name, text in dice.items():
                if isinstance(text, bool) or not isinstance(text, (str, int)):
                    continue
                try:
                    options.dice[str(name)] = Dice.parse(text)
                except DiceError as exc:
                    self.findings.append(
                        self.doc.finding(
                            "MC003",
                            _("options.dice.{name}: {error}").format(name=name, error=exc),
                            ("options", "dice", name),
                        )
                    )
        penalties = raw.get("penalties")
        if isinstance(penalties, dict):
            for kind, die in penalties.items():
                if kind not in TERRAIN_KINDS or not isinstance(die, str):
                    continue
                if die not in options.dice:
                    hint, fixes = suggested(die, list(options.dice), self.doc, ("options", "penalties", kind))
                    self.findings.append(
                        self.doc.finding(
                            "MC004",
                            _("penalty of {kind} names die {die}, which options.dice does not define").format(
                                kind=kind, die=repr(die)) + hint,
                            ("options", "penalties", kind),
                            fixes=fixes,
                        )
                    )
                    continue
                options.penalties[kind] = die
        for option in OPTIONS:
            key = option.name
            if option.minimum is not None:  # a number option
                value = self.number(raw.get(key), ("options", key), f"options.{key}")
                if value is not None and (value >= 0 or option.minimum < 0):
                    setattr(options, key, value)
            elif option.choices and raw.get(key) in option.choices:
                setattr(options, key, raw[key])
        return options

    def terrain(self, raw: Any, battlefield: Battlefield) -> None:
        if not isinstance(raw, list):
            return
        for index, entry in enumerate(raw):
            if not isinstance(entry, dict):
                continue
            tid, kind, polygon = entry.get("id"), entry.get("kind"), entry.get("polygon")
            if not isinstance(tid, str) or not tid or kind not in TERRAIN_KINDS or not isinstance(polygon, list):
                continue
            points: list[tuple[float, float]] = []
            complete = True
            for k, item in enumerate(polygon):
                point = self.point(item, ("terrain", index, "polygon", k), f"terrain {tid} point {k + 1}")
                if point is None:
                    complete = False
                    break
                points.append(point)
            if not complete or tid in battlefield.terrain:
                continue
            name = entry.get("name") if isinstance(entry.get("name"), str) else None
            battlefield.terrain[tid] = Terrain(tid, kind, points, ("terrain", index), name)

    def sides(self, raw: Any, battlefield: Battlefield) -> None:
        if not isinstance(raw, dict):
            return
        for side, corps_list in raw.items():
            battlefield.sides.setdefault(str(side), [])
            if not isinstance(corps_list, list):
                continue
            for ci, entry in enumerate(corps_list):
                corps = self.corps(str(side), entry, ("sides", side, ci), battlefield)
                if corps is not None:
                    battlefield.sides[str(side)].append(corps)
                    battlefield.corps[corps.id] = corps

    def corps(self, side: str, entry: Any, where: tuple[Any, ...], battlefield: Battlefield) -> Corps | None:
        if not isinstance(entry, dict):
            return None
        cid = entry.get("id")
        if not isinstance(cid, str) or not cid or cid in battlefield.corps:
            return None
        mobility = self.number(entry.get("mobility"), (*where, "mobility"), f"corps {cid} mobility", positive=True)
        width, depth = DEFAULT_BASE_SIZE
        size = entry.get("base")
        if isinstance(size, list) and len(size) == 2:
            w = self.number(size[0], (*where, "base", 0), f"corps {cid} base width", positive=True)
            d = self.number(size[1], (*where, "base", 1), f"corps {cid} base depth", positive=True)
            width, depth = (w or width), (d or depth)
        corps = Corps(cid, side, [], where)
        bases = entry.get("bases")
        for bi, raw in enumerate(bases if isinstance(bases, list) else []):
            base = self.base(raw, (*where, "bases", bi), corps, mobility or DEFAULT_MOBILITY, width, depth)
            if base is not None and base.id not in battlefield.bases:
                corps.bases.append(base)
                battlefield.bases[base.id] = base
        corps.formation = self.formation(entry.get("formation"))
        return corps if corps.bases else None

    def formation(self, raw: Any) -> dict[str, tuple[float, float]] | None:
        """The offsets of a corps' recorded formation (``formation: {offsets: ...}``), or None."""
        offsets = raw.get("offsets") if isinstance(raw, dict) else None
        if not isinstance(offsets, dict):
            return None
        kept = {}
        for bid, value in offsets.items():
            if isinstance(value, list) and len(value) == 2 and all(finite(v) for v in value):
                kept[str(bid)] = (float(value[0]), float(value[1]))
        return kept

    def base(
        self, raw: Any, where: tuple[Any, ...], corps: Corps, mobility: float, width: float, depth: float
    ) -> Base | None:
        if not isinstance(raw, dict):
            return None
        bid = raw.get("id")
        if not isinstance(bid, str) or not bid:
            return None
        values: dict[str, float] = {}
        ok = True
        defaults = {"facing": 0.0, "width": width, "depth": depth, "mobility": mobility}
        for key in ("x", "y", "facing", "width", "depth", "mobility"):
            if key not in raw:
                if key in defaults:
                    values[key] = defaults[key]
                    continue
                ok = False
                continue
            value = self.number(
                raw[key], (*where, key), f"base {bid} {key}", positive=key in ("width", "depth", "mobility")
            )
            if value is None:
                ok = False
            else:
                values[key] = value
        if not ok:
            return None
        return Base(
            id=bid,
            side=corps.side,
            corps=corps.id,
            x=values["x"],
            y=values["y"],
            facing=values["facing"] % 360.0,
            width=values["width"],
            depth=values["depth"],
            mobility=values["mobility"],
            source=where,
        )

    def landmarks(self, raw: Any, battlefield: Battlefield) -> None:
        if not isinstance(raw, list):
            return
        for index, entry in enumerate(raw):
            if not isinstance(entry, dict):
                continue
            lid = entry.get("id")
            if not isinstance(lid, str) or not lid:
                continue
            where = ("landmarks", index)
            given = [k for k in ("point", "terrain", "corps") if k in entry]
            if len(given) != 1:
                if given:
                    message = _("landmarks[{index}]: a landmark is exactly one of point, terrain or corps; {id} gives "
                                "{keys}").format(index=index + 1, id=lid, keys=_(" and ").join(given))
                else:
                    message = _("landmarks[{index}]: a landmark is exactly one of point, terrain or corps; {id} gives "
                                "none").format(index=index + 1, id=lid)
                self.findings.append(
                    self.doc.finding(
                        "MC003",
                        message,
                        where,
                    )
                )
                continue
            landmark = Landmark(lid, source=where)
            key = given[0]
            value = entry[key]
            if key == "point":
                landmark.point = self.point(value, (*where, "point"), f"landmark {lid}")
                if landmark.point is None:
                    continue
            elif key == "terrain":
                if not isinstance(value, str):
                    continue
                if value not in battlefield.terrain:
                    hint, fixes = suggested(value, list(battlefield.terrain), self.doc, (*where, "terrain"))
                    self.findings.append(
                        self.doc.finding(
                            "MC004",
                            _("landmark {id} names terrain {name}, which the battlefield does not have").format(
                                id=lid, name=repr(value)
                            )
                            + hint,
                            (*where, "terrain"),
                            fixes=fixes,
                        )
                    )
                    continue
                landmark.terrain = value
            else:
                if not isinstance(value, str):
                    continue
                if value not in battlefield.corps:
                    hint, fixes = suggested(value, list(battlefield.corps), self.doc, (*where, "corps"))
                    self.findings.append(
                        self.doc.finding(
                            "MC004",
                            _("landmark {id} names corps {name}, which the battlefield does not have").format(
                                id=lid, name=repr(value)
                            )
                            + hint,
                            (*where, "corps"),
                            fixes=fixes,
                        )
                    )
                    continue
                landmark.corps = value
            if lid not in battlefield.landmarks:
                battlefield.landmarks[lid] = landmark


def build_battlefield(doc: Document, rules: RuleSettings | None = None) -> Setup:
    """The battlefield of a state document (None when its field cannot be read).

    ``rules``: the options to play under (default: the state's own, see
    :func:`movecheck.systems.resolve_rules`).
    """
    builder = _Builder(doc)
    data = doc.data if isinstance(doc.data, dict) else {}
    if rules is None:

        rules = resolve_rules(system("maneuver"), data)
    options = builder.options(rules.options)
    raw_field = data.get("field")
    width = depth = None
    if isinstance(raw_field, dict):
        width = builder.number(raw_field.get("width"), ("field", "width"), "field.width", positive=True)
        depth = builder.number(raw_field.get("depth"), ("field", "depth"), "field.depth", positive=True)
    battlefield = Battlefield(width or 0.0, depth or 0.0, options)
    builder.terrain(data.get("terrain"), battlefield)
    builder.sides(data.get("sides"), battlefield)
    builder.landmarks(data.get("landmarks"), battlefield)
    if width is None or depth is None:
        return Setup(None, builder.findings)
    return Setup(battlefield, builder.findings)


def _show(value: Any) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
    return repr(value)
