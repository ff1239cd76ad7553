"""``--show-files`` and ``--show-settings`` of ``check`` and ``lint``: what a run would read, and under what.

``--show-files`` prints the files the run would read, one a line, in the order it reads them
(a folder given replaced by its files: :mod:`movecheck.folders`, with ``--exclude``, ``exclude:``
and ``.gitignore``), and reads none of them.

``--show-settings`` prints, for each of those files, the configuration that applies to it and
every setting the run would use, each with where it comes from (as ruff's ``--show-settings``):
``default``, a command-line flag, ``$MOVECHECK_FORMAT``, or the configuration file.  It is YAML:
the keys are those of ``.movecheck.yaml``, each source a comment after its value.  A state's
own ``options:`` are not known before the state is read: the report's lines after
``checked against`` name them (:mod:`movecheck.overrides`).

Both print names and values from files: each line is escaped (:func:`movecheck.render.escape.escape`),
so nothing a file holds reaches the terminal able to act.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from movecheck.config import ConfigFinder
from movecheck.config_files import Config, display_path
from movecheck.i18n import _
from movecheck.render import FORMATS, env_format
from movecheck.render.escape import escape
from movecheck.selection import glob_matches, relative_to, split_selectors

DEFAULT = "default"


@dataclass(frozen=True)
class Flags:
    """What the command line said of the settings ``--show-settings`` prints (None: not given)."""

    select: list[str] | None = None
    ignore: list[str] | None = None
    fmt: str | None = None
    exclude: list[str] | None = None
    options: dict[str, dict[str, Any]] | None = None
    respect_gitignore: bool = True
    config: str | None = None
    isolated: bool = False


def files_text(inputs: list[str], stdin_filename: str | None) -> str:
    """``--show-files``: the files to read, one a line."""
    return "".join(escape(stdin_filename or "-" if path == "-" else path) + "\n" for path in inputs)


def _value(value: Any) -> str:
    """A value as flow YAML (JSON is YAML): lists and mappings on one line."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _line(key: str, value: Any, source: str) -> str:
    return f"  {key}: {_value(value)}  # {source}"


def _configuration_line(config: Config | None, flags: Flags) -> str:
    if config is not None:
        return _line("configuration", display_path(config.path), "--config" if flags.config else "discovered")
    if flags.isolated:
        return _line("configuration", None, "--isolated")
    return _line("configuration", None, _("none found in the file's folder or above it, up to the repository root"))


def _selection_lines(config: Config | None, flags: Flags, file: str) -> list[str]:

    where = display_path(config.path) if config is not None else ""
    lines = []
    if flags.select:
        lines.append(_line("select", split_selectors(flags.select), "--select"))
    elif config is not None and config.select is not None:
        lines.append(_line("select", list(config.select), where))
    else:
        lines.append(_line("select", ["ALL"], DEFAULT))
    config_ignore = config.ignore if config is not None and not flags.select else ()  # --select sets it aside
    sources = [s for s, on in ((where, bool(config_ignore)), ("--ignore", bool(flags.ignore))) if on]
    lines.append(_line("ignore", [*config_ignore, *split_selectors(flags.ignore)], ", ".join(sources) or DEFAULT))
    if config is not None and config.per_file_ignores and "ALL" not in split_selectors(flags.select):
        rel = relative_to(os.path.abspath(file), config.folder)
        matching = {entry.pattern: list(entry.codes) for entry in config.per_file_ignores
                    if rel is not None and glob_matches(entry.pattern, rel)}
        source = _("{file} (the globs that match this file)").format(file=where)
        lines.append(_line("per-file-ignores", matching, source))
    return lines


def _format_line(config: Config | None, flags: Flags) -> str:

    if flags.fmt:
        return _line("format", flags.fmt, "--format")
    from_env = env_format(FORMATS)
    if from_env:
        return _line("format", from_env, "$MOVECHECK_FORMAT")
    if config is not None and config.format:
        return _line("format", config.format, display_path(config.path))
    return _line("format", "text", DEFAULT)


def _folder_lines(config: Config | None, flags: Flags) -> list[str]:
    exclude = [*(config.exclude if config else ()), *(flags.exclude or ())]
    sources = [s for s, on in ((display_path(config.path) if config else "", bool(config and config.exclude)),
                               ("--exclude", bool(flags.exclude))) if on]
    return [
        _line("exclude", exclude, ", ".join(sources) or DEFAULT),
        _line("respect-gitignore", flags.respect_gitignore,
              DEFAULT if flags.respect_gitignore else "--no-respect-gitignore"),
    ]


def _rule_lines(config: Config | None, flags: Flags) -> list[str]:
    """Each system's rules preset and options: the configuration's, then ``--option`` (which beats it)."""
    lines = []
    where = display_path(config.path) if config is not None else ""
    systems = sorted(set(config.rules if config else ()) | set(config.options if config else ())
                     | set(flags.options or ()))
    for system in systems:
        if config is not None and system in config.rules:
            lines.append(_line(f"{system}.rules", config.rules[system], where))
        for name, value in sorted((config.options.get(system, {}) if config else {}).items()):
            if name not in (flags.options or {}).get(system, {}):
                lines.append(_line(f"{system}.options.{name}", value, where))
        for name, value in sorted((flags.options or {}).get(system, {}).items()):
            lines.append(_line(f"{system}.options.{name}", value, "--option"))
    if not systems:
        lines.append(_line("options", {}, _("none set: each state's edition decides (and the state's own options:)")))
    return lines


def settings_text(inputs: list[str], finder: ConfigFinder, flags: Flags, stdin_filename: str | None) -> str:
    """``--show-settings``: per file, the configuration and the settings that apply, and where each comes from."""
    blocks = []
    for path in inputs:
        shown = stdin_filename or "-" if path == "-" else path
        config = finder.for_file(stdin_filename or "<stdin>" if path == "-" else path)
        lines = [
            f"{_value(shown)}:",
            _configuration_line(config, flags),
            *_selection_lines(config, flags, shown),
            _format_line(config, flags),
            *_folder_lines(config, flags),
            *_rule_lines(config, flags),
        ]
        blocks.append("\n".join(escape(line) for line in lines) + "\n")
    return "".join(blocks)
