"""Dice from hash chains, end to end (aa-battle.md, "Dice anyone can verify"): ``movecheck dice new`` and
``dice roll``, and ``dice_chain:`` in battle results checked by AA521 (and AA519)."""

from __future__ import annotations

import copy
import json
import os
import shutil
import stat
from pathlib import Path
from typing import Any

from movecheck.aa.battle import chain
from movecheck.cli import main
from tests.harness import dump, yaml_data

from .conftest import unit

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "aa" / "dice"


def links(path: Path) -> list[str]:
    return path.read_text(encoding="ascii").split()


def example(tmp_path: Path) -> dict[str, Any]:
    """The example's state and chains copied to ``tmp_path``; the example's results as data."""
    for name in ("battles.yaml", "attacker-chain.txt", "defender-chain.txt"):
        shutil.copy(EXAMPLE / name, tmp_path / name)
    data: dict[str, Any] = yaml_data((EXAMPLE / "results.yaml").read_text(encoding="utf-8"))
    return data


def check(capsys, tmp_path: Path, data: dict[str, Any]) -> tuple[int, list[tuple[str, str]]]:
    path = tmp_path / "results.yaml"
    path.write_text(dump(data), encoding="utf-8")
    code = main(["check", str(path), "--format", "json", "--root", "/", "--isolated"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    return code, [(f["code"], f["message"]) for f in findings]


def codes(found: list[tuple[str, str]]) -> list[str]:
    return [c for c, _m in found]


def roll(capsys, state: Path, results: Path | None, reveal: int, attacker: str, defender: str) -> tuple[int, str, str]:
    args = ["dice", "roll", str(state), *([str(results)] if results else []), "--round", str(reveal),
            "--attacker", attacker, "--defender", defender]
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


# -- the example: a two-battle exchange ------------------------------------------------------------------


def test_the_example_exchange_checks_legal(capsys, tmp_path):
    assert check(capsys, tmp_path, example(tmp_path)) == (0, [])


def test_a_die_changed_is_aa521(capsys, tmp_path):
    data = example(tmp_path)
    data["results"][1]["rounds"][0]["attacker"]["fire"][1] = [5, 3]  # the chain gives 5, 2 (both misses)
    code, found = check(capsys, tmp_path, data)
    assert (code, codes(found)) == (1, ["AA521"])
    assert found[0][1] == "round 1: the attacker's fire die 2 (at 1) is 3, the dice chain gives 2"


def test_a_link_wrong_is_aa521(capsys, tmp_path):
    data = example(tmp_path)
    data["dice_chain"]["defender"][3] = data["dice_chain"]["attacker"][3]
    code, found = check(capsys, tmp_path, data)
    assert code == 1 and set(codes(found)) == {"AA521"}
    assert found[0][1].startswith("the defender's x_3 does not hash to its x_2: SHA-256 of it is ")
    assert any(m.startswith("round 3: ") for _c, m in found)  # the dice of reveal 3 are not the chain's either


def test_the_digest_wrong_is_aa521(capsys, tmp_path):
    data = example(tmp_path)
    data["dice_chain"]["digest"] = "0" * 64
    code, found = check(capsys, tmp_path, data)
    assert (code, codes(found)) == (1, ["AA521"]) and found[0][1].startswith("the digest posted is 0000")


def test_the_state_changed_after_the_digest_was_posted_is_aa521(capsys, tmp_path):
    data = example(tmp_path)
    state = tmp_path / "battles.yaml"
    state.write_text(state.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    code, found = check(capsys, tmp_path, data)
    assert code == 1 and set(codes(found)) == {"AA521"}
    assert found[0][1].startswith("the digest posted is 82c637e9")


def test_a_round_in_a_reveal_not_posted_is_aa521(capsys, tmp_path):
    data = example(tmp_path)
    del data["dice_chain"]["attacker"][3]
    code, found = check(capsys, tmp_path, data)
    assert code == 1 and codes(found) == ["AA521", "AA521"]
    assert found[0][1] == ("round 3 is fought in reveal 3, and the attacker's x_3 is not posted: its dice cannot be "
                           "checked")


def test_a_result_without_rounds_under_a_dice_chain_is_aa519(capsys, tmp_path):
    data = example(tmp_path)
    del data["results"][1]["rounds"]
    code, found = check(capsys, tmp_path, data)
    assert (code, codes(found)) == (1, ["AA519"])


def test_without_dice_chain_the_same_rounds_are_not_judged_against_a_chain(capsys, tmp_path):
    data = example(tmp_path)
    del data["dice_chain"]
    data["results"][1]["rounds"][0]["attacker"]["fire"][1] = [5, 3]
    assert check(capsys, tmp_path, data) == (0, [])


def test_new_chains_after_the_first_runs_out_continue_the_reveals(capsys, tmp_path):
    """Chains of one reveal each: reveal 2 uses the second chains' x_1, reveal 3 the third's (posted as lists)."""
    data = example(tmp_path)
    posted = data["dice_chain"]
    for side in ("attacker", "defender"):
        whole = posted[side]
        posted[side] = [whole[:2], [whole[1], whole[2]], [whole[2], whole[3]]]
    assert check(capsys, tmp_path, data) == (0, [])
    posted["attacker"][1] = posted["attacker"][1][:1] + posted["attacker"][2][1:]
    code, found = check(capsys, tmp_path, data)
    assert code == 1 and "AA521" in codes(found)


# -- movecheck dice roll ----------------------------------------------------------------------------------


def truncated(data: dict[str, Any], reveals: int) -> dict[str, Any]:
    """The results as they stood after ``reveals`` reveals (the example's battles all start in reveal 1)."""
    cut = copy.deepcopy(data)
    for side in ("attacker", "defender"):
        cut["dice_chain"][side] = cut["dice_chain"][side][:reveals + 1]
    for result in cut["results"]:
        result["rounds"] = result["rounds"][:reveals]
        for side in ("attacker", "defender"):
            result.pop(f"{side}_losses", None)
    return cut


def test_dice_roll_replays_the_example_exchange_reveal_by_reveal(capsys, tmp_path):
    data = example(tmp_path)
    state = tmp_path / "battles.yaml"
    a, d = links(tmp_path / "attacker-chain.txt"), links(tmp_path / "defender-chain.txt")
    for k in (1, 2, 3):
        before = tmp_path / f"after-{k - 1}.yaml"
        before.write_text(dump(truncated(data, k - 1)), encoding="utf-8")
        code, out, err = roll(capsys, state, before, k, a[k], d[k])
        assert code == 0, err
        rolled = yaml_data(out)
        assert rolled["digest"] == data["dice_chain"]["digest"] and rolled["reveal"] == k
        for entry in rolled["rounds"]:
            result = next(r for r in data["results"] if r["at"] == entry["at"])
            written = result["rounds"][entry["round"] - 1]
            assert entry["round"] == k
            for side in ("attacker", "defender"):
                assert entry.get(side) == written.get(side), (k, entry["at"], side)
        assert [e["at"] for e in rolled["rounds"]] == ["6 Sea Zone", "Karelia S.S.R."]
    code, out, _err = roll(capsys, state, write(tmp_path, data), 4, a[4], d[4])
    assert code == 0 and yaml_data(out)["rounds"] == []  # both battles are over


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "results.yaml"
    path.write_text(dump(data), encoding="utf-8")
    return path


def test_dice_roll_is_deterministic(capsys, tmp_path):
    example(tmp_path)
    a, d = links(tmp_path / "attacker-chain.txt"), links(tmp_path / "defender-chain.txt")
    first = roll(capsys, tmp_path / "battles.yaml", None, 1, a[1], d[1])
    assert first == roll(capsys, tmp_path / "battles.yaml", None, 1, a[1], d[1])
    assert first[0] == 0 and "the links were not checked" in first[2]


def test_dice_roll_refuses_a_link_that_does_not_hash_to_the_posted_one(capsys, tmp_path):
    data = example(tmp_path)
    a, d = links(tmp_path / "attacker-chain.txt"), links(tmp_path / "defender-chain.txt")
    before = write(tmp_path, truncated(data, 1))
    code, out, err = roll(capsys, tmp_path / "battles.yaml", before, 2, a[2], d[3])
    assert (code, out) == (1, "")
    assert err.startswith("AA521 the defender's x_2 does not hash to the x_1 the results post")
    code, out, err = roll(capsys, tmp_path / "battles.yaml", before, 3, a[3], d[3])
    assert code == 2 and "reveal 3 needs its x_2 posted first" in err
    code, _out, err = roll(capsys, tmp_path / "battles.yaml", before, 2, "xyz", d[2])
    assert code == 2 and "64 hex digits" in err


def raid_and_land(capsys, tmp_path: Path) -> Path:
    from .test_raids import KARELIA, G, R, battles_state, bomber, factory_only

    units = factory_only(unit(KARELIA, R, "infantry"), unit("Finland", G, "infantry", 2))
    battles_state(capsys, tmp_path, units, [{"units": {"infantry": 2}, "path": ["Finland", KARELIA]},
                                           bomber(raid=True)])
    return tmp_path / "battles.yaml"


def test_the_land_battle_follows_the_raid_on_its_territory(capsys, tmp_path):
    """A raid and a land battle in Karelia, rolled from chains and refereed by hand: the raid in reveal 1, the
    land battle's round 1 in reveal 2, and the whole exchange checks legal."""
    state = raid_and_land(capsys, tmp_path)
    a = [x.hex() for x in chain.make_chain(bytes([3]) * 32, 12)]
    d = [x.hex() for x in chain.make_chain(bytes([4]) * 32, 12)]
    data: dict[str, Any] = {"movecheck": 1, "system": "aa", "state": "battles.yaml", "power": "Germans",
                            "phase": "battles", "dice_chain": {"attacker": a[:1], "defender": d[:1]}, "results": []}
    code, out, _err = roll(capsys, state, write(tmp_path, data), 1, a[1], d[1])
    rolled = yaml_data(out)["rounds"]
    assert code == 0 and [(e["kind"], e["round"]) for e in rolled] == [("raid", 1)]
    raid = {key: rolled[0][key] for key in ("attacker", "defender") if key in rolled[0]}
    shot = rolled[0]["defender"]["aa"][1] == [1]
    if shot:
        raid["attacker_losses"] = {"bomber": 1}
    data["results"].append({"at": "Karelia S.S.R.", "kind": "raid", "rounds": [raid],
                            **({"attacker_losses": {"bomber": 1}} if shot else {})})
    land: dict[str, Any] = {"at": "Karelia S.S.R.", "rounds": []}
    data["results"].append(land)
    alive = {"attacker": 2, "defender": 1}
    for k in range(2, 13):
        data["dice_chain"] = {"attacker": a[:k], "defender": d[:k]}
        code, out, _err = roll(capsys, state, write(tmp_path, data), k, a[k], d[k])
        rolled = yaml_data(out)["rounds"]
        assert code == 0 and [(e["kind"], e["round"]) for e in rolled] == [("land", k - 1)]
        entry = {key: rolled[0][key] for key in ("attacker", "defender")}
        hits = {side: sum(1 for value, dice in entry[side]["fire"].items() for x in dice if x <= value)
                for side in alive}
        for side, other in (("attacker", "defender"), ("defender", "attacker")):
            lost = min(hits[other], alive[side])
            if lost:
                entry[f"{side}_losses"] = {"infantry": lost}
        alive = {side: alive[side] - entry.get(f"{side}_losses", {}).get("infantry", 0) for side in alive}
        land["rounds"].append(entry)
        if not alive["attacker"] or not alive["defender"]:
            break
    for side in alive:
        if alive[side] < {"attacker": 2, "defender": 1}[side]:
            land[f"{side}_losses"] = {"infantry": {"attacker": 2, "defender": 1}[side] - alive[side]}
    data["dice_chain"] = {"attacker": a[:k + 1], "defender": d[:k + 1]}
    assert len(land["rounds"]) == k - 1 and not (alive["attacker"] and alive["defender"])
    assert check(capsys, tmp_path, data) == (0, [])
    data["results"].reverse()  # the order of the results does not change the reveals
    assert check(capsys, tmp_path, data) == (0, [])
    data["results"][0]["rounds"][0]["attacker"]["fire"][1][0] = 7 - data["results"][0]["rounds"][0]["attacker"][
        "fire"][1][0]
    assert "AA521" in codes(check(capsys, tmp_path, data)[1])


# -- movecheck dice new -----------------------------------------------------------------------------------


def test_dice_new_writes_a_chain_its_owner_alone_reads_and_prints_its_head(capsys, tmp_path):
    path = tmp_path / "mine.txt"
    assert main(["dice", "new", "--length", "5", "-o", str(path)]) == 0
    head = capsys.readouterr().out.strip()
    written = links(path)
    assert head == written[0] and len(written) == 6
    assert chain.broken_links([bytes.fromhex(x) for x in written]) == []
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert main(["dice", "new", "-o", str(path)]) == 2  # never overwritten by mistake
    assert "a chain is never overwritten" in capsys.readouterr().err and links(path) == written
    assert main(["dice", "new", "--force", "--length", "2", "-o", str(path)]) == 0
    assert len(links(path)) == 3 and links(path)[0] == capsys.readouterr().out.strip()


# -- choices inside a round follow the OOL posted with x_0 (AA517) ---------------------------------------


def planes_over_a_gun(capsys, tmp_path: Path) -> Path:
    from .test_raids import BOMBER_1942, KARELIA, G, R, battles_state

    units = [unit("Germany", G, "fighter"), unit("Germany", G, "bomber"), unit(KARELIA, R, "infantry"),
             unit(KARELIA, R, "aa_gun"), unit("Finland", G, "infantry", 2)]
    battles_state(capsys, tmp_path, units, [{"units": {"infantry": 2}, "path": ["Finland", KARELIA]},
                                           {"units": {"fighter": 1, "bomber": 1}, "path": BOMBER_1942}])
    return tmp_path / "battles.yaml"


def test_aa517_a_plane_shot_down_other_than_the_posted_ool_gives(capsys, tmp_path):
    """1942 second edition: the attacker chooses the plane AA fire takes, before its main fire; under a chain
    the OOL posted with x_0 chooses (here the fighter), and a round whose fire is the bomber's instead is AA517
    although every die is the chain's."""
    state = planes_over_a_gun(capsys, tmp_path)
    digest = chain.state_digest(state.read_bytes())
    for seed in range(100):  # the first pair of chains whose AA fire (2 dice at 1) hits once
        a = [x.hex() for x in chain.make_chain(bytes([seed]) * 32, 1)]
        d = [x.hex() for x in chain.make_chain(bytes([seed + 100]) * 32, 1)]
        aa = chain.step_dice(bytes.fromhex(a[1]), bytes.fromhex(d[1]), digest, "Karelia S.S.R.", "land", 1,
                             "defender", "aa", 2)
        if aa.count(1) == 1:
            break
    ool = {"attacker": ["infantry", "fighter", "bomber"], "defender": ["infantry"]}
    data: dict[str, Any] = {"movecheck": 1, "system": "aa", "state": "battles.yaml", "power": "Germans",
                            "phase": "battles", "dice_chain": {"attacker": a[:1], "defender": d[:1], "ool": ool},
                            "results": []}
    code, out, _err = roll(capsys, state, write(tmp_path, data), 1, a[1], d[1])
    assert code == 0 and "# AA fire takes the attacker's 1 fighter (the posted order of loss)" in out
    entry = yaml_data(out)["rounds"][0]
    assert sorted(entry["attacker"]["fire"]) == [1, 4]  # 2 infantry at 1, the bomber at 4
    rounds = [{"attacker": entry["attacker"], "defender": entry["defender"], "attacker_losses": {"fighter": 1}}]
    data["results"] = [{"at": "Karelia S.S.R.", "rounds": rounds, "attacker_losses": {"fighter": 1}}]
    data["dice_chain"] = {"attacker": a, "defender": d, "ool": ool}
    assert "AA517" not in codes(check(capsys, tmp_path, data)[1])
    dice = [x for value in (1, 4) for x in entry["attacker"]["fire"][value]]
    rounds[0]["attacker"] = {"fire": {1: dice[:2], 3: dice[2:]}}  # the chain's dice, as if the bomber fell
    rounds[0]["attacker_losses"] = {"bomber": 1}
    data["results"][0]["attacker_losses"] = {"bomber": 1}
    found = check(capsys, tmp_path, data)[1]
    assert "AA517" in codes(found) and "AA521" not in codes(found) and "AA513" not in codes(found)
    assert ("AA517", "round 1: AA fire takes the attacker's 1 fighter (the posted order of loss), which leaves the "
            "attacker 2 at 1, 1 at 4 in its fire step; the round rolls 2 at 1, 1 at 3") in found


# -- bad input: one line and exit 2, or findings; never a traceback --------------------------------------


def test_dice_roll_on_bad_inputs_says_one_line(capsys, tmp_path):
    data = example(tmp_path)
    x = "1" * 64
    state = tmp_path / "battles.yaml"
    other = tmp_path / "other.yaml"
    other.write_text(state.read_text(encoding="utf-8"), encoding="utf-8")
    for args, said in (
        ([str(tmp_path / "none.yaml")], "no such file"),
        ([str(EXAMPLE.parents[1] / "aa" / "states" / "g1-purchase.yaml")], "not a battles state"),
        ([str(other), str(write(tmp_path, data))], "the results are for the state battles.yaml"),
        ([str(state), str(EXAMPLE.parents[1] / "aa" / "states" / "g1-battles.yaml")], "not aa battle results"),
    ):
        assert main(["dice", "roll", *args, "--attacker", x, "--defender", x]) == 2
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    data["dice_chain"]["attacker"][0] = "zz"
    assert main(["dice", "roll", str(state), str(write(tmp_path, data)), "--attacker", x, "--defender", x]) == 2
    assert "the attacker's x_0 in the results is not 64 hex digits" in capsys.readouterr().err


def test_a_malformed_dice_chain_is_reported_not_crashed_on(capsys, tmp_path):
    data = example(tmp_path)
    data["dice_chain"] = {"attacker": [123, "zz"], "defender": [[1, 2]], "digest": 5}
    data["results"][0]["rounds"][0]["attacker"]["fire"] = {2: ["x", 9], "?": None}
    code, found = check(capsys, tmp_path, data)
    assert code == 1 and {"MC003", "AA521"} <= set(codes(found))
    assert ("AA521", "the attacker's x_1 is not 64 hex digits") in found


def test_a_submerge_chosen_before_a_round_is_read_from_the_round_written_with_it_alone(capsys, tmp_path):
    """1942 second edition: a side posts its submerge before the round's reveal, as a round that gives only
    ``submerged:``; the round rolled then owes no dice of the submerged submarines."""
    state = EXAMPLE.parents[1] / "aa" / "states" / "g1-battles.yaml"
    first = {"attacker": {"sub_strike": {2: [5, 6, 4, 3]}, "fire": {3: [6, 5]}}, "defender": {"fire": {4: [6]}}}
    data: dict[str, Any] = {"movecheck": 1, "system": "aa", "state": str(state), "power": "Germans",
                            "phase": "battles", "results": [{"at": "7 Sea Zone", "rounds": [first]}]}
    x, y = "1" * 64, "2" * 64

    def seven(results: dict[str, Any]) -> dict[str, Any]:
        code, out, _err = roll(capsys, state, write(tmp_path, results), 2, x, y)
        assert code == 0
        entry: dict[str, Any] = next(e for e in yaml_data(out)["rounds"] if e["at"] == "7 Sea Zone")
        return entry

    fought = seven(data)
    assert fought["round"] == 2 and sorted(fought["attacker"]) == ["fire", "sub_strike"]
    data["results"][0]["rounds"].append({"submerged": {"attacker": 4}})
    submerged = seven(data)
    assert submerged["round"] == 2 and sorted(submerged["attacker"]) == ["fire"]
    assert len(submerged["attacker"]["fire"][3]) == 2 and submerged["defender"] == fought["defender"]


def test_the_example_readme_shows_what_dice_roll_prints(capsys, tmp_path):
    example(tmp_path)
    readme = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    shown = readme.split("```yaml\n", 1)[1].split("```", 1)[0]
    a, d = links(tmp_path / "attacker-chain.txt"), links(tmp_path / "defender-chain.txt")
    assert f"--attacker {a[1]}" in readme and f"--defender {d[1]}" in readme
    code, out, _err = roll(capsys, tmp_path / "battles.yaml", None, 1, a[1], d[1])
    assert code == 0 and out == shown


# -- an amphibious landing follows the sea battle of its zone --------------------------------------------

G1_BATTLES = EXAMPLE.parents[1] / "aa" / "states" / "g1-battles.yaml"
ESCORT = {"at": "17 Sea Zone", "rounds": [{"attacker": {"fire": {4: [2]}}, "defender": {"fire": {2: [1]}},
                                             "damaged": {"battleship": 1}, "defender_losses": {"destroyer": 1}}],
          "defender_losses": {"destroyer": 1}, "damaged": {"battleship": 1}}


def test_dice_roll_rolls_a_landing_in_the_reveal_after_its_sea_battle_ended(capsys, tmp_path):
    data: dict[str, Any] = {"movecheck": 1, "system": "aa", "state": str(G1_BATTLES), "power": "Germans",
                            "phase": "battles", "results": []}
    x, y = "1" * 64, "2" * 64
    code, out, _err = roll(capsys, G1_BATTLES, write(tmp_path, data), 1, x, y)
    first = [e["at"] for e in yaml_data(out)["rounds"]]
    assert code == 0 and "Egypt" not in first and "17 Sea Zone" in first
    data["results"] = [ESCORT]
    code, out, err = roll(capsys, G1_BATTLES, write(tmp_path, data), 2, x, y)
    rounds = yaml_data(out)["rounds"]
    assert code == 0 and [(e["at"], e["round"]) for e in rounds] == [("Egypt", 1)]
    assert "Belorussia (land): round 1 was fought in reveal 1, and the results do not give it" in err


def test_aa521_a_landing_whose_sea_battle_gives_no_rounds_cannot_be_placed(capsys, tmp_path):
    from .test_battles import LEGAL, results_file

    results = copy.deepcopy(LEGAL)
    egypt = next(r for r in results if r["at"] == "Egypt")
    egypt["rounds"] = [{"attacker": {"fire": {1: [1], 2: [1, 1], 3: [1]}}, "defender": {"fire": {2: [6, 6],
                                                                                          3: [6], 4: [6]}}}]
    x = "1" * 64
    path = results_file(tmp_path, results, dice_chain={"attacker": [x], "defender": [x]})
    code = main(["check", str(path), "--format", "json", "--root", "/", "--isolated"])
    found = [(f["code"], f["message"]) for f in json.loads(capsys.readouterr().out)["findings"]]
    without = [m for c, m in found if c == "AA519" and "this result gives no rounds" in m]
    assert code == 1 and len(without) == 5  # the five results without rounds
    assert ("AA521", "the battle's reveals cannot be placed: a battle it follows (the raid on its territory or the sea "
            "battle its landing comes from) gives no rounds") in found


def revised_planes_over_a_gun(capsys, tmp_path: Path) -> Path:
    """Revised: the AA gun is infrastructure, not a defender of the battle, and fires at the planes."""
    from .test_raids import BOMBER_REVISED, KARELIA, G, R, battles_state

    units = [unit("Germany", G, "fighter"), unit("Germany", G, "bomber"), unit(KARELIA, R, "infantry"),
             unit(KARELIA, R, "aa_gun"), unit("Norway", G, "infantry", 2)]
    battles_state(capsys, tmp_path, units, [{"units": {"infantry": 2}, "path": ["Norway", KARELIA]},
                                           {"units": {"fighter": 1, "bomber": 1}, "path": BOMBER_REVISED}],
                  rules="revised")
    return tmp_path / "battles.yaml"


def test_revised_aa_fire_of_an_infrastructure_gun_is_owed_in_a_land_battle(capsys, tmp_path):
    """Before: the replay counted no AA gun (it is left out of the battle's defenders), so the AA dice the rules
    give were AA513 and a round without them was legal."""
    revised_planes_over_a_gun(capsys, tmp_path)
    rounds = [{"defender": {"aa": {"fighter": [4], "bomber": [5]}, "fire": {2: [6]}},
               "attacker": {"fire": {1: [1, 1], 3: [6], 4: [6]}}, "defender_losses": {"infantry": 1}}]
    data: dict[str, Any] = {"movecheck": 1, "system": "aa", "state": "battles.yaml", "power": "Germans",
                            "phase": "battles", "results": [{"at": "Karelia S.S.R.", "rounds": rounds,
                                                             "defender_losses": {"infantry": 1}}]}
    assert check(capsys, tmp_path, data) == (0, [])
    del rounds[0]["defender"]["aa"]
    code, found = check(capsys, tmp_path, data)
    assert (code, found) == (1, [("AA513", "round 1: the defender owes 1 at bomber, 1 at fighter in its aa step, "
                                           "none were rolled")])


def test_revised_aa_dice_go_one_per_plane_and_a_hit_takes_that_plane_before_the_fire(capsys, tmp_path):
    state = revised_planes_over_a_gun(capsys, tmp_path)
    seen = set()
    for seed in range(60):
        x, y = bytes([seed]).hex() * 32, bytes([seed + 60]).hex() * 32
        code, out, _err = roll(capsys, state, None, 1, x, y)
        entry = yaml_data(out)["rounds"][0]
        aa = entry["defender"]["aa"]
        assert code == 0 and sorted(aa) == ["bomber", "fighter"] and all(len(d) == 1 for d in aa.values())
        shot = {plane for plane, dice in aa.items() if dice == [1]}
        fire = set(entry["attacker"]["fire"])
        assert (3 in fire) == ("fighter" not in shot) and (4 in fire) == ("bomber" not in shot)
        seen.add(frozenset(shot))
        if len(seen) >= 2:
            break
    assert len(seen) >= 2  # a plane shot down was seen, and none shot down
