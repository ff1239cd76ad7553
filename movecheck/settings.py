"""What the command line and the configuration files ask of a ``check`` or ``lint`` run."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from movecheck.systems import RuleSettings, resolve_rules, system_of

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.files import Loaded


@dataclass
class Settings:
    """What the command line and the configuration files ask of a run.

    ``options`` holds the command line's rule options per system (``--option``);
    ``config`` is a :class:`movecheck.config.ConfigFinder` that finds each file's
    configuration (None: no configuration at all).  Rule systems read neither:
    :meth:`rules_for` resolves them, with the state's own, into the
    :class:`~movecheck.systems.RuleSettings` a system is handed.
    """

    state: str | None = None
    stdin_filename: str | None = None
    suggest: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    config: Any = None
    skip_foreign: bool = False
    root: str | None = None
    """``--root``: ``state:``/``map:`` paths that resolve outside it are refused.  None (a
    library caller's default) restricts nothing; the command line always sets one."""
    root_explicit: bool = False
    """``--root`` was given: it is the only root.  Otherwise (the default root, the current
    folder's repository or the current folder) a file named on the command line may also
    reach into its own repository, or its own folder when it is in none."""

    def reference_root(self) -> str | None:
        """The folder ``state:`` and ``map:`` paths must lie in, symlinks resolved (None: anywhere)."""
        return os.path.realpath(self.root) if self.root is not None else None

    def root_for(self, named: str) -> str | None:
        """The root for the paths that the file ``named`` (or a file it reached) names.

        The run's root; with the default root, a file that lies outside it brings its own:
        its repository's root, or its folder when it is in no repository (so that orders
        checked from elsewhere still reach the state beside them, and never beyond).
        """
        from movecheck.files import outside_root

        root = self.reference_root()
        if root is None or self.root_explicit or named in ("", "<stdin>") or not outside_root(named, root):
            return root
        from movecheck.config import repository_root

        folder = os.path.dirname(os.path.realpath(named))
        return os.path.realpath(repository_root(folder) or folder)

    def rules_for(self, state: Loaded) -> RuleSettings:
        """The edition and options a state's rules run under (see :func:`~movecheck.systems.resolve_rules`)."""
        declared = system_of(str(state.kind))
        edition, configured = None, {}
        if self.config is not None:
            edition, configured = self.config.defaults_for(declared.name, state.doc.path)
        return resolve_rules(
            declared,
            state.doc.data,
            configured_edition=edition,
            configured=configured,
            command_line=self.options.get(declared.name, {}),
        )
