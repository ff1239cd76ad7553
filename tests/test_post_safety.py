"""Issue 35: no text a file supplies becomes a mention or a link in the referee's post.

A player's order ``id:``, an unknown name quoted in a finding, a user map's names (powers,
spaces, unit types) reach the post of ``movecheck summary``.  Discourse, NodeBB and GitHub
notify ``@name``; they, phpBB and mail readers link ``https://...``, ``www.host``,
``user@host`` and (markdown-it's linkify, as NodeBB runs it) a bare ``host.tld``.  Each post
format is read back as its forum reads it: the markdown by markdown-it with linkify on, the
bbcode by a small reader of phpBB's tags and its auto-linking (``make_clickable``), and the
plain text by the same auto-linking a mail reader does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from movecheck.render.escape import unlinked

HOSTILE = "@moderators read https://evil.example/login"
"""The text of the issue, and a few more ways to a link or a mention."""
MORE = ("www.evil.com", "mail x@evil.com", "//localhost/a", "see evil.co.uk/x", "@here", "WWW.EVIL.ORG",
        "evil.com", "ftp://evil.example", "@staff_2", "evil.xn--p1ai")

MAP = """movecheck: 1
system: aa
kind: map
name: "@mapmakers https://evil.example/map"
powers: ["@reds www.evil.com", Blues]
sides: {East: ["@reds www.evil.com"], West: [Blues]}
ipcs: {"@reds www.evil.com": 12, Blues: 12}
territories:
  - {name: 1 Sea Zone, sea: true}
  - {name: "@here Redland https://evil.example/r", production: 6, capital: "@reds www.evil.com"}
  - {name: "evil.com/land", production: 2}
  - {name: Blueland, production: 6, capital: Blues}
connections:
  - [1 Sea Zone, "@here Redland https://evil.example/r"]
  - [1 Sea Zone, Blueland]
  - ["@here Redland https://evil.example/r", "evil.com/land"]
control: {"@here Redland https://evil.example/r": "@reds www.evil.com", Blueland: Blues, "evil.com/land": Blues}
units:
  - {at: "@here Redland https://evil.example/r", power: "@reds www.evil.com", type: factory}
  - {at: "@here Redland https://evil.example/r", power: "@reds www.evil.com", type: "@inf x@evil.com", count: 3}
  - {at: Blueland, power: Blues, type: factory}
  - {at: Blueland, power: Blues, type: "@inf x@evil.com", count: 2}
unit_types:
  "@inf x@evil.com": {movement: 1, attack: 1, defense: 2, domain: land, cost: 3, transport_cost: 2}
  factory: {movement: 0, attack: 0, defense: 0, domain: land}
"""

STATE = """movecheck: 1
system: aa
map: map.yaml
turn: {round: 1, power: "@reds www.evil.com", phase: PHASE}
ipcs: {"@reds www.evil.com": 12, Blues: 12}
units:
- {at: "@here Redland https://evil.example/r", power: "@reds www.evil.com", type: factory}
- {at: "@here Redland https://evil.example/r", power: "@reds www.evil.com", type: "@inf x@evil.com", count: 3}
- {at: Blueland, power: Blues, type: factory}
- {at: Blueland, power: Blues, type: "@inf x@evil.com", count: 2}
- {at: "@here Redland https://evil.example/r", power: "@reds www.evil.com", type: "@inf x@evil.com",
   id: "@ids www.evil.com"}
"""

COMBAT = """movecheck: 1
system: aa
state: combat.yaml
power: "@reds www.evil.com"
phase: combat_move
moves:
  - id: "@moderators read https://evil.example/login"
    units: {"@inf x@evil.com": 1}
    path: ["@here Redland https://evil.example/r", "evil.com/land"]
  - id: "@team2 www.evil.org"
    units: {"@admins http://evil.example/u": 1}
    path: ["@here Redland https://evil.example/r", "@staff //localhost/t"]
"""

LEGAL_COMBAT = """movecheck: 1
system: aa
state: combat.yaml
power: "@reds www.evil.com"
phase: combat_move
moves:
  - id: "@moderators read https://evil.example/login"
    units: {"@inf x@evil.com": 2}
    path: ["@here Redland https://evil.example/r", "evil.com/land"]
  - units: ["@ids www.evil.com"]
    path: ["@here Redland https://evil.example/r", "evil.com/land"]
"""

PURCHASE = """movecheck: 1
system: aa
state: purchase.yaml
power: "@reds www.evil.com"
phase: purchase
purchase: {"@inf x@evil.com": 2, "@buyers evil.com": 1}
"""

FORMATS = ("markdown", "bbcode", "text", "json")

# -- how each forum reads a post ---------------------------------------------------------------

MENTION = re.compile(r"(?<![\w@])@[A-Za-z0-9_][\w.-]*")
"""A mention as Discourse, NodeBB and GitHub find one: ``@`` then a name, not inside a word."""
SCHEME = re.compile(r"(?i)\b(?:(?:https?|ftp|file)://|mailto:[^\s@]*@)")
"""A link with a scheme, as GitHub, phpBB and mail readers link it."""
WWW = re.compile(r"(?i)(?<![\w.-])www\.[\w-]+")
"""GitHub's and phpBB's ``www.`` links (any host after it)."""
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PROTOCOL_RELATIVE = re.compile(r"(?<![:/])//[\w-]+")


def _autolinks(text: str) -> list[str]:
    """What GitHub, phpBB (``make_clickable``) and a mail reader would make links or mentions of in ``text``."""
    found: list[str] = []
    for pattern in (MENTION, SCHEME, WWW, EMAIL, PROTOCOL_RELATIVE):
        found += pattern.findall(text)
    return found


def _markdown_links(text: str) -> list[str]:
    """The links markdown-it (with linkify, as NodeBB and Discourse run it) makes of the markdown post."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark", {"linkify": True}).enable(["linkify", "table"])
    links = []
    for token in parser.parse(text):
        for child in token.children or ():
            if child.type == "link_open":
                links.append(str(child.attrGet("href")))
            if child.type == "image":
                links.append(str(child.attrGet("src")))
    return links


def _markdown_texts(text: str) -> list[str]:
    """The text the markdown post shows (what a mention or an autolink would be found in)."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable("table")
    return [child.content for token in parser.parse(text) for child in token.children or ()
            if child.type in ("text", "code_inline")]


BB_TAG = re.compile(r"\[(/?)([A-Za-z*]+)(?:=([^\]]*))?\]")


def _bbcode_reading(text: str) -> tuple[list[str], list[str]]:
    """The tags of a bbcode post, and what phpBB would link in the text between them."""
    tags = [tag.lower() for _closing, tag, _value in BB_TAG.findall(text)]
    plain = BB_TAG.sub(" ", text)
    return tags, _autolinks(plain)


def _assert_safe(fmt: str, out: str) -> None:
    if fmt == "markdown":
        assert _markdown_links(out) == []
        for shown in _markdown_texts(out):
            assert _autolinks(shown) == [], shown
    elif fmt == "bbcode":
        tags, links = _bbcode_reading(out)
        assert not {"url", "img", "email", "quote", "flash"} & set(tags), tags
        assert links == []
    elif fmt == "json":
        data = json.loads(out)
        shown = [data["title"]] + [s["title"] for s in data["sections"]]
        for section in data["sections"]:
            for block in section["blocks"]:
                shown += [block.get("text", ""), *block.get("items", []), *block.get("headers", []),
                          *(cell for row in block.get("rows", []) for cell in row)]
        for line in shown:
            assert _autolinks(line) == [], line
    else:
        assert _autolinks(out) == []


# -- the writers, on every kind of block -------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_writer_lets_a_mention_or_a_link_through(fmt: str) -> None:
    from movecheck.summary import Post, Section
    from movecheck.summary.writers import WRITERS

    hostile = [HOSTILE, *MORE]
    section = Section(HOSTILE, "moves")
    section.paragraph(" ".join(hostile))
    section.items(hostile)
    section.table([HOSTILE, "www.evil.com"], [[word, word] for word in hostile])
    out = WRITERS[fmt](Post(f"{HOSTILE}, round 1", [], [section]))
    _assert_safe(fmt, out)
    assert "moderators read https" in out  # still readable


def test_the_readers_of_the_test_find_what_they_should() -> None:
    # the hostile text itself is found by every reader: the checks above can fail
    assert _markdown_links(HOSTILE) and _markdown_links("see evil.co.uk/x") and _markdown_links("x@evil.com")
    assert len(_autolinks(HOSTILE)) == 2
    assert _autolinks("www.evil.com") and _autolinks("//localhost/a") and _autolinks("ftp://evil.example")
    assert _bbcode_reading("[url=http://a]b[/url] www.evil.com")[0] == ["url", "url"]


@pytest.mark.parametrize(
    ("text", "shown"),
    [("Karelia S.S.R.", "Karelia S.S.R."), ("orders/g1-combat.yaml", "orders/g1-combat.yaml"),
     ("1.5 IPCs", "1.5 IPCs"), ("@mods", "\uff20mods"), ("evil.com", "evil\uff0ecom"),
     ("https://a.example/b", "https:\uff0f\uff0fa\uff0eexample/b"), ("www.x.yaml", "www\uff0ex\uff0eyaml")],
)
def test_unlinked_changes_only_what_could_link(text: str, shown: str) -> None:
    assert unlinked(text) == shown


# -- whole runs: every path by which file text reaches the post ----------------------------------


@pytest.fixture
def hostile_game(tmp_path: Path) -> Path:
    (tmp_path / "map.yaml").write_text(MAP, encoding="utf-8")
    (tmp_path / "combat.yaml").write_text(STATE.replace("PHASE", "combat_move"), encoding="utf-8")
    (tmp_path / "purchase.yaml").write_text(STATE.replace("PHASE", "purchase"), encoding="utf-8")
    (tmp_path / "orders.yaml").write_text(COMBAT, encoding="utf-8")
    (tmp_path / "legal.yaml").write_text(LEGAL_COMBAT, encoding="utf-8")
    (tmp_path / "buy.yaml").write_text(PURCHASE, encoding="utf-8")
    (tmp_path / "@owner www.evil.com.yaml").write_text(LEGAL_COMBAT, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("files", [["orders.yaml"], ["legal.yaml"], ["buy.yaml"], ["combat.yaml"],
                                   ["@owner www.evil.com.yaml"]])
def test_a_post_of_hostile_files_has_no_mention_and_no_link(run_main, hostile_game: Path, files, fmt: str) -> None:
    code, out, err = run_main(["summary", *files, "--format", fmt], cwd=hostile_game)
    assert code in (0, 1), err
    assert "evil" in out  # the hostile names are in the post, made harmless
    if files == ["legal.yaml"]:
        assert "\uff20ids www\uff0eevil\uff0ecom" in out or "\\uff20ids" in out  # a unit's id, told harmless
    _assert_safe(fmt, out)


def test_the_json_facts_keep_the_names_as_the_files_write_them(run_main, hostile_game: Path) -> None:
    _code, out, _err = run_main(["summary", "legal.yaml", "--format", "json"], cwd=hostile_game)
    data = json.loads(out)
    moves = next(s for s in data["sections"] if s["kind"] == "moves")
    assert moves["facts"]["moves"][0]["id"] == HOSTILE  # data for scripts, not a post


def test_the_picture_of_hostile_names_is_well_formed_svg(run_main, hostile_game: Path) -> None:
    from xml.etree import ElementTree

    (hostile_game / "map.yaml").write_text(MAP.replace("evil.com/land", r"</text><script>x</script>\x1b[2J"),
                                           encoding="utf-8")
    (hostile_game / "combat.yaml").write_text(STATE.replace("PHASE", "combat_move"), encoding="utf-8")
    code, out, err = run_main(["render", "combat.yaml"], cwd=hostile_game)
    assert code == 0, err
    root = ElementTree.fromstring(out)
    assert not [e for e in root.iter() if e.tag.rsplit("}", 1)[-1] in ("script", "foreignObject", "a")]
    assert "\x1b" not in out and "&lt;script&gt;" in out  # the name is there, as text


# -- the terminal: control characters from the same files ----------------------------------------

CONTROLS = "\x1b\x07\x9b\u202e\r"


@pytest.mark.parametrize("command", [["summary", "-f", "markdown"], ["summary", "-f", "bbcode"],
                                     ["summary", "-f", "text"], ["summary", "-f", "json"], ["check"],
                                     ["check", "--format", "full"], ["check", "--format", "github"]])
def test_control_characters_in_the_files_never_reach_the_terminal(run_main, hostile_game: Path, command) -> None:
    # YAML double-quoted escapes: the files hold the raw characters once read
    hostile = r"\e[2J\a\x9b\u202e\r"
    for name in ("orders.yaml", "legal.yaml"):
        text = (hostile_game / name).read_text(encoding="utf-8").replace("read https", f"read {hostile} https")
        (hostile_game / name).write_text(text.replace('"@admins', f'"{hostile}@admins'), encoding="utf-8")
    code, out, err = run_main([*command, "orders.yaml", "legal.yaml"], cwd=hostile_game)
    assert code in (0, 1, 2), err
    assert not any(char in out + err for char in CONTROLS), command
    assert "\\x1b" in out + err or "\\u001b" in out + err  # shown, escaped


def test_the_text_underlines_a_title_made_full_width_to_its_width() -> None:
    from movecheck.summary import Post, Section
    from movecheck.summary.writers import text

    out = text(Post("@reds, round 1", [], [Section("Karelia S.S.R.", "moves")])).splitlines()
    assert out[0] == "\uff20reds, round 1" and out[1] == "=" * 15  # the full-width at takes two columns
    assert out[4] == "-" * len("Karelia S.S.R.")


def test_the_text_table_lines_up_full_width_names() -> None:
    from movecheck.summary import Post, Section
    from movecheck.summary.writers import text

    section = Section("Treasuries", "treasury")
    section.table(["power", "IPCs"], [["@reds", "12"], ["Blues", "12"]])
    lines = text(Post("t", [], [section])).splitlines()
    assert lines[-2:] == ["\uff20reds  12", "Blues   12"]  # the IPCs in one column: the at sign takes two
