"""``movecheck summary``: the post of every example, in the four formats, snapshot-tested and parsed back.

Each example's post is snapshotted in full once, as ``--format json`` (its words and its facts), in a file of its
own under ``tests/__snapshots__/test_summary/``: a change to one post is one file's diff.  Its other formats are
held to the same post (each is what its writer makes of the json's sections), and the writers' layout is
snapshotted on one example in every format (``test_summary.ambr``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from reuse import summarize_once
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from movecheck.summary import Items, Paragraph, Post, Section, Table
from movecheck.summary.writers import WRITERS
from tests.sampling import sampled

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.relative_to(REPO).as_posix() for folder in ("examples/aa", "examples/maneuver")
                  for p in (REPO / folder).rglob("*.yaml") if "anniversary" not in p.parts)
"""Every example but the Anniversary round, whose posts are committed and compared (tests/aa/test_anniversary.py)."""
FORMATS = ("markdown", "bbcode", "text", "json")


def _summary(run_main, *args: str) -> tuple[int, str, str]:
    return run_main(["summary", *args], cwd=REPO)


@pytest.fixture(autouse=True)
def checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each example's files are checked once (per language and folder): every later run of ``movecheck summary``
    on them (another ``--format``) writes a copy of that post (tests/reuse.py)."""
    summarize_once(monkeypatch)


class PostFile(SingleFileSnapshotExtension):
    """Each example's post in full in a file of its own (``tests/__snapshots__/test_summary/``, the ``--format json``
    post: its words and its facts), so that a change to one post is one file's diff (issue 36)."""

    file_extension = "json"
    _write_mode = WriteMode.TEXT


def _post_of(data: dict) -> Post:
    """The post a ``--format json`` post was written from (its sections' blocks and facts)."""
    sections = []
    for section in data["sections"]:
        blocks: list = []
        for block in section["blocks"]:
            if block["type"] == "paragraph":
                blocks.append(Paragraph(block["text"]))
            elif block["type"] == "list":
                blocks.append(Items(tuple(block["items"])))
            else:
                blocks.append(Table(tuple(block["headers"]), tuple(tuple(row) for row in block["rows"])))
        sections.append(Section(section["title"], section["kind"], blocks, section["facts"]))
    return Post(data["title"], data["files"], sections)


def _example_id(path: str) -> str:
    return path.removeprefix("examples/").replace("/", "-")


@pytest.mark.parametrize(
    "example", sampled("tests/test_summary.py::test_every_example_in_every_format", EXAMPLES, _example_id)
)
def test_every_example_in_every_format(example: str, run_main, snapshot) -> None:
    """A sampled sweep (tests/sampling.py): every third example in the default run, the others under ``slow``; the
    writers' layout is snapshotted in every format by :func:`test_one_post_in_every_format_in_full` in both runs."""
    posts = {}
    for fmt in FORMATS:
        code, out, err = _summary(run_main, example, "--format", fmt)
        assert code in (0, 1), err
        assert err == ""
        posts[fmt] = out
    assert posts["json"] == snapshot(extension_class=PostFile)  # the post in full
    data = json.loads(posts["json"])
    post = _post_of(data)
    assert json.loads(WRITERS["json"](post)) == data
    for fmt in ("markdown", "bbcode", "text"):  # the same post, each format writing it its own way
        assert posts[fmt] == WRITERS[fmt](post), fmt
    illegal = sum(f["illegal"] + f["unchecked"] for f in data["files"])
    if illegal:  # the findings come first, and say the file is not done
        assert data["sections"][0]["kind"] == "findings"
        later = [posts["text"].index(s["title"] + "\n") for s in data["sections"][1:]]
        assert posts["text"].index("NOT DONE") < min(later, default=len(posts["text"]))


@pytest.mark.parametrize("fmt", FORMATS)
def test_one_post_in_every_format_in_full(fmt: str, run_main, snapshot) -> None:
    # the writers' own layout (headings, lists, tables, escapes), which the posts above check only against the writers
    code, out, err = _summary(run_main, "examples/aa/orders/g1-combat.yaml", "--format", fmt)
    assert (code, err) == (0, "")
    assert out == snapshot


def _markdown_tokens(text: str) -> list:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").parse(text)


def test_the_markdown_renders_with_tables_and_lists(run_main) -> None:
    _code, out, _err = _summary(run_main, "examples/aa/orders/g1-combat.yaml")
    tokens = _markdown_tokens(out)
    kinds = [t.type for t in tokens]
    assert kinds.count("table_open") == 2  # the battles and the treasuries
    assert kinds.count("bullet_list_open") == 2  # the moves and the captures
    cells = [t.content for t in tokens if t.type == "inline"]
    assert "1 arm: West Russia → Archangel → Karelia S.S.R. (blitz through Archangel)" in cells
    assert "1 inf, 1 art: 17 Sea Zone → Egypt (amphibious assault from 17 Sea Zone)" in cells
    header = [t.content for t in tokens if t.type == "inline"][cells.index("space"):cells.index("space") + 4]
    assert header == ["space", "attackers", "defenders", "from"]


def test_markdown_escapes_what_would_become_markup(run_main) -> None:
    from markdown_it import MarkdownIt

    _code, out, _err = _summary(run_main, "examples/maneuver/corps-orders.yaml")
    html = MarkdownIt("commonmark").enable("table").render(out)
    assert "<em>" not in html and "<strong>" not in html
    assert "all_ahead" in html  # the underscores shown, not eaten


BBCODE_EXAMPLES = ["examples/aa/orders/g1-battles.yaml", "examples/aa/orders/variants/aa101-not-adjacent.yaml",
                   "examples/aa/states/g1-combat.yaml", "examples/maneuver/corps-orders.yaml"]


@pytest.mark.parametrize("example", BBCODE_EXAMPLES)
def test_bbcode_tags_are_balanced_and_of_the_phpbb_dialect(example: str, run_main) -> None:
    _code, out, _err = _summary(run_main, example, "--format", "bbcode")
    stack = []
    for closing, tag in re.findall(r"\[(/?)(\w+|\*)(?:=[^\]]*)?\]", out):
        assert tag in ("b", "list", "*", "size"), tag  # no [table]: phpBB's default dialect has none
        if tag == "*":
            assert stack and stack[-1] == "list"
        elif closing:
            assert stack.pop() == tag
        else:
            stack.append(tag)
    assert stack == []
    assert "[list]" in out


def test_bbcode_brackets_in_text_cannot_open_tags() -> None:
    from movecheck.summary import Post, Section
    from movecheck.summary.writers import bbcode

    section = Section("[b]x", "moves")
    section.items(["[url=http://a]b[/url]"])
    out = bbcode(Post("t", [], [section]))
    assert "[url" not in out and "[b]x" not in out


@pytest.mark.parametrize(
    "example",  # a sampled sweep (tests/sampling.py): the same examples as the sweep above in the default run
    sampled("tests/test_summary.py::test_json_validates_against_the_summary_schema", EXAMPLES),
)
def test_json_validates_against_the_summary_schema(example: str, run_main) -> None:
    from movecheck.schema import validate_data

    _code, out, _err = _summary(run_main, example, "--format", "json")
    assert validate_data("summary", json.loads(out)) == []


def test_the_schema_is_printed(run_main) -> None:
    code, out, _err = run_main(["schema", "summary"])
    assert code == 0 and json.loads(out)["$id"] == "https://movecheck.dev/schemas/summary/v1.json"


def test_an_illegal_move_is_never_told_as_done(run_main) -> None:
    code, out, _err = _summary(run_main, "examples/aa/orders/variants/aa101-not-adjacent.yaml", "-f", "text")
    assert code == 1
    moves = out.split("Combat move:")[1]
    assert "Finland → Archangel" not in moves  # the refused order
    assert "AA101" in out.split("Combat move:")[0]
    assert "Battles to fight" not in out and "Territories taken" not in out


def test_a_turn_of_several_files_is_one_post(run_main) -> None:
    code, out, _err = _summary(run_main, "examples/aa/orders/g1-combat.yaml", "examples/aa/orders/g1-battles.yaml",
                               "-f", "json")
    data = json.loads(out)
    assert code == 0 and data["title"] == "Germans, round 1"
    kinds = [s["kind"] for s in data["sections"]]
    assert kinds.count("moves") == 1 and kinds.count("battle_results") == 1 and "findings" not in kinds
    captured = [c["at"] for s in data["sections"] if s["kind"] == "captures" for c in s["facts"]["captured"]]
    assert captured == ["Archangel", "Belorussia", "Caucasus", "Egypt", "Karelia S.S.R."]


def test_a_state_alone_summarises_the_board(run_main) -> None:
    _code, out, _err = _summary(run_main, "examples/aa/states/g1-combat.yaml", "-f", "json")
    data = json.loads(out)
    powers = {p["power"]: p for p in data["sections"][0]["facts"]["powers"]}
    assert powers["Germans"]["ipcs"] == 41 and powers["Russians"]["territories"] == 12
    spaces = data["sections"][1]["facts"]["spaces"]
    assert spaces["5 Sea Zone"]["Germans"] == {"cruiser": 1, "submarine": 2, "transport": 1}


def test_russian_translates_the_words_not_the_names(run_main) -> None:
    _code, out, _err = _summary(run_main, "examples/aa/orders/g1-battles.yaml", "--lang", "ru", "-f", "text")
    assert "Взятые территории" in out and "Karelia S.S.R. захвачена (Germans) у Russians" in out  # noqa: RUF001
    assert "Territories taken" not in out


def test_the_post_goes_to_a_file(run_main, tmp_path) -> None:
    target = tmp_path / "post.md"
    code, out, _err = _summary(run_main, "examples/aa/orders/g1-combat.yaml", "-o", str(target))
    assert code == 0 and out == "" and target.read_text(encoding="utf-8").startswith("## Germans, round 1")


def test_a_missing_file_is_one_line_and_exit_2(run_main) -> None:
    code, out, err = _summary(run_main, "examples/aa/orders/nope.yaml")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_no_writer_lets_a_control_character_through() -> None:
    from movecheck.summary import Post, Section
    from movecheck.summary.writers import WRITERS

    section = Section("Karelia\x1b[2J", "moves")
    section.items(["1 inf: A\u202eB → C\rD"])
    section.table(["space"], [["E\x9bF"]])
    for fmt, write in WRITERS.items():
        out = write(Post("t\x1b]0;x\x07", [], [section]))
        assert not any(ch in out for ch in "\x1b\x07\x9b\u202e\r"), fmt


def test_the_board_tells_what_was_bought(run_main) -> None:
    _code, out, _err = _summary(run_main, "examples/aa/states/g1-combat.yaml", "-f", "json")
    board = json.loads(out)["sections"][0]
    assert board["facts"]["purchased"] == {"infantry": 3, "carrier": 1}


def test_a_purchase_is_told_with_its_cost_and_the_treasury_after_it(run_main) -> None:
    code, out, _err = _summary(run_main, "examples/aa/orders/g1-purchase.yaml", "-f", "json")
    data = json.loads(out)
    purchase = next(s for s in data["sections"] if s["kind"] == "purchase")
    assert code == 0 and purchase["facts"]["purchased"] == {"infantry": 3, "carrier": 1}
    assert purchase["blocks"][0]["text"] == "Bought: 3 inf, 1 cv (23 IPCs)"
    treasury = next(s for s in data["sections"] if s["kind"] == "treasury")
    assert treasury["facts"]["ipcs"]["Germans"] == 18


def test_an_illegal_purchase_is_not_told_as_bought(run_main) -> None:
    code, out, _err = _summary(run_main, "examples/aa/orders/variants/aa601-over-budget.yaml", "-f", "text")
    assert code == 1 and "AA601" in out and "Bought" not in out and "Treasuries" not in out


def test_a_mobilization_tells_placements_income_and_the_treasury_after_it(run_main) -> None:
    code, out, _err = _summary(run_main, "examples/aa/orders/g1-mobilize.yaml", "-f", "json")
    data = json.loads(out)
    mob = next(s for s in data["sections"] if s["kind"] == "mobilize")
    assert code == 0 and [p["at"] for p in mob["facts"]["placed"]] == ["Germany", "5 Sea Zone"]
    assert mob["facts"]["placed"][0]["units"] == {"infantry": 3}
    assert mob["facts"]["waiting_fighters_aboard"] == [{"type": "fighter", "at": "5 Sea Zone"}]
    assert mob["facts"]["income"]["amount"] == 50 and mob["facts"]["income"]["territories"]["Germany"] == 10
    texts = [t for b in mob["blocks"] if b["type"] == "list" for t in b["items"]]
    assert "3 inf: Germany" in texts and any(t.startswith("income of the Germans: 50 IPCs from 20") for t in texts)
    treasury = next(s for s in data["sections"] if s["kind"] == "treasury")
    assert treasury["facts"]["ipcs"]["Germans"] == 91


def test_units_left_unplaced_are_told_with_their_refund(run_main) -> None:
    code, out, _err = _summary(run_main, "examples/aa/game/orders/r1-japanese-mobilize.yaml", "-f", "text")
    assert code == 0 and "left unplaced: 2 inf, refunded (6 IPCs back)" in out


def test_an_illegal_mobilization_does_not_tell_the_end_of_the_turn(run_main) -> None:
    code, out, _err = _summary(run_main, "examples/aa/orders/variants/mob-aa703-over-capacity.yaml", "-f", "text")
    assert code == 1 and "AA703" in out and "1 ic: Finland (a new industrial complex)" in out
    assert "income of" not in out and "Treasuries" not in out


def test_battle_results_tell_damage_and_bombing(run_main) -> None:
    _code, out, _err = _summary(run_main, "examples/aa/game/orders/r1-germans-battles.yaml", "-f", "json")
    battles = next(s for s in json.loads(out)["sections"] if s["kind"] == "battle_results")
    by_space = {b["at"]: b for b in battles["facts"]["battles"]}
    assert by_space["17 Sea Zone"]["damaged"] == {"unsaid": {"battleship": 1}}
    assert by_space["United Kingdom"]["bombing"] == {"at": "United Kingdom", "damage": 6}


def test_a_submerged_submarine_is_in_the_battle_post(run_main, tmp_path: Path) -> None:
    from tests.aa.test_battles import results_file, with_result

    path = results_file(tmp_path, with_result("7 Sea Zone", submerged={"attacker": 1}))
    code, out, err = _summary(run_main, str(path), "-f", "text", "--root", "/", "--isolated")
    assert code == 0, out + err
    assert "- 7 Sea Zone: submerged: 1 sub (attacker)" in out
    code, out, err = _summary(run_main, str(path), "-f", "json", "--root", "/", "--isolated")
    battles = next(s for s in json.loads(out)["sections"] if s["kind"] == "battle_results")
    by_space = {b["at"]: b for b in battles["facts"]["battles"]}
    assert by_space["7 Sea Zone"]["submerged"] == {"attacker": 1} and "submerged" not in by_space["Egypt"]


def test_sections_follow_the_turn_not_the_command_line(run_main) -> None:
    """``summary orders/r1-germans-*.yaml`` lists the files alphabetically (battles first): the post goes by round,
    power order and phase instead."""
    game = "examples/aa/game/orders/"
    files = [f"{game}r1-japanese-purchase.yaml", *(f"{game}r1-germans-{phase}.yaml" for phase in (
        "battles", "combat", "mobilize", "noncombat", "purchase"))]
    code, out, err = _summary(run_main, *files, "-f", "json")
    assert code == 0, err
    titles = [s["title"].rpartition("/")[2] for s in json.loads(out)["sections"] if "/" in s["title"]]
    assert titles == ["r1-germans-purchase.yaml", "r1-germans-combat.yaml", "r1-germans-battles.yaml",
                      "r1-germans-noncombat.yaml", "r1-germans-mobilize.yaml", "r1-japanese-purchase.yaml"]
    _code, again, _err = _summary(run_main, *reversed(files), "-f", "json")
    assert json.loads(again)["sections"] == json.loads(out)["sections"]  # the command line's order changes nothing


def test_dice_from_a_dice_chain_are_said_to_be_checked_against_it(run_main) -> None:
    """Issues 38/39: a result whose dice come from the file's dice chain says so, in English and in Russian; a
    result whose rounds give their own dice keeps ``dice checked (N rounds)``."""
    _code, out, _err = _summary(run_main, "examples/aa/dice/results.yaml", "-f", "text")
    assert "Karelia S.S.R.: dice checked against the dice chain (3 rounds)" in out
    assert "dice checked (" not in out
    _code, out, _err = _summary(run_main, "examples/aa/dice/results.yaml", "-f", "text", "--lang", "ru")
    assert "кубики проверены по цепочке кубиков (3 раунда)" in out
    _code, out, _err = _summary(run_main, "examples/aa/orders/variants/bt-aa508-bombing-no-factory.yaml", "-f", "text")
    assert "Caucasus: dice checked (2 rounds)" in out and "dice chain" not in out
