"""The properties of a state ``movecheck apply`` wrote, against the state and orders it came from
(issue 23, "Done when"): units conserved but for the listed losses and the destroyed aircraft, control
changed only by capture and liberation, and the state checked with no orders."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from movecheck.cli import main
from tests.harness import yaml_data, yaml_text


def _board(path: Path) -> Any:
    from movecheck.aa.prepare import lint_state
    from movecheck.loading import load_file

    _, board, _ = lint_state(load_file(str(path)))
    assert board is not None, path
    return board


def _state_of(orders: Path) -> Path:
    data = yaml_data(orders.read_text())
    return (orders.parent / data["state"]).resolve()


def _counts(board: Any) -> Counter:
    """Units by owner and type; those that may change hands with a territory (factories, AA guns) by type."""
    return Counter(("*" if u.type.is_factory or u.type.is_aa_gun else u.power, u.type.name) for u in board.units)


def _listed_losses(orders: Path, board: Any) -> Counter:
    """The losses a results file lists, by type (a unit named by id counted with its type)."""
    losses: Counter = Counter()
    for result in yaml_data(orders.read_text()).get("results") or []:
        for side in ("attacker_losses", "defender_losses"):
            for name, count in (result.get(side) or {}).items():
                kind = board.map.resolve_type(name) or board.by_id[name].type.name
                losses[kind] += count
    return losses


def conserves_units(orders: Path, out: Path) -> None:
    """Every unit of the state before is in the state after, but for the losses the results list (and the
    cargo of a lost transport), the aircraft the header lists as destroyed; the only new units are the
    carriers the mover bought, placed under its waiting fighters."""
    before, after = _board(_state_of(orders)), _board(out)
    gone, new = _counts(before) - _counts(after), _counts(after) - _counts(before)
    phase = before.phase
    if phase == "combat_move":
        assert not gone and not new, (gone, new)
    elif phase == "battles":
        removed: Counter = Counter()
        for (_, kind), n in gone.items():
            removed[kind] += n
        listed = _listed_losses(orders, before)
        assert not new and not listed - removed, (listed, removed)
        extra = removed - listed
        assert all(before.map.unit_types[k].is_land for k in extra) and (not extra or listed["transport"]), extra
    else:
        header = out.read_text().split("\nmovecheck:")[0].splitlines()
        destroyed = [line for line in header if line.startswith("#   ")]
        assert all(before.map.unit_types[kind].is_air and power == before.power for power, kind in gone), gone
        assert sum(gone.values()) == len(destroyed), (gone, destroyed)
        assert set(new) <= {(before.power, kind) for kind, t in before.map.unit_types.items() if t.is_carrier}, new
        assert sum(new.values()) <= sum(n for k, n in before.purchased.items() if before.map.unit_types[k].is_carrier)


def changes_control_only_by_capture(orders: Path, out: Path) -> None:
    """A territory changes hands only when taken (``captured_this_turn``): from an enemy of the mover, to the mover
    or to the ally that first held it; or when it returns to its first holder with that power's capital."""
    before, after = _board(_state_of(orders)), _board(out)
    changed = {t: (before.control.get(t), after.control.get(t)) for t in set(before.control) | set(after.control)
               if before.control.get(t) != after.control.get(t)}
    if before.phase == "noncombat_move":
        assert not changed, changed
        return
    for space in after.captured - before.captured:
        assert space in changed, space
    for space, (old, new) in sorted(changed.items()):
        first = before.map.control.get(space)
        if space in after.captured:
            assert before.enemy_power(old), (space, old)
            assert new == before.power or (new == first and before.friendly_power(new)), (space, new)
        else:
            assert new == first and before.map.capitals.get(new) in after.captured, (space, old, new)


def takes_what_it_entered(orders: Path, out: Path) -> None:
    """After a combat move, every hostile territory on the land path of a land unit's order (a blitz
    included) is the mover's side's, or a battle of the state."""
    before, after = _board(_state_of(orders)), _board(out)
    data = yaml_data(orders.read_text())
    if before.phase != "combat_move":
        return
    battles = {before.map.resolve(b["at"]) for b in yaml_data(out.read_text()).get("battles") or []}
    for move in data.get("moves") or []:
        units, path = move["units"], [before.map.resolve(s) for s in move["path"]]
        kinds = (
            [before.map.resolve_type(k) for k in units]
            if isinstance(units, dict)
            else [before.by_id[i].type.name for i in units]
        )
        if before.is_sea(path[0]) or not any(before.map.unit_types[k].is_land for k in kinds):
            continue
        for space in path[1:]:
            if before.is_sea(space):
                break
            if before.hostile_territory(space) and space not in battles:
                assert after.friendly_territory(space) and space in after.captured, (space, move)


NEEDS = {"battles": {"AA504"}, "noncombat_move": {"AA303", "AA304", "AA305"}}
"""The errors a file for a state with no orders may have: a result for each battle, aircraft to land."""


def checks_with_no_orders(capsys, out: Path) -> None:
    """``check`` of the state with an empty orders file runs every clause: legal for a combat move; for battle
    results and a noncombat move the only errors are what the next file must do (each battle its result,
    each aircraft in the air a landing)."""
    data = yaml_data(out.read_text())
    phase = data["turn"]["phase"]
    if phase == "mobilize":
        return  # (no mobilization files yet: issue 25, part B)
    key = {"battles": "results", "purchase": "purchase"}.get(phase, "moves")
    empty = {"movecheck": 1, "system": "aa", "state": str(out), "power": data["turn"]["power"], "phase": phase,
             key: {} if phase == "purchase" else []}
    path = out.with_name("empty-orders.yaml")
    path.write_text(yaml_text(empty))
    main(["check", str(path), "--format", "json", "--root", "/", "--isolated"])
    report = json.loads(capsys.readouterr().out)
    errors = {f["code"] for f in report["findings"] if f["severity"] == "error"}
    assert errors <= NEEDS.get(phase, set()), report["findings"]
    assert report["files"][0]["unchecked"] == 0 and all(f["file"] == str(path) for f in report["findings"]), report
