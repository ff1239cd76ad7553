"""Difficult terrain, its dice, impassable terrain and the field edge (M7, M8)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, cast

from movecheck.clauses import Violation
from movecheck.i18n import _, ngettext
from movecheck.maneuver.checks import EVERY, FREE, mv_clause
from movecheck.maneuver.checks.ends import ends_judged, undecided
from movecheck.maneuver.checks.words import condition
from movecheck.maneuver.model import fmt, fmt_xy

if TYPE_CHECKING:
    from movecheck.maneuver.checks import Analysis
    from movecheck.maneuver.free import FreeAnalysis


@mv_clause(
    "MV302", "roll-out-of-range", "error", "a declared roll is outside its die's range", ("M7",), orders=EVERY,
    example=("a roll of 7 declared for a stream, whose die is 1d6",
             "a roll from 1 to 6"),
)
def roll_out_of_range(a: Analysis) -> Iterator[Violation]:
    """A declared penalty roll is a possible result of the terrain's die
    (``dice`` and ``penalties`` options: stream and ploughed field D1, rice
    paddy and hill D2, forest D3 = 1d6, 2d6, 3d6 by default).  The rest of the
    order is checked with the roll taken at the nearest bound.  A roll that is
    not owed at all is MV303 instead.
    """
    for roll in a.rolls:
        _why, feature = _owed(a, roll)
        if feature is not None and roll.value not in feature.dice:
            yield Violation(
                _("{base}'s roll {roll} for {terrain} is outside the range of {die} ({dice}: {low}..{high})").format(
                    base=roll.base_id, roll=roll.value, terrain=feature.terrain.label, die=feature.die_name,
                    dice=feature.dice, low=feature.dice.low, high=feature.dice.high),
                roll.where,
            )


@mv_clause(
    "MV303", "roll-not-allowed", "error",
    "a roll declared for a base that is not a front base entering difficult terrain",
    ("M8",), orders=EVERY,
    example=("a roll declared for a base that follows another into the wood",
             "the roll declared for the file's front base"),
)
def roll_not_allowed(a: Analysis) -> Iterator[Violation]:
    """Only front bases roll, once for each difficult feature they enter
    (M8); bases following a front base slow down with it.  A roll declared
    for a base this order does not move, for a following base, for terrain the
    base does not enter (in a corps order: terrain that no combination of rolls
    lets it reach, its allowance spent by earlier penalties), or for terrain
    without a penalty is this error.  A
    plain ``base: value`` roll is for the first feature the base enters;
    ``base: {terrain: value}`` names the feature.
    """
    for roll in a.rolls:
        why, _feature = _owed(a, roll)
        if why is not None:
            yield Violation(why, roll.where)


def _owed(a: Analysis, roll: Any) -> tuple[str | None, Any]:
    """Why a declared roll is not owed (MV303), or the feature it is for (None, feature).

    (None, None): it names terrain the battlefield does not have (reported when
    the names are resolved).
    """
    base_id = roll.base_id
    if base_id not in a.moving:
        return _("a roll for {base}, which this order does not move").format(base=base_id), None
    if base_id in a.followers:
        return _("{base} is not a front base: it follows {front} and slows down with it; only front bases "
                 "roll").format(base=base_id, front=a.followers[base_id]), None
    entered = a.entered_by.get(base_id, [])
    if roll.terrain_id is None:
        if not entered:
            return _("{base} enters no difficult terrain on this move: no roll is owed").format(base=base_id), None
        return None, entered[0]
    terrain = roll.terrain
    if terrain is None:
        return None, None
    if not roll.penalty:
        return _("{terrain} costs no penalty roll").format(terrain=terrain.label), None
    matches = [f for f in entered if f.terrain.id == roll.terrain_id]
    if not matches:
        for feature, most in a.short_of.get(base_id, []):
            if feature.terrain.id == roll.terrain_id:
                return _("{base} never reaches {terrain}, {distance} steps ahead: the penalties before it leave an "
                         "allowance of at most {most}; no roll is owed for it").format(
                    base=base_id, terrain=terrain.label, distance=fmt(feature.e), most=fmt(most)), None
        return _("{base} does not enter {terrain} on this move: no roll is owed for it").format(
            base=base_id, terrain=terrain.label), None
    return None, matches[0]


@mv_clause(
    "MV304", "roll-needed", "warning",
    "the verdict depends on a roll not declared (the condition is stated)",
    ("M7", "M8"), orders=EVERY,
    example=("All ahead into a wood with the front base's roll not declared, legal only for low rolls",
             "the roll declared, or ends that are right whatever the roll"),
)
def roll_needed(a: Analysis) -> Iterator[Violation]:
    """When a front base enters difficult terrain and its roll is not declared,
    the checker reasons over the die's exact distribution.  Legal for every
    roll: no finding.  Illegal for every roll: MV101 (free moves) or MV202
    (corps orders) with the roll range.  Otherwise this warning states the
    condition and its probability, e.g. "legal only if the D3 roll (3d6) for
    r9 entering wood1 is 7 or less (16%)".  For a corps order, silent like
    MV202 when the order cannot be carried out as declared at all (MV201,
    MV203, or MV502 for an engaged corps).
    """
    from movecheck.maneuver.dice import describe_probability

    if a.kind == "free":
        for branches, legal in doubts(a):
            text, p = condition(branches, legal)
            yield Violation(
                _(
                    "{base}'s move of {length} steps is legal only if {condition} ({probability}); declare the roll"
                ).format(
                    base=a.base.id, length=fmt(a.motion.length), condition=text, probability=describe_probability(p)
                ),
                a.end_where,
            )
        return
    declared = a.order.end
    for group, (branches, legal) in zip(undecided(a), doubts(a), strict=False):  # none when the ends are not judged
        items = group.branches.outcomes
        text, p = condition(branches, legal)
        names = ", ".join(b.id for b in group.bases)
        front = group.files[0].front.id
        where = declared[front].where if front in declared else (*a.order.where, "end")
        spans = []
        for file in group.files:
            ds = sorted({round(br.result[file.index].distance, 9) for br in items})
            if len(ds) > 1:
                near, far = a.expected(file.front, ds[0]), a.expected(file.front, ds[-1])
                spans.append(_("{base} ends between {near} and {far}").format(
                    base=file.front.id, near=fmt_xy(near), far=fmt_xy(far)))
        if spans:
            message = ngettext(
                "{names}'s declared end is right only if {condition} ({probability}); depending on the roll "
                "{spans}; declare the roll",
                "the declared ends of {names} are right only if {condition} ({probability}); depending on the roll "
                "{spans}; declare the roll", len(group.bases))
        else:
            message = ngettext(
                "{names}'s declared end is right only if {condition} ({probability}); declare the roll",
                "the declared ends of {names} are right only if {condition} ({probability}); declare the roll",
                len(group.bases))
        yield Violation(message.format(names=names, condition=text, probability=describe_probability(p),
                                       spans=", ".join(spans)), where)


def doubts(a: Analysis) -> list[tuple[Any, Callable[[Any], bool]]]:
    """MV304: the roll combinations an order's verdict depends on, each with the test of those it is right for.

    A free move: its combinations when its path fits the allowance of some only
    (for none it is MV101).  A corps order whose ends are judged base by base: each
    group of files whose declared ends match some combinations only.  The engine
    keeps them: the battlefield after the order assumes such a roll.
    """
    if a.kind == "free":
        fits = [a.legal_length(b) for b in a.branches.items]
        return [(a.branches, a.legal_length)] if any(fits) and not all(fits) else []
    if not ends_judged(a):
        return []
    return [(group.branches, _matcher(group)) for group in undecided(a)]


def _matcher(group: Any) -> Callable[[Any], bool]:
    """The test of the roll combinations a group's declared ends match (:meth:`Group.match`)."""
    return cast(Callable[[Any], bool], group.match)


@mv_clause(
    "MV403", "impassable", "error", "a base enters impassable terrain or leaves the field", (), orders=FREE,
    example=("a free move's path crosses a lake (impassable terrain)",
             "it goes round the lake"),
)
def impassable(a: FreeAnalysis) -> Iterator[Violation]:
    """No base enters impassable terrain (lakes, buildings: an assumption
    beyond the seed) or leaves the field, at any moment of its move.  Sliding
    along the edge is allowed; an overlap of up to ``tolerance`` is taken as
    touching.  (Corps orders stop at impassable terrain and at the field edge:
    see MV202.)
    """
    events = a.events
    for terrain, segment in events.impassable:
        yield Violation(
            _("{base} enters impassable terrain {terrain} on its way").format(base=a.base.id, terrain=terrain.id),
            a.path_at(segment),
        )
    if events.leaves_field is not None:
        field = f"0..{fmt(a.field_size[0], whole=True)} × 0..{fmt(a.field_size[1], whole=True)}"
        yield Violation(_("{base} leaves the field ({field}) on its way").format(base=a.base.id, field=field),
                        a.path_at(events.leaves_field))
