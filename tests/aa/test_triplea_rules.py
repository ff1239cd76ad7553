"""``movecheck import triplea``: the game's rules — whose turn, its settings as map options, its edition."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from movecheck.core import Settings, check
from .test_triplea import SMALL


# -- the map's options: after the edition, under the state ------------------------------------

def _verdict(tmp_path: Path, map_options: dict | None, state_options: dict | None) -> list[str]:
    game = {**SMALL, "movecheck": 1, "system": "aa", "kind": "map"}
    if map_options is not None:
        game["options"] = map_options
    (tmp_path / "map.yaml").write_text(yaml.safe_dump(game, sort_keys=False), encoding="utf-8")
    state = {"movecheck": 1, "system": "aa", "map": "map.yaml", "turn": {"round": 1, "power": "Reds", "phase": "noncombat_move"}}
    if state_options is not None:
        state["options"] = state_options
    (tmp_path / "state.yaml").write_text(yaml.safe_dump(state), encoding="utf-8")
    orders = {"movecheck": 1, "system": "aa", "power": "Reds", "phase": "noncombat_move",
              "moves": [{"units": {"tank": 1}, "path": ["Redland", "Swampland"]}]}
    (tmp_path / "orders.yaml").write_text(yaml.safe_dump(orders), encoding="utf-8")
    report, _ = check([str(tmp_path / "orders.yaml")], Settings(state=str(tmp_path / "state.yaml")))
    return sorted({f.code for f in report.sorted_findings() if f.severity.name == "ERROR"})


@pytest.mark.parametrize(("map_options", "state_options", "codes"), [
    (None, None, ["AA106"]),                                             # the edition closes neutrals
    ({"neutrals_impassable": False}, None, []),                           # the map's game opens them
    ({"neutrals_impassable": False}, {"neutrals_impassable": True}, ["AA106"]),  # the state has the last word
], ids=["edition", "map", "state-over-map"])
def test_a_maps_options_apply_after_the_edition_and_before_the_state(tmp_path: Path, map_options, state_options, codes) -> None:
    assert _verdict(tmp_path, map_options, state_options) == codes


def test_a_map_with_an_unknown_option_is_refused(tmp_path: Path) -> None:
    assert "MC003" in {f.code for f in _lint_map(tmp_path, {"neutrals_are_impassable": False})}


def _lint_map(tmp_path: Path, options: dict) -> list:
    from movecheck.core import lint

    game = {**SMALL, "movecheck": 1, "system": "aa", "kind": "map", "options": options}
    (tmp_path / "map.yaml").write_text(yaml.safe_dump(game, sort_keys=False), encoding="utf-8")
    report = lint([str(tmp_path / "map.yaml")], Settings())
    return report.sorted_findings()
