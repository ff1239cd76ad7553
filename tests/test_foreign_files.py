"""Files named on the command line that are not movecheck files quote nothing of themselves (issue 23).

``lint`` (or ``check``, ``--state``, ``--config``) of a file that does not say it is a
movecheck file -- a token file, a ``.movecheck.yaml`` linked to one, any foreign YAML --
reports what is wrong with it (MC010, MC001 at its position) without a word of its
content, in every output format: no value in a schema error, no did-you-mean, no key of
a repeated key, no tag, no source line in ``full``.  A real movecheck file's findings
still quote its own values.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from test_untrusted import MARKER, SECRETS, assert_no_leak

SECRETS_NAMED = {
    **SECRETS,
    "a URL with a token": f"https://player:{MARKER}@github.com\n",
    "a mapping with a typo'd key": f"movecheck: 1\nsystme: aa\n{MARKER}: 1\n",
    "an unknown system, near a real one": f"movecheck: 1\nsystem: {MARKER}aa\n",
    "a list": f"- {MARKER}\n",
    "a JSON object": f'{{"token": "{MARKER}"}}',
    "an implicit number": f"00101: {MARKER}\n",
}
"""What a foreign file may hold (SECRETS: those of files named by state: and map:)."""


@pytest.mark.parametrize("secret", list(SECRETS_NAMED), ids=list(SECRETS_NAMED))
def test_lint_of_a_foreign_file_quotes_nothing(run_main, tmp_path: Path, write, secret: str) -> None:
    write(tmp_path, "notes.yaml", SECRETS_NAMED[secret])
    outputs = assert_no_leak(run_main, ["lint", "--isolated", "notes.yaml"], tmp_path)
    findings = json.loads(outputs["json"])["findings"]
    assert [(f["code"], f["file"]) for f in findings] in ([("MC010", "notes.yaml")], [("MC001", "notes.yaml")])
    assert outputs["full"].splitlines()[1:2] == [""]  # no line of it quoted below the finding


@pytest.mark.parametrize("secret", ["a bad tag", "a repeated key", "an unknown system", "broken YAML"])
def test_check_of_a_foreign_file_quotes_nothing(run_main, tmp_path: Path, write, secret: str) -> None:
    write(tmp_path, "orders.yaml", SECRETS[secret])
    assert_no_leak(run_main, ["check", "--isolated", "orders.yaml"], tmp_path)


def test_a_foreign_state_named_with_state_quotes_nothing(run_main, tmp_path: Path, write, aa) -> None:
    write(tmp_path, "token.yaml", SECRETS["a bad tag"])
    write(tmp_path, "orders.yaml", aa.legal.replace("state: state.yaml", "state: nowhere.yaml"))
    outputs = assert_no_leak(run_main, ["check", "--isolated", "--state", "token.yaml", "orders.yaml"], tmp_path)
    assert [f["code"] for f in json.loads(outputs["json"])["findings"]] == ["MC001"]


@pytest.mark.parametrize(
    "secret",
    [f"https://player:{MARKER}@github.com\n", f"api_token: {MARKER}\n", f"{MARKER}: [1\n"],
    ids=["url", "mapping", "broken"],
)
def test_lint_of_a_linked_movecheck_yaml_quotes_nothing(run_main, tmp_path: Path, write, secret: str) -> None:
    """The issue's case: ``lint .movecheck.yaml`` quoted "got the text 'https://player:ghp_...'" (MC003)."""
    write(tmp_path, "home/.git-credentials", secret)
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    os.symlink(tmp_path / "home" / ".git-credentials", project / ".movecheck.yaml")
    outputs = assert_no_leak(run_main, ["lint", ".movecheck.yaml"], project)
    findings = json.loads(outputs["json"])["findings"]
    assert [(f["code"], f["file"], f["line"]) for f in findings] == [("MC010", ".movecheck.yaml", 1)]  # once
    assert findings[0]["message"].endswith("it is not used and not quoted")


def test_a_config_named_with_config_that_is_no_configuration_quotes_nothing(
    run_main, tmp_path: Path, write, aa
) -> None:
    write(tmp_path, "token.yaml", f"api_token: {MARKER}\n")
    write(tmp_path, "state.yaml", aa.state)
    outputs = assert_no_leak(run_main, ["lint", "--config", "token.yaml", "state.yaml"], tmp_path)
    assert [(f["code"], f["file"]) for f in json.loads(outputs["json"])["findings"]] == [("MC010", "token.yaml")]


def test_a_movecheck_file_still_quotes_its_own_values(run_main, tmp_path: Path, write) -> None:
    """The counterpart: a file that says ``system: aa`` keeps its detailed findings and its lines."""
    write(tmp_path, "state.yaml", "movecheck: 1\nsystem: aa\nmap: aa1942-2e\ntrun: {round: 1}\n")
    code, out, _ = run_main(["lint", "--isolated", "state.yaml", "--format", "full"], cwd=tmp_path)
    assert code == 1
    assert "state.yaml:4:1: MC003 [error] unknown key 'trun' in the file; did you mean 'turn'?" in out
    assert "4 | trun: {round: 1}" in out
    write(tmp_path, "state.yaml", "movecheck: 1\nsystem: aa\nmap: [aa1942-2e\n")  # broken, but it says what it is
    code, out, _ = run_main(["lint", "--isolated", "state.yaml", "--format", "json"], cwd=tmp_path)
    (finding,) = json.loads(out)["findings"]
    assert finding["code"] == "MC001" and "expected" in finding["message"]  # the parser's own words
    write(tmp_path, "config/.movecheck.yaml", "ignore: [AA2]\nformt: json\n")  # a configuration: its keys quoted
    code, out, _ = run_main(["lint", "config/.movecheck.yaml", "--format", "json"], cwd=tmp_path)
    assert "unknown key 'formt' in the file; did you mean 'format'?" in [
        f["message"] for f in json.loads(out)["findings"]
    ]


def test_the_messages_for_a_foreign_file(run_main, tmp_path: Path, write) -> None:
    write(tmp_path, "a.yaml", "movecheck: 1\nsystem: AA\n")
    write(tmp_path, "b.yaml", "token: 'open\n")
    _code, out, _ = run_main(["lint", "--isolated", "a.yaml", "b.yaml"], cwd=tmp_path)
    assert out.splitlines()[:2] == [
        "a.yaml:2:9: MC010 [error] the file's system: is not one of: aa, maneuver; its value is not shown",
        "b.yaml:2:1: MC001 [error] YAML syntax: the file does not parse, and it does not say it is a movecheck file "
        "(no system: aa or system: maneuver), so nothing of it is shown",
    ]
