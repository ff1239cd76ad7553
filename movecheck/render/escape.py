"""Make text from the input harmless on a terminal, in a CI log and in JSON.

Names, ``state:`` values, keys and file names come from files that someone
else may have written.  Printed as they are, a control character in one of
them could clear the screen (``ESC [2J``), rewrite the line before it (CR),
forge a summary line or a GitHub ``::error`` command (LF), or reorder what a
reader sees (bidi overrides such as U+202E).

:func:`escape` is the one function every human or CI renderer applies at the
point of output (messages, file names, source lines): each character of
Unicode category Cc (C0, DEL, C1), Cf (bidi controls, zero-width and other
invisible format characters), Cs (lone surrogates, e.g. the bytes of a file
name that is not UTF-8, which Python's ``surrogateescape`` turns into
U+DC80..U+DCFF), Zl or Zp (U+2028, U+2029) becomes a visible escape in
Python's notation: ``\\n``, ``\\r``, ``\\t``, ``\\x1b``, ``\\x9b``,
``\\u202e``, ``\\U000e0041``.  A byte that was not UTF-8 shows as the byte,
``\\xff``.  Backslashes themselves are left alone, so ordinary text (and
every report of ordinary input) is unchanged.

:func:`escape_json` does the same job for JSON text that ``json.dumps``
(``ensure_ascii=False``) wrote: the characters above become JSON ``\\uXXXX``
escapes (so a JSON reader gets the original text back), except lone
surrogates, which cannot be written as UTF-8 and which strict JSON readers
refuse: they become the text of their visible escape (``\\xff``).
"""

from __future__ import annotations

import re
from functools import lru_cache

# Every code point of the categories Cc, Cf, Cs, Zl and Zp (Unicode 14.0, plus the
# format controls U+13439..U+1343F that Unicode 15.0 added).  tests/test_spoofing.py
# checks the table against the running Python's unicodedata.
_UNSAFE_RANGES = (
    "\x00-\x1f\x7f-\x9f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ud800-\udfff\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f"
)


@lru_cache(maxsize=1)
def unsafe() -> re.Pattern[str]:
    """The pattern of one unsafe character (compiled on first use: a clean run never needs it)."""
    return re.compile(f"[{_UNSAFE_RANGES}]")


@lru_cache(maxsize=1)
def _unsafe_in_json() -> re.Pattern[str]:
    # JSON text: json.dumps already escapes C0 controls inside strings, and the raw LFs
    # left in its output are the indentation between tokens.
    return re.compile(f"[{_UNSAFE_RANGES.replace(chr(0) + '-' + chr(0x1f), '', 1)}]")


_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def visible(char: str, *, undecodable: bool = True) -> str:
    """The visible escape of one character: ``\\n``, ``\\x1b``, ``\\u202e``, ``\\xff`` for an undecodable byte.

    With ``undecodable=False`` a lone surrogate is written ``\\udcff`` like any other
    character, which is also how a YAML double-quoted scalar reads it back.
    """
    if char in _NAMED:
        return _NAMED[char]
    point = ord(char)
    if point < 0x100:
        return f"\\x{point:02x}"
    if undecodable and 0xDC80 <= point <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{point - 0xDC00:02x}"
    if point <= 0xFFFF:
        return f"\\u{point:04x}"
    return f"\\U{point:08x}"


def escape(text: str, keep: str = "\t") -> str:
    """``text`` with every unsafe character but those in ``keep`` shown as a visible escape.

    Tabs are kept by default: they move nothing but the cursor, and the ``full``
    format keeps them so that its caret lines up under the source line.
    """
    if text.isprintable():  # the common case, decided in C (isprintable is stricter than unsafe())
        return text
    return unsafe().sub(lambda match: match.group() if match.group() in keep else visible(match.group()), text)


def _json_escape(match: re.Match[str]) -> str:
    char = match.group()
    point = ord(char)
    if 0xD800 <= point <= 0xDFFF:  # cannot be UTF-8: the text of the visible escape, JSON-escaped
        return visible(char).replace("\\", "\\\\")
    if point > 0xFFFF:  # a UTF-16 surrogate pair, as JSON writes astral characters
        point -= 0x10000
        return f"\\u{0xD800 + (point >> 10):04x}\\u{0xDC00 + (point & 0x3FF):04x}"
    return f"\\u{point:04x}"


def escape_json(text: str) -> str:
    """JSON text from ``json.dumps(..., ensure_ascii=False)`` with no unsafe raw character left in it."""
    if text.isascii() and text.isprintable():
        return text
    return _unsafe_in_json().sub(_json_escape, text)



# -- mentions and links (the post of a turn) --------------------------------------------------------

FILE_SUFFIXES = frozenset({"yaml", "yml", "json", "toml", "svg", "png", "txt", "xml", "po", "mo"})
"""Last labels of a dotted word that are movecheck's own file types, not top-level domains: ``g1.yaml`` stays."""

_AT = "\uff20"  # FULLWIDTH COMMERCIAL AT
_DOT = "\uff0e"  # FULLWIDTH FULL STOP
_SLASHES = "\uff0f\uff0f"  # FULLWIDTH SOLIDUS, twice


@lru_cache(maxsize=1)
def _dotted() -> re.Pattern[str]:
    # a word of labels joined by dots (``evil.com``, ``www.x.yaml``, ``a.co.uk``), as autolinkers read a host
    return re.compile(r"(?<![\w.-])[\w-]+(?:\.[\w-]+)+")


def _host_dots(match: re.Match[str]) -> str:
    word = match.group()
    labels = word.split(".")
    last = labels[-1]
    tld = len(last) >= 2 and last.isalpha() and last.casefold() not in FILE_SUFFIXES
    linkable = labels[0].casefold() == "www" or tld or last.casefold().startswith("xn--")
    return word.replace(".", _DOT) if linkable else word


def unlinked(text: str) -> str:
    """``text`` that no forum turns into a mention or a link, still readable.

    Discourse, NodeBB and GitHub notify ``@name``; they, phpBB and mail readers make links
    of ``http://...``, ``//host``, ``www.host`` and ``user@host`` (and markdown-it's linkify
    of any ``host.tld``).  So every ``@`` becomes a full-width at (U+FF20), every ``//`` two
    full-width solidi (U+FF0F) and the dots of a word that reads as a host (its first label
    ``www``, or its last one of two letters or more and not a file type of ours such as
    ``yaml``) full-width full stops (U+FF0E): the issue's ``@moderators read
    https://evil.example/login`` still reads the same, and links nothing.  Names such as
    ``Karelia S.S.R.`` and file names such as ``orders/g1.yaml`` are unchanged.
    """
    if "@" in text:
        text = text.replace("@", _AT)
    if "//" in text:
        text = text.replace("//", _SLASHES)
    if "." in text:
        text = _dotted().sub(_host_dots, text)
    return text
