"""The map and edition of an aa state: a built-in map, a map file beside the state, or one inline.

Each map file is read once per process (``_MAP_FILES``), as a regular file within the size
limit and under the run's root; the edition is the state's (or the configured one), else
its map's, else the default.
"""

from __future__ import annotations

import os
import stat
from typing import Any

from movecheck.aa.editions import DEFAULT_EDITION, Edition, close_editions, find_edition
from movecheck.aa.maps import BUILTIN_MAPS, builtin_map
from movecheck.aa.maps.gamemap import GameMap
from movecheck.document import Document
from movecheck.findings import Finding
from movecheck.i18n import _
from movecheck.reading import InputError
from movecheck.suggest import did_you_mean as suggestion
from movecheck.systems import RuleSettings, has_errors

_MAP_CACHE: dict[str, tuple[GameMap | None, list[Finding], Any]] = {}


def load_map(state: Document) -> tuple[GameMap | None, list[Finding], Any]:
    """The map a state names (built-in, a file relative to the state, or inline), the
    findings at the state's ``map:``, and the map file read (a ``Loaded``) if any."""
    ref = state.get("map")
    if isinstance(ref, dict):
        return GameMap(ref), [], None
    if not isinstance(ref, str):
        return None, [], None
    if ref in BUILTIN_MAPS:
        key = "builtin:" + ref
        if key not in _MAP_CACHE:
            _MAP_CACHE[key] = (GameMap(builtin_map(ref)), [], None)
        return _MAP_CACHE[key]
    base = os.path.dirname(state.path) if state.path != "<stdin>" else ""
    path = os.path.normpath(os.path.join(base, ref))
    if state.root is not None and "\0" not in path:  # (no file has such a name: MC004 below)
        from movecheck.files import outside_message, outside_root

        root = os.path.realpath(state.root)
        if outside_root(path, root):
            return None, [state.finding("MC010", outside_message("map", ref, root), ("map",))], None
    if not os.path.isfile(path) and not _special(path):
        hint = suggestion([n for n in BUILTIN_MAPS if n.startswith(ref[:3])] or list(BUILTIN_MAPS))
        return (
            None,
            [
                state.finding(
                    "MC004",
                    _("map {name} is neither a built-in map nor a file").format(name=repr(ref)) + hint,
                    ("map",),
                )
            ],
            None,
        )
    cache_key = (os.path.abspath(path), path)
    if cache_key not in _MAP_FILES:
        _MAP_FILES[cache_key] = _load_map_file(path)
    loaded, game_map = _MAP_FILES[cache_key]
    if isinstance(loaded, str):  # it could not be read: a FIFO, a device, no permission ...
        return None, [state.finding("MC010", _("map file {problem}").format(problem=loaded), ("map",))], None
    return _map_of(state, path, loaded, game_map)


def _special(path: str) -> bool:
    """A FIFO, device or socket (or a symlink to one): a file, but never read as a map."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


_MAP_FILES: dict[tuple[str, str], tuple[Any, GameMap | None]] = {}
"""Map files read so far, by absolute and shown path: the file (a ``Loaded``, or why it
could not be read) and its map when it is usable."""


def _load_map_file(path: str) -> tuple[Any, GameMap | None]:
    """The map file, read as a regular file within the size limit, and its map when it is usable."""
    from movecheck.files import read_reference, recognised
    from movecheck.loading import QUOTABLE

    try:
        loaded = read_reference(path)
    except InputError as exc:
        return str(exc), None
    if not recognised(loaded):
        return loaded, None
    QUOTABLE[loaded.doc.path] = loaded.doc.text
    if loaded.doc.broken or loaded.kind != "aa-map" or has_errors(loaded.findings):
        return loaded, None
    return loaded, GameMap(loaded.doc.data)


def _map_of(
    state: Document, path: str, loaded: Any, game_map: GameMap | None
) -> tuple[GameMap | None, list[Finding], Any]:
    """The map of a map file, or the findings that say why there is none.

    A file that is not recognisably a movecheck file gives one finding at the state's
    ``map:`` that quotes nothing of it; the others keep their own findings (on the
    map file returned).
    """
    from movecheck.files import recognised, unrecognised_message

    if not recognised(loaded):
        return None, [state.finding("MC010", unrecognised_message("map", path), ("map",))], None
    if loaded.doc.broken:  # unreadable (syntax, MC008 ...): its own findings say why, not "not a map"
        return None, [], loaded
    if loaded.kind != "aa-map":
        return (
            game_map,
            [state.finding("MC010", _("map: {path} is not an aa map file (kind: map)").format(path=path), ("map",))],
            loaded,
        )
    return game_map, [], loaded


def edition_of(state: Document, game_map: GameMap, rules: RuleSettings) -> tuple[type[Edition], list[Finding]]:
    """The edition a state is checked under: its ``rules:`` (or the configured one), else its map's, else the
    default."""
    if rules.edition_source != "default" and rules.edition is not None:
        edition = find_edition(rules.edition)
        if edition is not None:
            return edition, []
        hint = suggestion(close_editions(rules.edition))
        where: tuple[str, ...] = ("rules",) if rules.edition_source == "state" else ()
        return DEFAULT_EDITION, [
            state.finding("MC004", _("unknown rules preset {name}").format(name=repr(rules.edition)) + hint, where)
        ]
    if game_map.edition is None:
        return DEFAULT_EDITION, []
    edition = find_edition(game_map.edition)
    if edition is not None:
        return edition, []
    where = ("map", "edition") if isinstance(state.get("map"), dict) else ("map",)
    hint = suggestion(close_editions(game_map.edition))
    message = _(
        "the map names the rules {name}, which this release does not implement; the "
        "{default} rules apply (write 'rules: {default}' to choose them)"
    ).format(name=repr(game_map.edition), default=DEFAULT_EDITION.name) + hint
    return DEFAULT_EDITION, [state.finding("MC004", message, where, severity="note")]


def options_of(edition: type[Edition], rules: RuleSettings, game_map: GameMap | None = None) -> dict[str, Any]:
    """The edition's option values, then the map's (its game's settings), then the overrides (the
    configuration's, the command line's, the state's)."""
    options = edition.option_values()
    for layer in (game_map.options if game_map is not None else {}, rules.options):
        options.update({k: v for k, v in layer.items() if k in options})
    return options
