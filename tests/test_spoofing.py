"""Output that cannot be spoofed (issue 12): control characters from the input never reach the
terminal, a CI log or the --suggest YAML as they are, and file names that are not UTF-8 never
break an output format.

The hostile inputs put ANSI escapes, CR/LF, C1 controls, DEL, bidi overrides and line
separators into every place input text reaches the report: names quoted in messages,
``state:`` values, schema key paths, file names, order ids in ``--suggest``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes

import pytest
import yaml

from movecheck import problems  # noqa: F401  (registers the MC clauses)
from movecheck.findings import FileReport, Report, make_finding
from movecheck.render import FORMATS, render
from movecheck.render.escape import escape, escape_json, unsafe, visible

ROOT = Path(__file__).resolve().parents[1]
HUMAN = ("text", "full", "github")
MACHINE = ("json", "json-lines", "sarif")
COLOUR = re.compile(r"\x1b\[[0-9;]*m")  # movecheck's own colour codes
SUMMARY = re.compile(r"^\d+ errors?, \d+ warnings?, \d+ notes? in \d+ files?")
DANGEROUS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff\ufeff]")

# ESC [2J clears the screen; CR LF then a forged summary and a forged workflow command;
# U+202E reverses what follows; U+2028 is a line break to YAML and to some viewers;
# U+009B is the one-byte CSI of C1.
HOSTILE = "\x1b[2J\r\n0 errors, 0 warnings, 0 notes in 1 file.\n::error::forged\u202e\u2028\x9b31m\x7f"
HOSTILE_YAML = r'"\e[2J\r\n0 errors, 0 warnings, 0 notes in 1 file.\n::error::forged\u202e\u2028\x9b31m\x7f"'

STATE = """\
movecheck: 1
system: aa
map: aa1942-2e
turn: {round: 1, power: Germans, phase: combat_move}
"""


def raw_controls(text: str) -> list[str]:
    """The dangerous characters in ``text`` other than line ends and movecheck's own colours."""
    return DANGEROUS.findall(COLOUR.sub("", text))


def hostile_orders(state: str = "state.yaml") -> str:
    return f"""\
movecheck: 1
system: aa
state: {state}
power: Germans
phase: combat_move
moves:
  - units: {{{HOSTILE_YAML}: 2}}
    path: [Germany, Poland, {HOSTILE_YAML}]
  - units: {{tank: 1}}
    path: [Germany, Poland]
    {HOSTILE_YAML}: 1
"""


# -- the escaping function --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("char", "shown"),
    [
        ("\x1b", "\\x1b"), ("\r", "\\r"), ("\n", "\\n"), ("\x00", "\\x00"), ("\x07", "\\x07"), ("\x7f", "\\x7f"),
        ("\x85", "\\x85"), ("\x9b", "\\x9b"), ("\u061c", "\\u061c"), ("\u200e", "\\u200e"), ("\u202a", "\\u202a"),
        ("\u202e", "\\u202e"), ("\u2066", "\\u2066"), ("\u2069", "\\u2069"), ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"), ("\u200b", "\\u200b"), ("\ufeff", "\\ufeff"), ("\U000e0041", "\\U000e0041"),
        ("\udcff", "\\xff"), ("\udc80", "\\x80"), ("\ud800", "\\ud800"),
    ],
)
def test_escape_makes_each_unsafe_character_visible(char: str, shown: str) -> None:
    assert escape(f"a{char}b") == f"a{shown}b"
    assert visible(char) == shown


@pytest.mark.parametrize(
    "text",
    ["Ukraine S.S.R.", "8 Sea Zone", "Österreich, 東京, Москва", "a\tb", r"C:\maps\x1b.yaml", "50% of: a, b", ""],
)
def test_escape_leaves_ordinary_text_alone(text: str) -> None:
    assert escape(text) == text


def test_escape_keeps_what_the_caller_asks_for() -> None:
    assert escape("a\r\nb\x1b", keep="\r\n") == "a\r\nb\\x1b"
    assert escape("a\tb", keep="") == "a\\tb"


def test_unsafe_table_is_every_control_format_surrogate_and_separator_character() -> None:
    categories = {"Cc", "Cf", "Cs", "Zl", "Zp"}
    missing, extra = [], []
    for point in range(0x110000):
        char = chr(point)
        category = unicodedata.category(char)
        matched = unsafe().match(char) is not None
        if category in categories and not matched:
            missing.append(hex(point))
        elif matched and category not in categories | {"Cn"}:  # Cn: format controls of a newer Unicode
            extra.append(hex(point))
    assert (missing, extra) == ([], [])


def test_escape_json_keeps_the_text_and_leaves_no_raw_control() -> None:
    dumped = json.dumps({"message": HOSTILE, "astral": "\U000e0041"}, ensure_ascii=False)
    assert "\u202e" in dumped and "\x9b" in dumped  # what json.dumps leaves raw
    safe = escape_json(dumped)
    assert raw_controls(safe) == [] and "\U000e0041" not in safe
    assert json.loads(safe) == {"message": HOSTILE, "astral": "\U000e0041"}
    assert escape_json(json.dumps("plain, Österreich", ensure_ascii=False)) == '"plain, Österreich"'


def test_escape_json_writes_undecodable_bytes_as_their_escape() -> None:
    safe = escape_json(json.dumps({"path": "\udcff\udc80.yaml", "lone": "\ud800"}, ensure_ascii=False))
    safe.encode("utf-8")  # a lone surrogate could not be written
    assert json.loads(safe) == {"path": "\\xff\\x80.yaml", "lone": "\\ud800"}


# -- every format, on a report holding hostile text -----------------------------------------------


def hostile_report() -> Report:
    path = "orders/\udcff" + HOSTILE + ".yaml"
    report = Report(files=[FileReport(path=path, kind="aa-orders", state="state.yaml", orders=1)])
    report.findings = [
        make_finding("MC004", f"unknown territory or sea zone {HOSTILE}", file=path, line=3, column=5, order=1),
        make_finding("MC011", f"state: {HOSTILE} does not exist", file=path, line=2, column=8),
    ]
    report.sources[path] = "a: 1\nstate: " + HOSTILE.replace("\n", " ").replace("\r", " ") + "\nc: [x, y]\n"
    return report


@pytest.mark.parametrize("color", [False, True])
@pytest.mark.parametrize("fmt", HUMAN)
def test_human_formats_escape_messages_paths_and_excerpts(fmt: str, color: bool) -> None:
    out = render(hostile_report(), fmt, color=color)
    out.encode("utf-8")  # no lone surrogate left
    assert raw_controls(out) == []
    lines = out.splitlines()
    assert [line for line in lines if SUMMARY.match(line)] == [lines[-1]]  # the forged summary stays inside a message
    assert "\\x1b[2J" in out and "\\u202e" in out and "\\u2028" in out and "\\x9b31m" in out
    assert "orders/\\xff\\x1b[2J" in out  # the file name, undecodable byte included
    if fmt == "github":
        assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines[:-1])
        assert len(lines) == 3
        assert "%0D%0A0 errors" in out  # GitHub's own escaping of CR and LF in the message
    if fmt == "text":
        assert len(lines) == 4  # two findings, the "checked against" line (escaped too), the summary
        assert lines[2].endswith(": checked against state.yaml")


def test_full_caret_stays_under_the_escaped_token() -> None:
    report = Report(files=[FileReport(path="o.yaml", kind="aa-orders")])
    report.findings = [make_finding("MC004", "bad", file="o.yaml", line=1, column=9)]
    report.sources["o.yaml"] = "a: [\x1b\u202e, \x1bxy]\n"
    lines = render(report, "full").splitlines()
    assert lines[2] == "1 | a: [\\x1b\\u202e, \\x1bxy]"
    assert lines[3].endswith(" ^^^^^^ MC004 unknown-name")  # under all six characters of \x1bxy
    assert lines[2].index("\\x1bxy") == lines[3].index("^")


@pytest.mark.parametrize("fmt", MACHINE)
def test_machine_formats_carry_the_original_text_json_escaped(fmt: str) -> None:
    out = render(hostile_report(), fmt)
    out.encode("utf-8")
    assert raw_controls(out) == []
    assert "\\u202e" in out and "\\u001b" in out  # JSON escapes, not raw characters
    if fmt == "json-lines":
        findings = [json.loads(line) for line in out.splitlines()]
    elif fmt == "json":
        findings = json.loads(out)["findings"]
    else:
        results = json.loads(out)["runs"][0]["results"]
        findings = [
            {"message": r["message"]["text"], "uri": r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]}
            for r in results
        ]
        assert findings[0]["uri"].startswith("orders/%FF%1B%5B2J%0D%0A0%20errors")
        assert unquote_to_bytes(findings[0]["uri"]) == hostile_report().files[0].path.encode("utf-8", "surrogateescape")
    assert sorted(f["message"] for f in findings) == sorted(
        [f"state: {HOSTILE} does not exist", f"unknown territory or sea zone {HOSTILE}"]
    )
    if fmt != "sarif":
        assert {f["file"] for f in findings} == {"orders/\\xff" + HOSTILE + ".yaml"}  # the byte as its escape


# -- end to end: hostile orders through the command line ------------------------------------------------


@pytest.fixture
def hostile_dir(tmp_path: Path, write: Any) -> Path:
    write(tmp_path, "state.yaml", STATE)
    write(tmp_path, "orders.yaml", hostile_orders())
    write(tmp_path, "missing-state.yaml", hostile_orders(state=HOSTILE_YAML))
    return tmp_path


@pytest.mark.parametrize("color", ["never", "always"])
@pytest.mark.parametrize("fmt", HUMAN)
def test_check_of_hostile_orders_prints_no_control_character(run_main, hostile_dir: Path, fmt: str, color: str) -> None:
    code, out, err = run_main(
        ["check", "orders.yaml", "missing-state.yaml", "-f", fmt, "--color", color], cwd=hostile_dir
    )
    assert code == 1 and err == ""
    assert raw_controls(out) == []
    lines = COLOUR.sub("", out).splitlines()
    assert [line for line in lines if SUMMARY.match(line)] == [lines[-1]]
    if fmt != "full":
        checked_against = [line for line in lines if ": checked against " in line]
        assert len(lines) == len(json.loads(render_json(run_main, hostile_dir))["findings"]) + len(checked_against) + 1
    plain = COLOUR.sub("", out)
    assert "unknown unit type '\\x1b[2J\\r\\n0 errors" in plain  # a name quoted in a message
    assert "state: \\x1b[2J" in plain  # an unquoted state: value
    assert "in moves[2]" in plain and "\\u202e" in plain
    if fmt == "github":
        assert all(line.startswith("::error ") for line in lines[:-1])


def render_json(run_main: Any, folder: Path) -> str:
    code, out, _ = run_main(["check", "orders.yaml", "missing-state.yaml", "-f", "json"], cwd=folder)
    assert code == 1
    return out


@pytest.mark.parametrize("fmt", MACHINE)
def test_check_of_hostile_orders_machine_formats_stay_valid(run_main, hostile_dir: Path, fmt: str) -> None:
    code, out, err = run_main(["check", "orders.yaml", "missing-state.yaml", "-f", fmt], cwd=hostile_dir)
    assert code == 1 and err == ""
    assert raw_controls(out) == []
    if fmt == "json-lines":
        messages = [json.loads(line)["message"] for line in out.splitlines()]
    elif fmt == "json":
        messages = [f["message"] for f in json.loads(out)["findings"]]
    else:
        messages = [r["message"]["text"] for r in json.loads(out)["runs"][0]["results"]]
    assert f"state: {HOSTILE} does not exist" in messages  # the original text, escaped by JSON only


def test_a_schema_key_path_is_escaped(run_main, tmp_path: Path) -> None:
    folder = tmp_path / "m"
    shutil.copytree(ROOT / "examples" / "maneuver", folder)
    text = (folder / "corps-orders.yaml").read_text(encoding="utf-8")
    text = text.replace("      r1: {x: 50, y: 36}", '      "r1\\e[2J\\u2028": {x: 50, y: 36, bogus: 1}', 1)
    (folder / "corps-orders.yaml").write_text(text, encoding="utf-8")
    code, out, _ = run_main(["check", "corps-orders.yaml"], cwd=folder)
    assert code == 1
    assert raw_controls(out) == []
    assert "unknown key 'bogus' in orders[1].end.r1\\x1b[2J\\u2028\n" in out


def test_error_line_on_stderr_is_escaped(run_main, tmp_path: Path) -> None:
    code, out, err = run_main(["check", "a\x1b[2J\nb\u202e.yaml"], cwd=tmp_path)
    assert (code, out) == (2, "")
    assert err == "movecheck: error: a\\x1b[2J\\nb\\u202e.yaml: no such file\n"


# -- --suggest YAML ------------------------------------------------------------------------------------


def test_suggest_yaml_cannot_be_injected(run_main, tmp_path: Path) -> None:
    folder = tmp_path / "m"
    shutil.copytree(ROOT / "examples" / "maneuver", folder)
    hostile_id = "o1\n  order: all_back\x1b[2J\u202e\u2028# x\x85- id: evil"
    text = (folder / "corps-orders.yaml").read_text(encoding="utf-8")
    text = text.replace("  - id: o1 ", "  - id: " + json.dumps(hostile_id) + " ", 1)
    name = "corps\n- id: evil\x1b[2J.yaml"  # a file name that would start a YAML line of its own
    (folder / name).write_text(text, encoding="utf-8")
    code, out, err = run_main(["check", name, "--suggest", "--color", "never"], cwd=folder)
    assert code == 0, out + err
    assert raw_controls(out) == []
    suggestion = out[out.index("\n\n# ") + 2 :]
    assert suggestion.startswith("# corps\\n- id: evil\\x1b[2J.yaml: end positions the rules require\n")
    orders = yaml.safe_load(suggestion)
    assert orders[0]["id"] == hostile_id  # the same name read back, escaped in YAML's own notation
    assert set(orders[0]) == {"id", "corps", "order", "rolls", "end"} and orders[0]["order"] == "all_ahead"
    assert all(set(order) <= {"id", "corps", "order", "landmark", "rolls", "end"} for order in orders)
    assert "evil" not in [order.get("id") for order in orders]


def test_suggest_keeps_plain_names_plain(run_main) -> None:
    code, out, _ = run_main(["check", "examples/maneuver/corps-orders.yaml", "--suggest", "--color", "never"], cwd=ROOT)
    assert code == 0
    assert "\n- id: o1\n  corps: red-1\n  order: all_ahead\n  rolls: {r1: 4, r2: 2}\n" in out


# -- file names that are not UTF-8 ------------------------------------------------------------------------

needs_bytes_names = pytest.mark.skipif(
    sys.platform in ("win32", "darwin"), reason="needs a file system that takes any bytes as a name"
)


@needs_bytes_names
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_file_name_that_is_not_utf8(tmp_path: Path, fmt: str) -> None:
    (tmp_path / "state.yaml").write_text(STATE, encoding="utf-8")
    orders = (
        "movecheck: 1\nsystem: aa\nstate: state.yaml\npower: Germans\nphase: combat_move\nmoves:\n  - units: {tank: "
        "2}\n    path: [Germany, Poland, Ukraine S.S.R.]\n"
    )
    name = os.fsdecode(b"\xff\x1b[2J.yaml")
    with open(os.path.join(os.fsencode(tmp_path), b"\xff\x1b[2J.yaml"), "wb") as handle:
        handle.write(orders.encode("utf-8"))
    env = {k: v for k, v in os.environ.items() if k not in ("MOVECHECK_FORMAT", "NO_COLOR", "PYTHONIOENCODING")}
    proc = subprocess.run(
        [sys.executable, "-m", "movecheck", "check", name, "--format", fmt],
        capture_output=True, cwd=tmp_path, env=env, timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == b""
    out = proc.stdout.decode("utf-8")  # strict: valid UTF-8
    assert raw_controls(out) == []
    if fmt in ("text", "full"):
        assert out.startswith("\\xff\\x1b[2J.yaml:8:29: AA203 [error]")
    elif fmt == "github":
        assert out.startswith("::error file=\\xff\\x1b[2J.yaml,line=8,col=29,")
    elif fmt == "json":
        document = json.loads(out)
        assert document["files"][0]["path"] == "\\xff\x1b[2J.yaml"
        assert document["findings"][0]["file"] == "\\xff\x1b[2J.yaml"
    elif fmt == "json-lines":
        assert json.loads(out.splitlines()[0])["file"] == "\\xff\x1b[2J.yaml"
    else:
        result = json.loads(out)["runs"][0]["results"][0]
        location = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location == {"uri": "%FF%1B%5B2J.yaml", "uriBaseId": "%SRCROOT%"}  # the name's own bytes


@needs_bytes_names
def test_a_missing_file_name_that_is_not_utf8_is_one_escaped_line(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "movecheck", "lint", os.fsdecode(b"\xfe\r.yaml")],
        capture_output=True, cwd=tmp_path, timeout=120,
    )
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr.decode("utf-8") == "movecheck: error: \\xfe\\r.yaml: no such file\n"
