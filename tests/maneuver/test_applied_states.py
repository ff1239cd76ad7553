"""Property (issue 23): the state ``apply`` writes after a legal manoeuvre turn lints clean.

On the example battlefields, a turn of up to three random orders (free moves, some of
them ending within the tolerance of a base they touch, and corps orders with the ends
and rolls the rules require), each kept only when it is legal: ``apply`` writes a state
with no lint error (no MV601 overlap, no MV604 base outside the field), and that state
checks legal with no orders.  ``MOVECHECK_HYPOTHESIS=long`` runs many more turns.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from movecheck.cli import main
from tests.harness import yaml_data
from tests.maneuver.helpers import dump, run_check
from tests.properties import in_two_runs

ROOT = Path(__file__).resolve().parents[2]
FIELDS = {name: (ROOT / "examples" / "maneuver" / name).read_text(encoding="utf-8")
          for name in ("battlefield.yaml", "engaged-battlefield.yaml")}
LONG = os.environ.get("MOVECHECK_HYPOTHESIS", "").strip() == "long"
ROLL = re.compile(r"the (D\d) roll \((\d+)d(\d+)\) for (\S+) entering (\S+)")
ASKED = re.compile(r"(\S+): \{(\S+): <D\d roll, (\d+)d(\d+)>\}")


def bases_of(doc: dict, side: str | None = None) -> list[dict]:
    found = []
    for name, members in doc["sides"].items():
        for corps in members:
            width, depth = corps.get("base", [4, 2])
            for b in corps["bases"]:
                if side is None or name == side:
                    found.append(
                        {"corps": corps["id"], "width": b.get("width", width), "depth": b.get("depth", depth), **b}
                    )
    return found


def orders_doc(items: list[dict]) -> dict:
    return {"movecheck": 1, "system": "maneuver", "state": "state.yaml", "side": "red", "orders": items}


def legal(found: list, order: int) -> bool:
    return not any(f.order == order and f.severity.value in ("error", "warning") for f in found)


def draw_rolls(data, text: str, pattern: re.Pattern) -> dict:
    rolls: dict = {}
    for match in pattern.finditer(text):
        if pattern is ROLL:
            _die, count, sides, base, terrain = match.groups()
        else:
            base, terrain, count, sides = match.groups()
        count, sides = int(count), int(sides)
        rolls.setdefault(base, {})[terrain] = data.draw(st.integers(count, count * sides), label="roll")
    return rolls


def free_order(data, doc: dict, mover: dict, how: str) -> dict:
    """A free move: anywhere within reach, straight back, or up against a base nearby (a little off, as by hand)."""
    facing = mover.get("facing", 0)
    if how == "touch":
        near = [
            b
            for b in bases_of(doc)
            if b["id"] != mover["id"] and math.dist((b["x"], b["y"]), (mover["x"], mover["y"])) < 14
        ]
        if near:
            other = data.draw(st.sampled_from(near), label="neighbour")
            side = data.draw(st.sampled_from([0, 90, 180, 270]), label="side")
            facing = (other.get("facing", 0) + data.draw(st.sampled_from([0, 180]), label="turn")) % 360
            across = (other["depth"] if side in (0, 180) else other["width"]) / 2
            own = (mover["depth"] if side in (0, 180) else mover["width"]) / 2
            off = data.draw(st.floats(-0.08, 0.08), label="measured")
            slide = data.draw(st.floats(-2, 2), label="slide")
            bearing = math.radians(other.get("facing", 0) + side)
            ux, uy = math.sin(bearing), math.cos(bearing)
            x = other["x"] + ux * (across + own + off) + uy * slide
            y = other["y"] + uy * (across + own + off) - ux * slide
            return {"order": "free", "base": mover["id"], "path": [[round(x, 3), round(y, 3)]], "facing": facing}
    if how == "back":
        bearing, distance = math.radians(facing + 180), data.draw(st.floats(0.5, 5), label="back")
    else:
        bearing = math.radians(data.draw(st.floats(0, 359), label="bearing"))
        distance = data.draw(st.floats(0, 10), label="distance")
    x, y = mover["x"] + distance * math.sin(bearing), mover["y"] + distance * math.cos(bearing)
    order = {"order": "free", "base": mover["id"], "path": [[round(x, 2), round(y, 2)]]}
    if how == "free" and data.draw(st.booleans(), label="turns"):
        order["facing"] = data.draw(st.sampled_from([0, 20, 45, 90, 180, 270]), label="facing")
    return order


def corps_order(data, doc: dict, corps_id: str) -> dict:
    kind = data.draw(st.sampled_from(["all_ahead", "all_back", "to_landmark"]), label="kind")
    order = {"corps": corps_id, "order": kind}
    if kind == "to_landmark":
        marks = [m["id"] for m in doc.get("landmarks", [])] + [t["id"] for t in doc.get("terrain", [])]
        marks += [c["id"] for c in doc["sides"]["blue"]]
        order["landmark"] = data.draw(st.sampled_from(marks), label="landmark")
    return order


def with_ends(data, tmp: Path, state_text: str, items: list[dict]) -> list[dict] | None:
    """The last (corps) order with the rolls it owes drawn and the ends the rules require (None: none)."""
    for _attempt in range(4):
        _, suggestions, _ = run_check(tmp, state_text, orders_doc(items), suggest=True)
        text = "".join(suggestions)
        asked = draw_rolls(data, text, ASKED)
        if not asked:
            break
        rolls = items[-1].setdefault("rolls", {})
        for base, values in asked.items():
            rolls.setdefault(base, {}).update(values)
    suggested = yaml_data(text) if text else None
    if not isinstance(suggested, list) or "end" not in suggested[-1]:
        return None
    items[-1]["end"] = suggested[-1]["end"]
    return items


def add_order(data, tmp: Path, state_text: str, doc: dict, items: list[dict], used: set[str]) -> list[dict]:
    """The turn with one more order when it is legal (free moves declare the rolls MV304 asks for)."""
    red = {c["id"]: [b["id"] for b in c["bases"]] for c in doc["sides"]["red"]}
    how = data.draw(st.sampled_from(["free", "touch", "back", "corps"]), label="how")
    if how != "corps":
        movers = [b for b in bases_of(doc, "red") if b["id"] not in used]
        if not movers:
            return items
        mover = data.draw(st.sampled_from(movers), label="mover")
        trial = [*items, free_order(data, doc, mover, how)]
        moved = {mover["id"]}
    else:
        free_corps = [c for c, members in red.items() if not used & set(members)]
        if not free_corps:
            return items
        corps_id = data.draw(st.sampled_from(free_corps), label="corps")
        trial = with_ends(data, tmp, state_text, [*items, corps_order(data, doc, corps_id)])
        if trial is None:
            return items
        moved = set(red[corps_id])
    found, _, _ = run_check(tmp, state_text, orders_doc(trial))
    if not legal(found, len(trial)) and trial[-1]["order"] == "free":
        rolls = draw_rolls(data, " ".join(f.message for f in found if f.code == "MV304"), ROLL)
        if rolls:
            trial[-1]["rolls"] = rolls
            found, _, _ = run_check(tmp, state_text, orders_doc(trial))
    if not legal(found, len(trial)):
        return items
    used |= moved
    return trial


def _the_state_apply_writes_after_a_legal_turn_lints_clean(data, tmp_path_factory, capsys):
    name = data.draw(st.sampled_from(sorted(FIELDS)), label="battlefield")
    state_text = FIELDS[name]
    doc = yaml_data(state_text)
    tmp = tmp_path_factory.mktemp("turn")
    items: list[dict] = []
    used: set[str] = set()
    for _k in range(data.draw(st.integers(1, 3), label="orders")):
        items = add_order(data, tmp, state_text, doc, items, used)
    (tmp / "state.yaml").write_text(state_text, encoding="utf-8")
    (tmp / "orders.yaml").write_text(dump(orders_doc(items)), encoding="utf-8")
    after = tmp / "after.yaml"
    code = main(["apply", str(tmp / "orders.yaml"), "-o", str(after), "--isolated"])
    report = capsys.readouterr().out
    assert code == 0, report
    main(["lint", str(after), "--format", "json", "--isolated"])
    lint = yaml_data(capsys.readouterr().out)
    assert [f["message"] for f in lint["findings"] if f["severity"] == "error"] == [], dump(items)
    (tmp / "next.yaml").write_text(dump({**orders_doc([]), "state": "after.yaml"}), encoding="utf-8")
    code = main(["check", str(tmp / "next.yaml"), "--isolated"])
    assert code == 0, capsys.readouterr().out
    capsys.readouterr()


(
    test_the_state_apply_writes_after_a_legal_turn_lints_clean,
    test_the_state_apply_writes_after_a_legal_turn_lints_clean_in_full,
) = in_two_runs(
    settings(
        max_examples=400 if LONG else 25,
        deadline=None,
        derandomize=not LONG,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
    ),
    data=st.data(),
)(_the_state_apply_writes_after_a_legal_turn_lints_clean)
