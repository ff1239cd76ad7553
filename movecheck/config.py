"""Configuration files: discovery, parsing with positions, validation, precedence.

A configuration is ``.movecheck.yaml`` or the ``[tool.movecheck]`` table of a
``pyproject.toml``.  For each checked file movecheck uses the nearest one,
looking in the file's folder and then upwards (in each folder
``.movecheck.yaml`` first), never above the first folder holding ``.git``;
``--config FILE`` names one for every file, ``--isolated`` uses none.
Configurations are not merged with each other.

Keys::

    select: [AA, MC]            # code prefixes to report (default: all)
    ignore: [MC005]             # code prefixes not to report
    per-file-ignores:           # glob (relative to this file's folder) -> codes
      "orders/drafts/*.yaml": [AA3]
    format: github              # default output format
    exclude: [drafts, "old/*"]  # globs a folder given to check or lint leaves out
    aa:
      rules: aa1942             # edition (preset) of states that name none
      options: {land_on_new_carrier: false}
    maneuver:
      options: {tolerance: 0.2}

Precedence of rule options: the state file's own ``options`` > ``--option`` on
the command line > the configuration file > the rules preset.  Of selection
and format: the command line > ``MOVECHECK_FORMAT`` (format only) > the file.

A configuration file is checked like any movecheck file: YAML problems are
MC001/MC002, a wrong key or value MC003 (with "did you mean"), an unknown rule
code or preset MC004 — each at its position in the file, reported with the
run's findings (whatever ``select`` says).  The parts that are wrong are
ignored; the rest applies.  A file that cannot be read at all stops the run
(exit 2).

Reading and validating a file is :mod:`movecheck.config_files`; the command line's
``--select``/``--ignore`` layer is :func:`movecheck.selection.command_line_layer`.  Both
are re-exported here, with whatever other modules import from this one.
"""

from __future__ import annotations

import os
from typing import Any

import yaml

from movecheck.config_files import (
    CONFIG_FILE,
    PYPROJECT,
    Config,
    _hint,
    _validator,
    load_config,
    option_names,
)
from movecheck.i18n import _
from movecheck.reading import InputError
from movecheck.selection import Layer, Selection
from movecheck.systems import choices, known, merge_options, names, schema_id

# -- discovery -------------------------------------------------------------------------------


class ConfigFinder:
    """The configuration of each file: ``--config``, or the nearest one up from its folder."""

    def __init__(
        self, explicit: Config | None = None, command_line: Layer | None = None, isolated: bool = False
    ) -> None:
        self.explicit = explicit
        self.command_line = command_line
        self.isolated = isolated
        self._folders: dict[str, Config | None] = {}
        self._files: dict[str, Config | None] = {}

    @classmethod
    def start(cls, config_path: str | None, command_line: Layer | None = None, isolated: bool = False) -> ConfigFinder:
        """A finder for a run; reads ``--config`` now (InputError if it cannot be read).

        ``isolated`` (``--isolated``): no configuration at all, neither discovered nor named.
        """
        if isolated:
            if config_path is not None:
                raise InputError(_("--isolated and --config cannot be used together"))
            return cls(None, command_line, isolated=True)
        explicit = None
        if config_path is not None:
            try:
                explicit = load_config(config_path, explicit=True)
            except InputError as exc:
                raise InputError(f"--config {exc}") from None
        return cls(explicit, command_line)

    def for_file(self, file: str) -> Config | None:
        """The configuration that applies to ``file`` (a path as the report names it)."""
        if self.explicit is not None:
            return self.explicit
        return self.for_folder(os.path.dirname(os.path.abspath(file)))

    def for_folder(self, folder: str) -> Config | None:
        """The nearest configuration at or above ``folder``, never above its repository root.

        The climb stops at the first folder holding ``.git``: a checked-out tree cannot be
        configured from outside it.  Outside any repository it goes up to the top.
        """
        if self.explicit is not None or self.isolated:
            return self.explicit
        walked: list[str] = []
        found: Config | None = None
        current = os.path.abspath(folder)
        while True:
            if current in self._folders:
                found = self._folders[current]
                break
            walked.append(current)
            found = self._in_folder(current)
            if found is not None or is_repository_root(current):
                break
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
        for name in walked:
            self._folders[name] = found
        return found

    def _in_folder(self, folder: str) -> Config | None:
        for name in (CONFIG_FILE, PYPROJECT):
            candidate = os.path.join(folder, name)
            if not os.path.isfile(candidate):
                continue
            if candidate not in self._files:
                self._files[candidate] = load_config(candidate, discovered=True)
            config = self._files[candidate]
            if config is not None and config.recognised:
                return config
        return None

    def configs(self) -> list[Config]:
        """Every configuration this run has read, by path."""
        found = [c for c in self._files.values() if c is not None]
        if self.explicit is not None:
            found.append(self.explicit)
        return sorted(found, key=lambda c: c.path)

    def selection_for(self, file: str) -> Selection:
        """Which findings of ``file`` are reported."""
        config = self.for_file(file)
        if config is None:
            layers = [self.command_line] if self.command_line is not None else []
            return Selection(layers)
        return config.selection(self.command_line)

    def defaults_for(self, system: str, file: str) -> tuple[str | None, dict[str, Any]]:
        """The configuration's rules preset and options for a state file of ``system``."""
        config = self.for_file(file)
        if config is None:
            return None, {}
        return config.rules.get(system), dict(config.options.get(system, {}))


def is_repository_root(folder: str) -> bool:
    """Does ``folder`` hold ``.git`` (a folder, or the file of a worktree or submodule)?"""
    return os.path.lexists(os.path.join(folder, ".git"))


def repository_root(folder: str) -> str | None:
    """The nearest folder at or above ``folder`` that holds ``.git``, or None."""
    current = os.path.abspath(folder)
    while True:
        if is_repository_root(current):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def default_root() -> str:
    """The default ``--root``: the current folder's repository root, else the current folder."""
    cwd = os.getcwd()
    return os.path.realpath(repository_root(cwd) or cwd)


# -- the command line ------------------------------------------------------------------------


def parse_option_flags(values: list[str] | None) -> dict[str, dict[str, Any]]:
    """``--option SYSTEM.KEY=VALUE`` flags as options per system; InputError when one is wrong.

    VALUE is read as a YAML scalar (``false``, ``0.2``, ``1d6``); ``SYSTEM.KEY.SUB=VALUE``
    sets one entry of a mapping option (``maneuver.dice.D4=4d6``).
    """

    result: dict[str, dict[str, Any]] = {}
    for item in values or []:
        name, sep, raw = item.partition("=")
        parts = [p.strip() for p in name.split(".")]
        if not sep or len(parts) < 2 or not all(parts):
            raise InputError(f"--option {item!r}: " + _("expected SYSTEM.KEY=VALUE, e.g. aa.land_on_new_carrier=false"))
        system, key, *sub = parts
        if not known(system):
            raise InputError(f"--option {item!r}: " + _("unknown system {system}; choose {names}").format(
                system=repr(system), names=choices(list(names()))))
        allowed = option_names(system)
        if key not in allowed:
            hint = _hint(key, allowed)
            unknown = _("unknown {system} option {key}").format(system=system, key=repr(key))
            raise InputError(f"--option {item!r}: " + unknown + hint)
        try:
            value = yaml.safe_load(raw) if raw.strip() else ""
        except yaml.YAMLError:
            value = raw
        if isinstance(value, (dict, list)) or value is None:
            value = raw
        if sub:
            value = {".".join(sub): value}
        result.setdefault(system, {})
        result[system] = merge_options(result[system], {key: value})
    for system, options in result.items():
        validator = _validator({"$ref": schema_id(f"{system}-state") + "#/$defs/options"})
        errors = sorted(validator.iter_errors(options), key=lambda e: (list(map(str, e.absolute_path)), e.message))
        if errors:
            error = errors[0]
            where = ".".join([system, *map(str, error.absolute_path)])
            raise InputError(f"--option {where}: {error.message}")
    return result


__all__ = ["ConfigFinder", "default_root", "parse_option_flags", "repository_root"]
