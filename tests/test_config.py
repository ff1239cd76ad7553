"""Configuration files: discovery, precedence, selection, per-file ignores, and bad configs as findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from movecheck.selection import Layer, Selection, glob_matches, split_selectors

# A move that is legal only when the option combat_move_must_attack is off (AA203 otherwise).
MUST_ATTACK_OFF = "aa:\n  options: {combat_move_must_attack: false}\n"


def codes(out: str) -> list[str]:
    return [f["code"] for f in json.loads(out)["findings"]]


@pytest.fixture
def project(tmp_path: Path, aa, write) -> Path:
    """``state.yaml`` at the top, the illegal orders (AA203) in ``orders/g1.yaml``."""
    write(tmp_path, "state.yaml", aa.state)
    write(tmp_path, "orders/g1.yaml", aa.illegal.replace("state: state.yaml", "state: ../state.yaml"))
    return tmp_path


# -- selection -------------------------------------------------------------------------------


def test_selectors_are_split_and_upper_cased() -> None:
    assert split_selectors(["aa2,MC005", " mc ", "AA2"]) == ["AA2", "MC005", "MC"]


def test_the_most_specific_selector_wins() -> None:
    layer = Layer(select=("AA", "AA201"), ignore=("AA2",))
    assert [layer.apply(c, True) for c in ("AA101", "AA201", "AA203", "MC004")] == [True, True, False, False]
    assert Layer(None, ("MC00",)).apply("MC005", True) is False
    assert Layer(("ALL",), ("MC",)).apply("AA101", False) is True


def test_a_later_select_starts_afresh() -> None:
    selection = Selection([Layer(None, ("MC005",)), Layer(("MC",), ())])
    assert selection.enabled("MC005") and not selection.enabled("AA101")
    selection = Selection([Layer(("AA",), ()), Layer(None, ("AA2",))])
    assert selection.enabled("AA101") and not selection.enabled("AA201") and not selection.enabled("MC001")


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("orders/*.yaml", "orders/g1.yaml", True),
        ("orders/*.yaml", "other/g1.yaml", False),
        ("g1.yaml", "orders/g1.yaml", True),
        ("**/g1.yaml", "g1.yaml", True),
        ("**/g1.yaml", "a/b/g1.yaml", True),
        ("orders/", "orders/deep/x.yaml", True),
        ("./orders/*", "orders/x.yaml", True),
    ],
)
def test_per_file_globs(pattern: str, path: str, matches: bool) -> None:
    assert glob_matches(pattern, path) is matches


def test_select_and_ignore_on_the_command_line(run_main, project) -> None:
    code, out, _ = run_main(["check", "orders/g1.yaml", "--ignore", "AA2", "-f", "json"], cwd=project)
    assert (code, codes(out)) == (0, [])
    assert json.loads(out)["summary"]["illegal_orders"] == 0
    code, out, _ = run_main(["check", "orders/g1.yaml", "--select", "MC,AA1", "-f", "json"], cwd=project)
    assert (code, codes(out)) == (0, [])
    code, out, _ = run_main(
        ["check", "orders/g1.yaml", "--select", "AA2", "--ignore", "MC005", "-f", "json"], cwd=project
    )
    assert (code, codes(out)) == (1, ["AA203"])


def test_unknown_selector_on_the_command_line_is_a_usage_error(run_main, project) -> None:
    code, out, err = run_main(["check", "orders/g1.yaml", "--select", "AA2O1"], cwd=project)  # letter O
    assert (code, out) == (2, "")
    assert err == ("movecheck: error: --select: unknown rule code or prefix 'AA2O1'; "
                   "did you mean AA201 or AA521 or AA2?\n")
    code, _, err = run_main(["lint", "state.yaml", "--ignore", "ZZ1"], cwd=project)
    assert code == 2 and err.startswith("movecheck: error: --ignore: unknown rule code or prefix 'ZZ1'")


# -- discovery -------------------------------------------------------------------------------


def test_config_found_upwards_from_the_file(run_main, project, write) -> None:
    write(project, ".movecheck.yaml", "ignore: [AA203]\n")
    code, out, _ = run_main(["check", "orders/g1.yaml"], cwd=project)
    assert code == 0 and ": AA203 [" not in out  # no finding; the report names the ignore
    assert "orders/g1.yaml: .movecheck.yaml ignores AA203" in out.splitlines()
    # the file's folder counts, not the current one
    code, out, _ = run_main(["check", str(project / "orders" / "g1.yaml")], cwd=project.parent)
    assert code == 0


def test_nearest_config_wins_and_configs_do_not_merge(run_main, project, write) -> None:
    write(project, ".movecheck.yaml", "ignore: [AA203]\nformat: json\n")
    write(project, "orders/.movecheck.yaml", "ignore: [MC005]\n")
    code, out, _ = run_main(["check", "orders/g1.yaml", "-f", "json"], cwd=project)
    assert (code, codes(out)) == (1, ["AA203"])


def test_pyproject_table_is_a_config(run_main, project, write) -> None:
    write(project, "pyproject.toml", '[project]\nname = "club"\n\n[tool.movecheck]\nignore = ["AA2"]\n')
    code, _, _ = run_main(["check", "orders/g1.yaml"], cwd=project)
    assert code == 0


def test_pyproject_without_our_table_is_passed_over(run_main, project, write) -> None:
    write(project, ".movecheck.yaml", "ignore: [AA2]\n")
    write(project, "orders/pyproject.toml", '[project]\nname = "x"\n')
    write(project, "orders/broken/pyproject.toml", "[project\n")  # someone else's broken file: not ours
    write(project, "orders/broken/g1.yaml", (project / "orders" / "g1.yaml").read_text().replace("../", "../../"))
    code, out, _ = run_main(["check", "orders/g1.yaml", "orders/broken/g1.yaml"], cwd=project)
    assert code == 0, out
    assert "pyproject" not in out


def test_movecheck_yaml_beats_pyproject_in_the_same_folder(run_main, project, write) -> None:
    write(project, ".movecheck.yaml", "ignore: [AA2]\n")
    write(project, "pyproject.toml", "[tool.movecheck]\nselect = ['MC']\nignore = []\nformat = 'json'\n")
    code, out, _ = run_main(["check", "orders/g1.yaml"], cwd=project)
    assert code == 0 and not out.startswith("{")


def test_explicit_config(run_main, project, write, tmp_path_factory) -> None:
    elsewhere = tmp_path_factory.mktemp("configs")
    write(elsewhere, "club.yaml", "ignore: [AA203]\n")
    write(project, ".movecheck.yaml", "select: [AA203]\n")  # not used: --config names another
    code, out, _ = run_main(["check", "orders/g1.yaml", "--config", str(elsewhere / "club.yaml")], cwd=project)
    assert code == 0, out
    write(elsewhere, "pyproject.toml", "[tool.movecheck]\nignore = ['AA203']\n")
    code, _, _ = run_main(["check", "orders/g1.yaml", "--config", str(elsewhere / "pyproject.toml")], cwd=project)
    assert code == 0


def test_config_that_cannot_be_read_is_exit_2(run_main, project) -> None:
    code, out, err = run_main(["check", "orders/g1.yaml", "--config", "missing.yaml"], cwd=project)
    assert (code, out) == (2, "")
    assert err == "movecheck: error: --config missing.yaml: no such file\n"
    code, _, err = run_main(["check", "orders/g1.yaml", "--config", "orders"], cwd=project)
    assert code == 2 and err.startswith("movecheck: error: --config orders: is a directory")


def test_stdin_uses_the_config_of_its_stdin_filename(run_main, project, write, aa) -> None:
    write(project, "orders/.movecheck.yaml", "ignore: [AA203]\n")
    text = (project / "orders" / "g1.yaml").read_text()
    code, _, _ = run_main(
        ["check", "-", "--stdin-filename", "orders/g1.yaml", "--state", "state.yaml"], stdin=text, cwd=project
    )
    assert code == 0
    code, _, _ = run_main(["check", "-", "--state", "state.yaml"], stdin=text, cwd=project)
    assert code == 1


# -- precedence ------------------------------------------------------------------------------


def test_command_line_selection_beats_the_file(run_main, project, write) -> None:
    write(project, ".movecheck.yaml", "ignore: [AA203]\n")
    code, out, _ = run_main(["check", "orders/g1.yaml", "--select", "AA", "-f", "json"], cwd=project)
    assert (code, codes(out)) == (1, ["AA203"])


def test_format_precedence(run_main, project, write) -> None:
    write(project, ".movecheck.yaml", "format: json-lines\n")
    _, out, _ = run_main(["check", "orders/g1.yaml"], cwd=project)
    assert json.loads(out.splitlines()[0])["code"] == "AA203"
    _, out, _ = run_main(["check", "orders/g1.yaml"], cwd=project, env={"MOVECHECK_FORMAT": "github"})
    assert out.startswith("::error ")
    _, out, _ = run_main(["check", "orders/g1.yaml", "-f", "text"], cwd=project, env={"MOVECHECK_FORMAT": "github"})
    assert out.startswith("orders/g1.yaml:8:29: AA203")
    code, out, _ = run_main(["check", "orders/g1.yaml"], cwd=project, env={"MOVECHECK_FORMAT": "nonsense"})
    assert (code, out) == (2, "")  # an unknown $MOVECHECK_FORMAT is a usage error, not passed over


def test_rule_options_precedence(run_main, project, write) -> None:
    """state's own options > --option > configuration file > preset."""
    run = lambda *extra: run_main(["check", "orders/g1.yaml", *extra], cwd=project)[0]  # noqa: E731
    assert run() == 1  # the preset: every combat move must attack
    write(project, ".movecheck.yaml", MUST_ATTACK_OFF)
    assert run() == 0  # the file beats the preset
    assert run("--option", "aa.combat_move_must_attack=true") == 1  # the command line beats the file
    write(project, "state.yaml", (project / "state.yaml").read_text() + "options: {combat_move_must_attack: true}\n")
    assert run() == 1  # the state beats the file
    write(project, ".movecheck.yaml", "ignore: []\n")
    assert run("--option", "aa.combat_move_must_attack=false") == 1  # ... and the command line


def test_config_options_apply_to_lint_and_presets(run_main, project, write) -> None:
    write(project, ".movecheck.yaml", "aa:\n  rules: aa1942\n  options: {neutrals_impassable: false}\n")
    code, out, _ = run_main(["lint", "state.yaml", "-f", "json"], cwd=project)
    assert (code, codes(out)) == (0, [])


def test_bad_option_flags_are_usage_errors(run_main, project) -> None:
    for flag, message in [
        ("aa.combat_move_must_attack=3", "--option aa.combat_move_must_attack: 3 is not of type 'boolean'"),
        (
            "aa.combat_move_must_atack=false",
            "--option 'aa.combat_move_must_atack=false': unknown aa option 'combat_move_must_atack'; did you mean "
            "'combat_move_must_attack'?",
        ),
        ("chess.castle=true", "--option 'chess.castle=true': unknown system 'chess'; choose aa or maneuver"),
        ("tolerance", "--option 'tolerance': expected SYSTEM.KEY=VALUE, e.g. aa.land_on_new_carrier=false"),
    ]:
        code, out, err = run_main(["check", "orders/g1.yaml", "--option", flag], cwd=project)
        assert (code, out) == (2, ""), flag
        assert err == f"movecheck: error: {message}\n"


def test_maneuver_options_from_the_config_are_validated(run_main, project, write) -> None:
    write(project, ".movecheck.yaml", "maneuver:\n  options: {tolerance: -1, corps_penalty: per_fil}\n")
    code, out, _ = run_main(["lint", "state.yaml", "-f", "json"], cwd=project)
    findings = json.loads(out)["findings"]
    assert code == 1
    assert [(f["code"], f["file"], f["line"]) for f in findings] == [("MC003", ".movecheck.yaml", 2)] * 2
    assert "did you mean 'per_file'" in " ".join(f["message"] for f in findings)


# -- per-file ignores ------------------------------------------------------------------------


def test_per_file_ignores_relative_to_the_config_folder(run_main, project, write) -> None:
    write(project, ".movecheck.yaml", "per-file-ignores:\n  'orders/*.yaml': [AA2]\n")
    assert run_main(["check", "orders/g1.yaml"], cwd=project)[0] == 0
    # the same path from another folder: still relative to the config's folder
    assert run_main(["check", "g1.yaml", "--root", ".."], cwd=project / "orders")[0] == 0
    write(project, ".movecheck.yaml", "per-file-ignores:\n  'drafts/*.yaml': [AA2]\n")
    assert run_main(["check", "orders/g1.yaml"], cwd=project)[0] == 1
    write(project, ".movecheck.yaml", "per-file-ignores:\n  'g1.yaml': AA203, MC\n")
    assert run_main(["check", "orders/g1.yaml"], cwd=project)[0] == 0


def test_per_file_ignores_stay_with_a_command_line_select(run_main, project, write) -> None:
    write(project, ".movecheck.yaml", "per-file-ignores:\n  'orders/**': [AA203]\n")
    assert run_main(["check", "orders/g1.yaml", "--select", "AA203"], cwd=project)[0] == 0


def test_per_file_ignores_in_pyproject(run_main, project, write) -> None:
    write(project, "pyproject.toml", '[tool.movecheck.per-file-ignores]\n"orders/*.yaml" = ["AA203"]\n')
    assert run_main(["check", "orders/g1.yaml"], cwd=project)[0] == 0


# -- bad configuration files -----------------------------------------------------------------


def test_bad_yaml_config_findings_have_positions(run_main, project, write) -> None:
    write(
        project,
        ".movecheck.yaml",
        "selct: [AA]\nignore: [AA2, XX9]\nignore: [AA2]\nformat: jsn\naa:\n  rules: aa1943\n",
    )
    code, out, _ = run_main(["check", "orders/g1.yaml", "-f", "json"], cwd=project)
    found = [(f["code"], f["file"], f["line"], f["column"]) for f in json.loads(out)["findings"]]
    assert code == 1
    assert found == [
        ("MC003", ".movecheck.yaml", 1, 1),  # unknown key 'selct'; did you mean 'select'?
        ("MC002", ".movecheck.yaml", 3, 1),  # duplicate key
        ("MC003", ".movecheck.yaml", 4, 9),  # format: 'jsn' ... did you mean 'json'?
        ("MC004", ".movecheck.yaml", 6, 10),  # unknown preset aa1943; did you mean 'aa1942'?
    ]
    messages = [f["message"] for f in json.loads(out)["findings"]]
    assert "did you mean 'select'" in messages[0]
    assert "did you mean 'json'" in messages[2]
    assert "did you mean 'aa1942'" in messages[3]
    # the good parts still apply: the last 'ignore' turns AA2 off
    assert "AA203" not in [f["code"] for f in json.loads(out)["findings"]]


def test_unknown_codes_in_a_config(run_main, project, write) -> None:
    write(project, ".movecheck.yaml", "ignore:\n  - AA2\n  - XX9\nper-file-ignores:\n  '*.yaml': AA20, QQ\n")
    code, out, _ = run_main(["check", "orders/g1.yaml", "-f", "json"], cwd=project)
    found = [(f["code"], f["line"], f["column"], f["message"]) for f in json.loads(out)["findings"]]
    assert code == 1
    assert found == [
        ("MC004", 3, 5, "unknown rule code or prefix 'XX9'"),
        ("MC004", 5, 13, "unknown rule code or prefix 'QQ'"),
    ]


def test_yaml_syntax_error_in_a_config(run_main, project, write) -> None:
    write(project, ".movecheck.yaml", "ignore: [AA2\n")
    code, out, _ = run_main(["check", "orders/g1.yaml", "-f", "json"], cwd=project)
    findings = json.loads(out)["findings"]
    assert code == 1
    assert [(f["code"], f["file"]) for f in findings] == [("MC001", ".movecheck.yaml"), ("AA203", "orders/g1.yaml")]


def test_bad_pyproject_config_findings_have_positions(run_main, project, write) -> None:
    write(
        project,
        "pyproject.toml",
        '[project]\nname = "club"\n\n[tool.movecheck]\nselect = [\n  "AA",\n  "ZZ",\n]\nformat = "jsn"\n\n'
        "[tool.movecheck.aa]\noptions = { land_on_new_carrier = 1 }\n",
    )
    code, out, _ = run_main(["check", "orders/g1.yaml", "-f", "json"], cwd=project)
    found = [(f["code"], f["file"], f["line"], f["column"]) for f in json.loads(out)["findings"]]
    assert code == 1
    assert found == [
        ("AA203", "orders/g1.yaml", 8, 29),  # select = ["AA", ...]: the good part applies
        ("MC004", "pyproject.toml", 7, 3),
        ("MC003", "pyproject.toml", 9, 10),
        ("MC003", "pyproject.toml", 12, 11),
    ]


def test_toml_syntax_error_in_our_table(run_main, project, write) -> None:
    write(project, "pyproject.toml", "[tool.movecheck]\nselect = [AA]\n")
    code, out, _ = run_main(["check", "orders/g1.yaml", "-f", "json"], cwd=project)
    findings = json.loads(out)["findings"]
    assert code == 1
    bad = [f for f in findings if f["file"] == "pyproject.toml"]
    assert [(f["code"], f["line"]) for f in bad] == [("MC001", 2)]
    assert bad[0]["message"].startswith("TOML syntax: ")


def test_explicit_pyproject_without_our_table(run_main, project, write) -> None:
    write(project, "pyproject.toml", '[project]\nname = "club"\n')
    code, out, _ = run_main(["check", "orders/g1.yaml", "--config", "pyproject.toml"], cwd=project)
    assert code == 1
    assert "pyproject.toml:1:1: MC003 [error] pyproject.toml has no [tool.movecheck] table" in out


def test_config_findings_are_reported_once_and_whatever_is_selected(run_main, project, write, aa) -> None:
    write(project, ".movecheck.yaml", "select: [AA1, XX]\n")
    write(project, "orders/g2.yaml", (project / "orders" / "g1.yaml").read_text())
    code, out, _ = run_main(["check", "orders/g1.yaml", "orders/g2.yaml", "-f", "json"], cwd=project)
    assert code == 1
    assert codes(out) == ["MC004"]
    assert json.loads(out)["summary"]["files"] == 2  # the configuration is not a checked file


def test_lint_a_config_file(run_main, project, write) -> None:
    write(project, ".movecheck.yaml", "ignore: [AA2]\nformat: text\n")
    code, out, _ = run_main(["lint", ".movecheck.yaml", "-f", "json"], cwd=project)
    assert code == 0
    assert [{k: f[k] for k in ("path", "kind", "state", "config")} for f in json.loads(out)["files"]] == [
        {"path": ".movecheck.yaml", "kind": "config", "state": None, "config": ".movecheck.yaml"}
    ]
    write(project, ".movecheck.yaml", "ignore: [AA2]\nformt: text\n")
    code, out, _ = run_main(["lint", ".movecheck.yaml"], cwd=project)
    assert code == 1
    assert (
        out.splitlines()[0]
        == ".movecheck.yaml:2:1: MC003 [error] unknown key 'formt' in the file; did you mean 'format'?"
    )


def test_a_linted_config_that_the_run_applies_is_reported_once(run_main, project, write) -> None:
    # the file is both the one linted and the run's configuration: its findings come once either way
    write(project, ".movecheck.yaml", "ignore: [AA2]\nformt: text\n")
    for extra in ([], ["--isolated"], ["--config", ".movecheck.yaml"]):
        code, out, _ = run_main(["lint", ".movecheck.yaml", "-f", "json", *extra], cwd=project)
        assert (code, codes(out)) == (1, ["MC003"]), extra


def test_lint_skip_foreign(run_main, project, write) -> None:
    write(project, "ci.yml", "on: push\njobs: {}\n")
    write(project, "k8s.yaml", "a: 1\n---\nb: 2\n")
    code, out, _ = run_main(["lint", "ci.yml", "k8s.yaml", "state.yaml", "--skip-foreign"], cwd=project)
    assert (code, out) == (0, "0 errors, 0 warnings, 0 notes in 1 file.\n")
    code, out, _ = run_main(["lint", "ci.yml", "state.yaml"], cwd=project)
    assert code == 1 and "MC010" in out


def test_maneuver_options_precedence(run_main, tmp_path, write) -> None:
    root = Path(__file__).resolve().parents[1]
    orders = root / "examples" / "maneuver" / "corps-orders.yaml"
    if not orders.is_file():
        pytest.skip("examples/maneuver/corps-orders.yaml is not there")
    config = write(
        tmp_path, "club.yaml", "maneuver:\n  options: {tolerance: 0.3, contact_gap: 0.07, dice: {D4: 4d6}}\n"
    )
    args = ["check", str(orders.relative_to(root)), "--config", str(config), "-f", "json"]
    readings = json.loads(run_main(args, cwd=root)[1])["readings"]["maneuver"]
    assert readings["tolerance"] == 0.1  # the battlefield's own options win
    assert readings["contact_gap"] == 0.07  # the configuration beats the defaults
    assert readings["dice"] == {"D1": "1d6", "D2": "2d6", "D3": "3d6", "D4": "4d6"}  # mappings merge
    readings = json.loads(run_main([*args, "--option", "maneuver.contact_gap=0.08"], cwd=root)[1])["readings"][
        "maneuver"
    ]
    assert readings["contact_gap"] == 0.08  # the command line beats the configuration


@pytest.mark.parametrize(("text", "may"), [
    ("[tool.movecheck]\nselect = ['AA']\n", True),
    ('[ "tool" . "movecheck" ]\n', True),
    ("[tool.movecheck.per-file-ignores]\n", True),
    ("[tool]\nmovecheck = {select = ['AA']}\n", True),
    ("tool.movecheck.select = ['AA']\n", True),
    ("tool = { movecheck = { select = ['AA'] } }\n", True),
    ("[tool.movecheck\nbroken = \n", True),  # broken, but ours: parsed, so MC001 is reported
    ("[project.scripts]\nmovecheck = 'movecheck.__main__:run'\n", False),
    ("[tool.hatch]\nmovecheck = 1\n[tool.movecheckx]\n", False),
])
def test_a_discovered_pyproject_is_parsed_only_when_it_may_name_the_table(text, may):
    """Start-up: a pyproject.toml that cannot hold [tool.movecheck] is never handed to tomllib."""
    from movecheck.config_files import _MAY_CONFIGURE

    assert bool(_MAY_CONFIGURE.search(text)) is may


def test_linting_beside_a_pyproject_without_our_table_imports_no_toml_parser(tmp_path):
    import subprocess
    import sys

    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'movecheck-game'\n[tool.black]\nline-length = 99\n")
    (tmp_path / "x.yaml").write_text("movecheck: 1\nsystem: maneuver\n")
    probe = ("import sys, runpy; sys.argv = ['movecheck', 'lint', 'x.yaml']\n"
             "from movecheck.cli import main\nmain(sys.argv[1:])\nprint('tomllib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "False", out.stdout + out.stderr


def test_a_config_naming_no_codes_lists_none(run_main, project, write, monkeypatch) -> None:
    # listing every code imports each system's clause index or modules (issue 36): a configuration without
    # select, ignore or per-file-ignores does not pay for it
    from movecheck import config_files

    listed: list[int] = []
    known = config_files.known_codes
    monkeypatch.setattr(config_files, "known_codes", lambda: listed.append(1) or known())
    write(project, ".movecheck.yaml", "format: json\naa:\n  options:\n    destroyer_stops_subs: true\n")
    code, out, _ = run_main(["check", "orders/g1.yaml"], cwd=project)
    assert (code, codes(out), listed) == (1, ["AA203"], [])
    write(project, "orders/.movecheck.yaml", "format: json\nignore: [AA2]\n")
    code, out, _ = run_main(["check", "orders/g1.yaml"], cwd=project)
    assert (code, codes(out), listed) == (0, [], [1])
