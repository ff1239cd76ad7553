"""The language server driven over stdio by a real LSP client (pytest-lsp), as an editor drives it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pytest_lsp", reason="the language server tests need the test extra (pytest-lsp, pygls)")

import pytest_asyncio
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.server.lsp_helpers import (
    ROOT,
    SERVER,
    apply_edits,
    change,
    close,
    covered,
    open_file,
    opened,
    position_of,
    published,
    start,
    uri,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

TYPO = ROOT / "examples" / "aa" / "orders" / "variants" / "mc004-typo.yaml"
COMBAT = ROOT / "examples" / "aa" / "orders" / "g1-combat.yaml"
COMBAT_STATE = ROOT / "examples" / "aa" / "states" / "g1-combat.yaml"
CORPS = ROOT / "examples" / "maneuver" / "corps-orders-mv201.yaml"


@pytest_lsp.fixture(config=SERVER, scope="module")
async def shared(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    """One server for the module (starting one is most of a test's time)."""
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest_asyncio.fixture(loop_scope="module")
async def client(shared: LanguageClient):  # type: ignore[no-untyped-def]
    """The module's server, with every document a test opened closed after it (the tests stay independent)."""
    with opened() as documents:
        yield shared
    await close(shared, documents)


def _check_json(path: str) -> list[dict]:  # type: ignore[type-arg]
    run = subprocess.run([sys.executable, "-m", "movecheck", "check", "--format", "json", path], cwd=ROOT,
                         capture_output=True, text=True)
    return [f for f in json.loads(run.stdout)["findings"] if f["file"] == path]


async def test_open_publishes_the_findings_check_gives_with_the_node_ranges(client: LanguageClient) -> None:
    target = open_file(client, TYPO)
    found = await published(client, target, 1)
    text = TYPO.read_text()
    expected = _check_json(str(TYPO.relative_to(ROOT)))
    assert [(d.code, d.range.start.line + 1, d.range.start.character + 1) for d in found] == [
        (f["code"], f["line"], f["column"]) for f in expected]
    assert [d.message for d in found] == [f["message"] for f in expected]
    assert [covered(text, d.range) for d in found] == ["Ukriane S.S.R.", "fihgter"]
    assert {d.severity for d in found} == {lsp.DiagnosticSeverity.Error}
    assert found[0].code_description is not None and found[0].code_description.href.endswith("/rules/MC004/")
    assert {d.source for d in found} == {"movecheck"}


async def test_an_edit_publishes_the_update(client: LanguageClient) -> None:
    target = open_file(client, TYPO)
    await published(client, target, 1)
    text = TYPO.read_text().replace("Ukriane S.S.R.", "Ukraine S.S.R.")
    change(client, target, 2, text)
    found = await published(client, target, 2)
    assert [(d.code, covered(text, d.range)) for d in found] == [("MC004", "fihgter")]


async def test_an_illegal_move_is_underlined_from_start_to_end(client: LanguageClient) -> None:
    text = COMBAT.read_text().replace("path: [Finland, Karelia S.S.R.]", "path: [Finland, Caucasus]")
    target = open_file(client, COMBAT, text)
    found = await published(client, target, 1)
    assert "AA101" in {d.code for d in found}
    move = next(d for d in found if d.code == "AA101")
    assert covered(text, move.range) in ("[Finland, Caucasus]", "Caucasus", "Finland")


async def test_a_space_name_is_completed_with_its_other_spellings(client: LanguageClient) -> None:
    target = open_file(client, TYPO)
    await published(client, target, 1)
    text = TYPO.read_text()
    where = position_of(text, "Ukriane S.S.R.", 3)
    result = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=target), position=where))
    assert result is not None
    labels = {item.label: item for item in result.items}
    assert "Ukraine S.S.R." in labels and "Caucasus" in labels and "7 Sea Zone" in labels
    assert "infantry" not in labels  # a path holds spaces only
    assert any(item.detail and "other spelling" in item.detail for item in result.items)  # SZ 7 ...
    edit = labels["Ukraine S.S.R."].text_edit
    assert isinstance(edit, lsp.TextEdit) and covered(text, edit.range) == "Ukriane S.S.R."


async def test_unit_types_are_completed_under_units(client: LanguageClient) -> None:
    target = open_file(client, TYPO)
    await published(client, target, 1)
    text = TYPO.read_text()
    result = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=target), position=position_of(text, "fihgter", 2)))
    labels = {item.label for item in result.items}
    assert {"fighter", "infantry", "bomber"} <= labels and "Caucasus" not in labels


async def test_hover_on_a_finding_gives_its_clause(client: LanguageClient) -> None:
    target = open_file(client, TYPO)
    await published(client, target, 1)
    where = position_of(TYPO.read_text(), "fihgter", 1)
    result = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=target), position=where))
    assert result is not None and isinstance(result.contents, lsp.MarkupContent)
    assert result.contents.value.startswith("```text\nMC004 ")


async def test_hover_on_a_space_gives_its_facts(client: LanguageClient) -> None:
    target = open_file(client, COMBAT)
    await published(client, target, 1)
    result = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=target),
        position=position_of(COMBAT.read_text(), "Archangel, Karelia", 2)))
    assert result is not None
    text = result.contents.value  # type: ignore[union-attr]
    assert "Archangel" in text and "neighbours" in text and "Karelia S.S.R." in text


async def test_a_quick_fix_replaces_the_misspelt_name(client: LanguageClient) -> None:
    target = open_file(client, TYPO)
    found = await published(client, target, 1)
    text = TYPO.read_text()
    typo = next(d for d in found if covered(text, d.range) == "fihgter")
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=target), range=typo.range,
        context=lsp.CodeActionContext(diagnostics=[typo])))
    assert actions and [a.title for a in actions] == ["Replace with fighter"]
    fixed = apply_edits(text, actions[0].edit.changes[target])  # type: ignore[union-attr,index]
    assert "units: {fighter: 1}" in fixed
    change(client, target, 2, fixed)
    again = await published(client, target, 2)
    assert [covered(fixed, d.range) for d in again] == ["Ukriane S.S.R."]


def _edits(edits: list[lsp.TextEdit]) -> list[dict[str, object]]:
    """LSP text edits as the JSON report writes a fix's edits (1-based, the end column just past)."""
    return [{"line": e.range.start.line + 1, "column": e.range.start.character + 1, "end_line": e.range.end.line + 1,
             "end_column": e.range.end.character + 1, "text": e.new_text} for e in edits]


async def test_the_quick_fixes_are_the_fixes_of_the_json_report_whatever_the_message(
        client: LanguageClient, run_main) -> None:  # type: ignore[no-untyped-def]
    text = TYPO.read_text().replace("Ukriane S.S.R.,", '"Ukriane S.S.R.",')
    target = open_file(client, TYPO, text)
    found = await published(client, target, 1)
    typo = next(d for d in found if covered(text, d.range) == '"Ukriane S.S.R."')
    shown = str(TYPO.relative_to(ROOT))
    _code, out, _err = run_main(["check", "-", "--stdin-filename", shown, "-f", "json"], stdin=text, cwd=ROOT)
    (expected,) = [f["fixes"] for f in json.loads(out)["findings"] if f["line"] == typo.range.start.line + 1]
    assert expected[0]["edits"][0]["text"] == '"Ukraine S.S.R."'  # double-quoted as written
    for message in (typo.message, "a message that suggests nothing"):  # the fix is data, not read from the words
        sent = lsp.Diagnostic(range=typo.range, message=message, code=typo.code, source=typo.source, data=typo.data)
        actions = await client.text_document_code_action_async(lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=target), range=typo.range,
            context=lsp.CodeActionContext(diagnostics=[sent])))
        assert actions is not None
        assert [(a.title, _edits(a.edit.changes[target])) for a in actions] == [  # type: ignore[union-attr,index]
            (fix["title"], fix["edits"]) for fix in expected]
        assert [a.is_preferred for a in actions] == [True, False, False]


async def test_the_suggested_ends_are_a_fix_for_a_corps_order(client: LanguageClient) -> None:
    target = open_file(client, CORPS)
    found = await published(client, target, 1)
    assert "MV201" in {d.code for d in found}
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=target), range=found[0].range,
        context=lsp.CodeActionContext(diagnostics=found)))
    fix = next(a for a in actions if a.title == "Write the end positions the rules require")
    fixed = apply_edits(CORPS.read_text(), fix.edit.changes[target])  # type: ignore[union-attr,index]
    assert "end: {r1: {x: 50, y: 36}, r2: {x: 54, y: 38}}" in fixed
    change(client, target, 2, fixed)
    assert await published(client, target, 2) == []


async def test_an_open_state_buffer_is_read_before_the_disk_and_its_orders_follow_it(client: LanguageClient) -> None:
    orders = open_file(client, COMBAT)
    assert await published(client, orders, 1) == []
    state_text = COMBAT_STATE.read_text()
    state = open_file(client, COMBAT_STATE, state_text)
    await published(client, state, 1)
    broken = state_text.replace("power: Germans", "power: Germanz", 1)
    assert broken != state_text
    change(client, state, 2, broken)
    found = await published(client, orders, 1)  # re-checked when the state opened (clean), then when it changed
    if not found:
        found = await published(client, orders, 1)
    assert found and all(d.range.start.line == position_of(COMBAT.read_text(), "state:").line for d in found)
    assert "not checked" in found[0].message


async def test_go_to_definition_follows_state(client: LanguageClient) -> None:
    target = open_file(client, COMBAT)
    await published(client, target, 1)
    found = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=lsp.TextDocumentIdentifier(uri=target),
        position=position_of(COMBAT.read_text(), "states/g1-combat.yaml")))
    assert isinstance(found, lsp.Location) and found.uri == uri(COMBAT_STATE)


NONCOMBAT = ROOT / "examples" / "aa" / "orders" / "g1-noncombat.yaml"
CORPS_ORDERS = ROOT / "examples" / "maneuver" / "corps-orders.yaml"


async def _complete(client: LanguageClient, path: Path, text: str, needle: str, offset: int) -> set[str]:
    target = open_file(client, path, text)
    await published(client, target, 1)
    result = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=target), position=position_of(text, needle, offset)))
    assert result is not None
    return {item.label for item in result.items}


async def test_unit_ids_of_the_state_are_completed_and_hovered(client: LanguageClient) -> None:
    text = NONCOMBAT.read_text()
    labels = await _complete(client, NONCOMBAT, text, "[JG-Nord]", 3)
    assert {"JG-Nord", "JG-Reich", "KG-1", "T-Baltic"} <= labels and "Caucasus" not in labels
    found = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri(NONCOMBAT)), position=position_of(text, "[JG-Nord]", 3)))
    assert found is not None and "JG-Nord: Germans fighter at" in found.contents.value  # type: ignore[union-attr]


async def test_corps_and_landmarks_of_the_battlefield_are_completed(client: LanguageClient) -> None:
    text = CORPS_ORDERS.read_text()
    corps = await _complete(client, CORPS_ORDERS, text, "corps: red-7", 9)
    assert {"red-1", "red-2", "red-7"} <= corps and "shrine" not in corps
    landmarks = await _complete(client, CORPS_ORDERS, text, "landmark: shrine", 12)
    assert "shrine" in landmarks and "red-1" not in landmarks


async def test_keys_from_the_schema_are_completed_where_a_key_goes(client: LanguageClient) -> None:
    target = open_file(client, COMBAT)
    await published(client, target, 1)
    line = "    path: [Finland, Karelia S.S.R.]\n"
    text = COMBAT.read_text().replace(line, line + "    tr\n", 1)
    change(client, target, 2, text)  # a half-typed key: the YAML does not parse
    await published(client, target, 2)
    result = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=target), position=position_of(text, "    tr\n", 6)))
    labels = {item.label for item in result.items}
    assert labels == {"attack", "id", "note", "path", "raid", "transport", "units"}


SLOW_SERVER = ClientServerConfig(server_command=SERVER.server_command,
                                 server_env={**SERVER.server_env, "MOVECHECK_SERVER_DELAY": "2"})


@pytest_lsp.fixture(config=SLOW_SERVER, loop_scope="module")
async def patient(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


async def test_a_change_waits_for_the_pause_and_a_save_checks_at_once(patient: LanguageClient) -> None:
    target = open_file(patient, TYPO)
    await published(patient, target, 1)
    text = TYPO.read_text().replace("Ukriane S.S.R.", "Ukraine S.S.R.")
    change(patient, target, 2, text)
    with pytest.raises(TimeoutError):  # typing goes on: no check within the 2 s pause
        await published(patient, target, 2, timeout=1)
    patient.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=target)))
    found = await published(patient, target, 2, timeout=3)
    assert [d.code for d in found] == ["MC004"]


async def test_the_orders_reading_a_state_are_checked_after_the_pause_not_in_its_check(patient: LanguageClient) -> None:
    """Issue 37: opening (or editing) a state schedules the open orders that read it after the pause, as an edit
    of theirs would be: the state's own check returns at once, and a newer edit puts the others off again."""
    orders = open_file(patient, COMBAT)
    assert await published(patient, orders, 1) == []
    state = open_file(patient, COMBAT_STATE, COMBAT_STATE.read_text())
    await published(patient, state, 1)
    with pytest.raises(TimeoutError):  # not in the same call as the state's check (it was, before)
        await published(patient, orders, 1, timeout=1)
    assert await published(patient, orders, 1, timeout=8) == []


async def test_completion_mid_line_in_an_unclosed_path_ranks_the_neighbours_of_its_last_space(
        client: LanguageClient) -> None:
    text = NONCOMBAT.read_text()
    target = open_file(client, NONCOMBAT, text)
    assert await published(client, target, 1) == []
    typed = text.replace("path: [Bulgaria Romania, Ukraine S.S.R., Caucasus]",
                         "path: [Bulgaria Romania, Ukraine S.S.R., Cau", 1)
    change(client, target, 2, typed)
    await published(client, target, 2)  # the bracket left open: the YAML is broken
    result = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=target),
        position=position_of(typed, "Ukraine S.S.R., Cau", len("Ukraine S.S.R., Cau"))))
    assert result is not None and result.items
    first = {item.label for item in result.items if (item.sort_text or "").startswith("0")}
    # the neighbours of Ukraine S.S.R. on the aa1942-2e map, ranked before every other space
    assert first == {"16 Sea Zone", "Belorussia", "Bulgaria Romania", "Caucasus", "Poland", "West Russia"}
    ranked = sorted(result.items, key=lambda item: item.sort_text or item.label)
    assert {item.label for item in ranked[:len(first)]} == first
    edit = ranked[0].text_edit
    assert isinstance(edit, lsp.TextEdit) and covered(typed, edit.range) == "Cau"


async def test_the_apply_all_fixes_command_makes_every_preferred_fix_at_once(client: LanguageClient) -> None:
    from lsprotocol import converters

    asked: list[lsp.WorkspaceEdit] = []

    @client.feature(lsp.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: lsp.ApplyWorkspaceEditParams) -> lsp.ApplyWorkspaceEditResult:
        asked.append(params.edit)
        return lsp.ApplyWorkspaceEditResult(applied=True)

    target = open_file(client, TYPO)
    found = await published(client, target, 1)
    assert len(found) == 2
    result = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="movecheck.applyAllFixes", arguments=[target]))
    edit = converters.get_converter().structure(result, lsp.WorkspaceEdit)
    assert edit.changes is not None and asked == [edit]  # asked of the editor, and returned
    fixed = apply_edits(TYPO.read_text(), list(edit.changes[target]))
    assert "Ukriane" not in fixed and "fihgter" not in fixed
    assert "Ukraine S.S.R." in fixed and "fighter" in fixed
    change(client, target, 2, fixed)
    assert await published(client, target, 2) == []


async def test_the_configuration_file_is_linted_as_it_is_typed(client: LanguageClient, tmp_path: Path) -> None:
    config = tmp_path / ".movecheck.yaml"
    config.write_text("select: [AA]\n", encoding="utf-8")
    target = open_file(client, config)
    assert await published(client, target, 1) == []
    typed = "select: [AA]\nignore: [ZZ999]\nbogus: 1\n"
    change(client, target, 2, typed)  # the buffer, not the disk
    found = await published(client, target, 2)
    assert sorted((str(d.code), covered(typed, d.range)) for d in found) == [("MC003", "bogus"), ("MC004", "ZZ999")]


async def test_completion_of_units_ranks_what_stands_where_the_path_starts(client: LanguageClient) -> None:
    text = NONCOMBAT.read_text()
    target = open_file(client, NONCOMBAT, text)
    assert await published(client, target, 1) == []
    written = "units: {infantry: 2}\n    path: [Norway, Finland]"
    typed = text.replace(written, written.replace("{infantry: 2}", "{}"), 1)
    assert typed != text
    change(client, target, 2, typed)
    await published(client, target, 2)
    result = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=target),
        position=position_of(typed, "units: {}\n    path: [Norway", len("units: {"))))
    assert result is not None and result.items
    first = {item.label for item in result.items if (item.sort_text or "").startswith("0")}
    assert "infantry" in first and "battleship" not in first and "Caucasus" not in first


# -- movecheck.showOdds (issue 42) --------------------------------------------------------------------

BATTLES_STATE = ROOT / "examples" / "aa" / "states" / "g1-battles.yaml"


def _odds_json(path: Path, battle: str) -> dict[str, object]:
    """``movecheck odds --format json --battle`` of a file, in this process: the battle's entry."""
    from movecheck import core
    from movecheck.aa.battle.cli import run_odds

    text, code = run_odds([str(path.relative_to(ROOT))], battle=battle, ool=[], keep_land=None, retreat_after=None,
                          retreat_below=None, best_retreat=False, submerge=None, bombard=True, exact=False, fmt="json",
                          kernel=core)
    assert code == 0
    (entry,) = json.loads(text)["battles"]
    return entry  # type: ignore[no-any-return]


async def _show_odds(client: LanguageClient, target: str, where: lsp.Position) -> dict[str, object]:
    result = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="movecheck.showOdds", arguments=[target, {"line": where.line, "character": where.character}]))
    assert isinstance(result, dict)
    return result


async def test_show_odds_gives_the_battle_under_the_cursor_in_a_battles_state(
        client: LanguageClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    text = BATTLES_STATE.read_text()
    target = open_file(client, BATTLES_STATE)
    await published(client, target, 1)
    before = len(client.messages)
    found = await _show_odds(client, target, position_of(text, "defenders: {fighter: 1, infantry: 2}", 3))
    assert found["battle"] == _odds_json(BATTLES_STATE, "Karelia S.S.R.")
    assert str(found["text"]).startswith("Karelia S.S.R. (land): 2 fighters, 4 infantry, 2 tanks against")
    assert "attacker wins 99.97 %" in str(found["text"])
    shown = client.messages[before:]
    assert [(m.type, m.message) for m in shown] == [(lsp.MessageType.Info, found["text"])]
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=target),
        range=lsp.Range(start=position_of(text, "at: Karelia S.S.R.\n  kind: land"),
                        end=position_of(text, "at: Karelia S.S.R.\n  kind: land")),
        context=lsp.CodeActionContext(diagnostics=[])))
    (odds,) = [a for a in actions or [] if isinstance(a, lsp.Command)]
    assert odds.command == "movecheck.showOdds" and odds.arguments is not None and odds.arguments[0] == target
    elsewhere = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=target),
        range=lsp.Range(start=position_of(text, "turn: {round"), end=position_of(text, "turn: {round")),
        context=lsp.CodeActionContext(diagnostics=[])))
    assert not [a for a in elsewhere or [] if isinstance(a, lsp.Command)]  # no battle there, no odds offered
    nothing = await _show_odds(client, target, position_of(text, "turn: {round"))
    assert nothing["battle"] is None and "no battle under the cursor" in str(nothing["text"])


async def test_show_odds_gives_the_battle_an_order_of_a_combat_move_ends_in(
        client: LanguageClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    text = COMBAT.read_text()
    target = open_file(client, COMBAT)
    await published(client, target, 1)
    found = await _show_odds(client, target, position_of(text, "id: karelia-finns"))
    assert found["battle"] == _odds_json(COMBAT, "Karelia S.S.R.")

    async def offered(where: lsp.Position) -> list[lsp.Command]:
        got = await client.text_document_code_action_async(lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=target), range=lsp.Range(start=where, end=where),
            context=lsp.CodeActionContext(diagnostics=[])))
        return [a for a in got or [] if isinstance(a, lsp.Command)]

    assert [c.command for c in await offered(position_of(text, "id: karelia-finns"))] == ["movecheck.showOdds"]
    edited = text.replace("path: [Finland, Karelia S.S.R.]", "path: [Finland, Karelia S.S.R., Archangel]")
    change(client, target, 2, edited)
    await published(client, target, 2)
    assert await offered(position_of(edited, "id: karelia-finns")) == []  # illegal orders: their battles are unknown
    illegal = await _show_odds(client, target, position_of(edited, "id: karelia-finns"))
    assert illegal["battle"] is None and "the orders are not legal" in str(illegal["text"])  # the buffer, not the disk
