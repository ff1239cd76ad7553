"""The positional YAML loader (movecheck.loading): data, positions and input findings.

Most tests run twice, on PyYAML's C parser and on its pure-Python fallback
(``loader`` fixture): both must give the same data, positions and findings.
"""

from __future__ import annotations

import itertools

import pytest
import yaml

import movecheck.document as document
import movecheck.loading as loading
from movecheck.document import Document
from movecheck.loading import load_bytes, load_file
from movecheck.reading import InputError

LOADERS = {"python": yaml.SafeLoader}
if hasattr(yaml, "CSafeLoader"):
    LOADERS["c"] = yaml.CSafeLoader


@pytest.fixture(params=sorted(LOADERS))
def loader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test with each available PyYAML event parser."""
    monkeypatch.setattr(loading, "_Loader", LOADERS[request.param])
    return request.param


def load(text: str | bytes, path: str = "t.yaml") -> Document:
    return load_bytes(text.encode("utf-8") if isinstance(text, str) else text, path)


def codes(doc: Document) -> list[tuple[str, int, int]]:
    return [(f.code, f.line, f.column) for f in doc.findings]


ORDERS = """\
movecheck: 1
system: aa
state: state.yaml
power: Germans
phase: combat_move
moves:
  - units: {tank: 2}
    path: [Germany, Poland, Ukraine S.S.R.]
"""


# -- positions -----------------------------------------------------------------


def test_value_positions_are_one_based(loader: str) -> None:
    doc = load(ORDERS)
    assert not doc.findings and not doc.broken
    assert doc.data["moves"][0]["path"] == ["Germany", "Poland", "Ukraine S.S.R."]
    assert doc.positions[()] == (1, 1)
    assert doc.positions[("movecheck",)] == (1, 12)
    assert doc.positions[("system",)] == (2, 9)
    assert doc.positions[("power",)] == (4, 8)
    assert doc.positions[("moves", 0)] == (7, 5)
    assert doc.positions[("moves", 0, "units")] == (7, 12)
    assert doc.positions[("moves", 0, "units", "tank")] == (7, 19)
    assert doc.positions[("moves", 0, "path")] == (8, 11)
    assert doc.positions[("moves", 0, "path", 0)] == (8, 12)
    assert doc.positions[("moves", 0, "path", 1)] == (8, 21)
    assert doc.positions[("moves", 0, "path", 2)] == (8, 29)


def test_key_positions(loader: str) -> None:
    doc = load(ORDERS)
    assert doc.key_positions[("movecheck",)] == (1, 1)
    assert doc.key_positions[("phase",)] == (5, 1)
    assert doc.key_positions[("moves",)] == (6, 1)
    assert doc.key_positions[("moves", 0, "units")] == (7, 5)
    assert doc.key_positions[("moves", 0, "units", "tank")] == (7, 13)
    assert doc.key_positions[("moves", 0, "path")] == (8, 5)


def test_pos_falls_back_to_the_nearest_ancestor() -> None:
    doc = load(ORDERS)
    assert doc.pos(("moves", 0, "path", 7)) == (8, 11)  # no 8th step: the path itself
    assert doc.pos(("nowhere", "at", "all")) == (1, 1)
    assert doc.key_pos(("moves", 0, "path")) == (8, 5)
    assert doc.key_pos(("moves", 0, "path", 1)) == (8, 21)  # a list item has no key: its value
    finding = doc.finding("MC004", "x", ("moves", 0, "path", 2))
    assert (finding.file, finding.line, finding.column) == ("t.yaml", 8, 29)
    finding = doc.finding("MC003", "x", ("moves", 0, "path"), key=True)
    assert (finding.line, finding.column) == (8, 5)


def test_keys_are_always_text(loader: str) -> None:
    doc = load("1: one\ntrue: yes-key\n~: nothing\n2024-01-01: day\n")
    assert list(doc.data) == ["1", "true", "~", "2024-01-01"]
    assert doc.data["true"] == "yes-key"
    assert not doc.findings


# -- MC001 yaml-syntax -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        pytest.param("a: {b: 1\n", 2, 1, id="unclosed-flow-mapping-at-eof"),
        pytest.param("a: {b: 1\nc: 2\n", 2, 2, id="unclosed-flow-mapping-then-key"),
        pytest.param("a: [1, 2\n", 2, 1, id="unclosed-flow-sequence"),
        pytest.param("a:\n  b: 1\n c: 2\n", 3, 2, id="bad-indentation"),
        pytest.param("a: 1\n\tb: 2\n", 2, 1, id="tab-indentation"),
        pytest.param("a: b: c\n", 1, 5, id="mapping-value-in-plain-scalar"),
        pytest.param('key: "unterminated\n', 2, 1, id="unterminated-quote"),
    ],
)
def test_syntax_error_at_the_parser_position(loader: str, text: str, line: int, column: int) -> None:
    doc = load(text)
    assert doc.broken
    assert doc.data is None
    assert codes(doc) == [("MC001", line, column)]
    assert doc.findings[0].message.startswith("YAML syntax: ")
    assert doc.findings[0].severity.value == "error"


def test_syntax_error_line_with_crlf(loader: str) -> None:
    doc = load(b"a: 1\r\nb: 2\r\nc:\r\n  d: 1\r\n e: 2\r\n")
    assert codes(doc) == [("MC001", 5, 2)]


def test_undefined_alias_is_a_syntax_error(loader: str) -> None:
    # The event parser, unlike PyYAML's composer, does not check aliases: the loader must.
    doc = load("a: *nowhere\nb: 1\n")
    assert doc.broken and doc.data is None
    assert codes(doc) == [("MC001", 1, 4)]
    assert "undefined alias 'nowhere'" in doc.findings[0].message


def test_recursive_alias_is_a_syntax_error(loader: str) -> None:
    # An anchor is usable once its node is complete: a self-reference cannot be data.
    doc = load("a: &a [x, *a]\n")
    assert doc.broken
    assert codes(doc) == [("MC001", 1, 11)]


def test_invalid_value_for_explicit_tag(loader: str) -> None:
    doc = load("a: 1\nb: !!int abc\n")
    assert codes(doc) == [("MC001", 2, 4)]
    assert "'abc' is not a valid int" in doc.findings[0].message


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        pytest.param("? {a: 1}\n: 2\n", 1, 3, id="explicit-mapping-key"),
        pytest.param("{a: 1}: 2\n", 1, 1, id="flow-mapping-key"),
        pytest.param("x: 1\n[a, b]: 2\n", 2, 1, id="sequence-key"),
        pytest.param("x: &k name\n*k : 2\n", 2, 1, id="alias-key"),
    ],
)
def test_collection_as_key_is_mc001(loader: str, text: str, line: int, column: int) -> None:
    doc = load(text)
    assert doc.broken
    assert codes(doc) == [("MC001", line, column)]
    assert "mapping key must be a plain name" in doc.findings[0].message


@pytest.mark.parametrize(
    "tag",
    ["!!python/object:os.system", "!!python/object/apply:os.system", "!!python/name:os.system", "!custom", "!!binary"],
)
def test_non_standard_tags_are_refused(loader: str, tag: str) -> None:
    doc = load(f"movecheck: 1\nsystem: aa\nmap: {tag} x\n")
    assert doc.broken and doc.data is None
    assert codes(doc) == [("MC001", 3, 6)]
    assert "is not allowed" in doc.findings[0].message


def test_python_object_is_never_constructed(loader: str, tmp_path) -> None:
    marker = tmp_path / "pwned"
    text = (
        f'a: !!python/object/apply:os.system ["touch {marker}"]\nb: !!python/object/apply:builtins.exec '
        f'["open({str(marker)!r}, \'w\')"]\n'
    )
    doc = load(text)
    assert codes(doc) == [("MC001", 1, 4)]
    assert not marker.exists()


def test_standard_tags_are_read(loader: str) -> None:
    doc = load("a: !!str 0101\nb: !!int '12'\nc: !!float 1\nd: !!bool 'yes'\ne: ! 12\n")
    assert not doc.findings
    assert doc.data == {"a": "0101", "b": 12, "c": 1.0, "d": True, "e": "12"}
    assert doc.implicit == {}  # explicitly tagged: nothing YAML guessed


# -- MC002 duplicate-key -----------------------------------------------------------


def test_duplicate_key_at_second_occurrence_last_value_kept(loader: str) -> None:
    doc = load("power: Germans\nphase: combat_move\npower: Russians\n")
    assert not doc.broken
    assert codes(doc) == [("MC002", 3, 1)]
    assert doc.findings[0].message == "duplicate key 'power' (first at line 1); YAML keeps only the last value"
    assert doc.data == {"power": "Russians", "phase": "combat_move"}
    assert doc.positions[("power",)] == (3, 8)
    assert doc.key_positions[("power",)] == (3, 1)


def test_duplicate_key_nested_and_in_flow_mapping(loader: str) -> None:
    doc = load("moves:\n  - units: {tank: 1, tank: 2}\n    path: [a, b]\n    path: [c, d]\n")
    assert codes(doc) == [("MC002", 2, 22), ("MC002", 4, 5)]
    assert doc.data == {"moves": [{"units": {"tank": 2}, "path": ["c", "d"]}]}


def test_duplicate_key_in_crlf_file(loader: str) -> None:
    doc = load(b"a: 1\r\nb: 2\r\n\r\na: 3\r\n")
    assert codes(doc) == [("MC002", 4, 1)]
    assert doc.data == {"a": 3, "b": 2}


def test_same_key_in_different_mappings_is_fine(loader: str) -> None:
    doc = load("x: {a: 1}\ny: {a: 2}\n")
    assert doc.findings == []


# -- implicit scalars (MC005 data) and timestamps ----------------------------------------


def test_octal_like_plain_scalar_keeps_its_text(loader: str) -> None:
    doc = load("a: 0101\nb: '0101'\n")
    assert doc.data == {"a": 65, "b": "0101"}
    scalar = doc.implicit[("a",)]
    assert (scalar.text, scalar.tag, scalar.value) == ("0101", "tag:yaml.org,2002:int", 65)
    assert ("b",) not in doc.implicit
    assert document.implicit_message(scalar) == (
        "0101 is read by YAML 1.1 as the integer 65 where a name is expected; quote it: '0101'"
    )


@pytest.mark.parametrize(
    ("text", "value", "tag"),
    [
        ("no", False, "bool"),
        ("On", True, "bool"),
        ("1:20", 80, "int"),
        ("1.5", 1.5, "float"),
        ("~", None, "null"),
        ("0x1F", 31, "int"),
    ],
)
def test_implicit_scalars_recorded_with_text(loader: str, text: str, value: object, tag: str) -> None:
    doc = load(f"path: [{text}, Poland]\n")
    assert doc.data["path"][0] == value
    scalar = doc.implicit[("path", 0)]
    assert scalar.text == text
    assert scalar.tag == f"tag:yaml.org,2002:{tag}"
    assert ("path", 1) not in doc.implicit


def test_implicit_scalar_through_alias(loader: str) -> None:
    doc = load("a: &x 0101\nb: *x\nc: &l [no, Poland]\nd: *l\n")
    assert doc.implicit[("b",)].text == "0101"
    assert doc.implicit[("d", 0)].text == "no"
    assert doc.data["d"] == [False, "Poland"]


@pytest.mark.parametrize(
    "value", ["2024-01-01", "2024-01-01 10:30:00", "2001-12-14t21:59:43.10-05:00"]
)
def test_timestamps_stay_strings(loader: str, value: str) -> None:
    doc = load(f"date: {value}\n")
    assert doc.data == {"date": value}
    assert isinstance(doc.data["date"], str)
    assert not doc.findings and doc.implicit == {}


# -- MC008 input limits ------------------------------------------------------------


def billion_laughs(levels: int = 9, width: int = 9) -> str:
    names = [chr(ord("a") + i) for i in range(levels)]
    lines = [f"{names[0]}: &{names[0]} [" + ", ".join(["lol"] * width) + "]"]
    for prev, name in itertools.pairwise(names):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_mc008_in_process(loader: str) -> None:
    doc = load(billion_laughs())
    assert doc.broken
    assert [f.code for f in doc.findings] == ["MC008"]
    assert "nodes (aliases included)" in doc.findings[0].message
    # 9 + 90 + 819 + ... passes 2,000,000 nodes on the 7th line (g: 9**7 'lol's)
    assert doc.findings[0].line == 7


def test_alias_bomb_cli(run_cli, tmp_path, write) -> None:
    path = write(tmp_path, "bomb.yaml", billion_laughs())
    code, out, err = run_cli(["lint", path.name, "--format", "json"], cwd=tmp_path)
    assert code == 1, err
    assert err == ""
    import json

    findings = json.loads(out)["findings"]
    assert [f["code"] for f in findings] == ["MC008"]


def test_small_alias_use_is_fine(loader: str) -> None:
    doc = load(billion_laughs(levels=3, width=3))
    assert not doc.findings
    assert doc.data["c"] == [[["lol"] * 3] * 3] * 3


def test_node_limit(loader: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loading, "MAX_NODES", 10)
    doc = load("a: [1, 2, 3]\nb: [4, 5, 6]\nc: [7, 8, 9]\n")
    assert codes(doc) == [("MC008", 3, 5)]


def test_size_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loading, "MAX_BYTES", 16)
    doc = load("a: 1234567890123456789\n")
    assert doc.broken
    assert codes(doc) == [("MC008", 1, 1)]
    assert "larger than 16 bytes" in doc.findings[0].message


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("[" * 1000 + "]" * 1000, id="flow-sequences"),
        pytest.param("{a: " * 1000 + "1" + "}" * 1000, id="flow-mappings"),
        pytest.param("".join(" " * i + "- \n" for i in range(0, 2000, 2)), id="block-sequences"),
    ],
)
def test_deep_nesting_is_mc008_not_recursion_error(loader: str, text: str) -> None:
    doc = load(text)
    assert doc.broken
    assert [f.code for f in doc.findings] == ["MC008"]
    assert "nesting deeper than 64 levels" in doc.findings[0].message


def test_deep_nesting_first_line_position(loader: str) -> None:
    doc = load("[" * 1000 + "]" * 1000)
    assert codes(doc) == [("MC008", 1, 65)]


def test_nesting_through_aliases_is_bounded(loader: str) -> None:
    # Each anchor wraps the previous one 30 levels deeper: the data nests ever deeper
    # without any single line doing so.  a1 is 32 deep, a2 62, a3 would be 92.
    lines = ["a0: &a0 [x]"]
    for i in range(1, 40):
        lines.append(f"a{i}: &a{i} " + "[" * 30 + f"*a{i - 1}" + "]" * 30)
    doc = load("\n".join(lines) + "\n")
    assert doc.broken
    assert codes(doc) == [("MC008", 4, 39)]


def test_nesting_at_the_limit_is_fine(loader: str) -> None:
    doc = load("[" * 64 + "]" * 64)
    assert not doc.findings
    doc = load("[" * 65 + "]" * 65)
    assert codes(doc) == [("MC008", 1, 65)]


def test_deep_nesting_cli(run_cli, tmp_path, write) -> None:
    write(tmp_path, "deep.yaml", "[" * 1000 + "]" * 1000 + "\n")
    code, out, err = run_cli(["lint", "deep.yaml"], cwd=tmp_path)
    assert code == 1
    assert "Traceback" not in err and "RecursionError" not in out + err
    assert out.splitlines()[0].startswith("deep.yaml:1:65: MC008 [error] nesting deeper than 64 levels")


# -- MC009, BOM, CRLF, empty, encoding ------------------------------------------------


def test_multiple_documents_is_mc009(loader: str) -> None:
    doc = load("system: aa\n---\nsystem: maneuver\n")
    assert doc.broken
    assert codes(doc) == [("MC009", 2, 1)]


def test_single_document_with_markers_is_fine(loader: str) -> None:
    doc = load("---\nsystem: aa\n...\n")
    assert not doc.findings and not doc.broken
    assert doc.data == {"system": "aa"}
    assert doc.positions[("system",)] == (2, 9)


def test_utf8_bom_loads(loader: str) -> None:
    doc = load(b"\xef\xbb\xbfsystem: aa\nturn: {power: Germans}\n")
    assert not doc.findings
    assert doc.data == {"system": "aa", "turn": {"power": "Germans"}}
    assert doc.key_positions[("system",)] == (1, 1)
    assert doc.positions[("turn", "power")] == (2, 15)
    assert not doc.text.startswith("\ufeff")


def test_crlf_line_numbers(loader: str) -> None:
    doc = load(b"a: 1\r\nb:\r\n  - x\r\n  - y\r\nc: {d: 2}\r\n")
    assert not doc.findings
    assert doc.data == {"a": 1, "b": ["x", "y"], "c": {"d": 2}}
    assert doc.positions[("b", 0)] == (3, 5)
    assert doc.positions[("b", 1)] == (4, 5)
    assert doc.positions[("c", "d")] == (5, 8)
    assert doc.key_positions[("c",)] == (5, 1)


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "---\n"])
def test_empty_file_is_none(loader: str, text: str) -> None:
    doc = load(text)
    assert doc.data is None
    assert doc.findings == []
    assert not doc.broken


def test_lint_empty_file_is_mc010(run_main, tmp_path, write) -> None:
    write(tmp_path, "empty.yaml", "")
    code, out, err = run_main(["lint", "empty.yaml"], cwd=tmp_path)
    assert code == 1
    assert err == ""
    assert out.splitlines()[0] == (
        "empty.yaml:1:1: MC010 [error] the file is empty, not a movecheck mapping with a 'system:' key"
    )


@pytest.mark.parametrize(
    ("raw", "line", "column"),
    [
        pytest.param(b"a: \xff\xfe\n", 1, 4, id="invalid-start-byte"),
        pytest.param(b"a: caf\xc3\xa9\nb: \xff\n", 2, 4, id="after-multibyte"),
        pytest.param(b"\xef\xbb\xbfa: \x80\n", 1, 4, id="after-bom"),
        pytest.param(b"a: 1\nb: \x07\n", 2, 4, id="control-character"),
    ],
)
def test_non_utf8_bytes_are_mc001_with_position(loader: str, raw: bytes, line: int, column: int) -> None:
    doc = load(raw)
    assert doc.broken and doc.data is None
    assert codes(doc) == [("MC001", line, column)]
    assert doc.findings[0].message.startswith("YAML syntax: unacceptable character")


def test_non_utf8_cli_is_a_finding_not_a_traceback(run_cli, tmp_path, write) -> None:
    write(tmp_path, "bad.yaml", b"system: aa\na: \xff\xfe\n")  # a movecheck file: its finding words the byte
    write(tmp_path, "foreign.yaml", b"a: \xff\xfe\n")  # any other file: nothing of it is quoted
    code, out, err = run_cli(["lint", "bad.yaml", "foreign.yaml"], cwd=tmp_path)
    assert code == 1
    assert err == ""
    assert out.startswith("bad.yaml:2:4: MC001 [error] YAML syntax: unacceptable character #xff")
    assert "foreign.yaml:1:4: MC001 [error] YAML syntax: the file does not parse" in out


# -- files -------------------------------------------------------------------------


def test_load_file_reads_and_names_the_path(tmp_path, write) -> None:
    path = write(tmp_path, "s.yaml", "system: aa\n")
    doc = load_file(str(path))
    assert doc.path == str(path)
    assert doc.data == {"system": "aa"}
    assert load_file(str(path), "shown.yaml").path == "shown.yaml"


def test_load_file_missing_and_directory(tmp_path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_file(str(tmp_path / "missing.yaml"))
    with pytest.raises(InputError, match="is a directory"):
        load_file(str(tmp_path))
