"""The body of ``movecheck summary`` (the command line only registers it)."""

from __future__ import annotations

import os
from typing import Any

from movecheck.output import deliver
from movecheck.summary import Section

FORMATS = ("markdown", "bbcode", "text", "json")
"""``--format`` of a summary (default: markdown)."""


def run_summary(files: list[str], fmt: str, output: str | None, state: str | None, options: list[str] | None,
                root: str | None, isolated: bool, config: str | None, picture: str | None = None,
                luck: bool = False) -> int:
    """Check the files, write the post to ``output`` (None: standard output), return the exit code.

    ``picture``: the picture the referee attaches to the post (``render -o``), named in a last section.
    ``luck``: the luck of each legal battle results file (``movecheck odds``), a section after its battles.
    """
    from movecheck.session import Session
    from movecheck.summary.run import summarize
    from movecheck.summary.writers import WRITERS

    session = Session.start(files, fmt="text", color="never", config=config, options=options, root=root,
                            isolated=isolated)
    extras = frozenset({"luck"} if luck else ())
    post, code = summarize(files, session.settings(state=state), session.select, extras)
    if picture:
        post.sections.append(picture_section(picture))
    deliver(output, WRITERS[fmt](post))
    return code


def picture_section(picture: str) -> Any:
    """The post's last section: the picture attached (its file name only: no folder of the referee's machine)."""

    from movecheck.i18n import _

    name = os.path.basename(picture.replace("\\", "/")) or picture
    section = Section(_("Picture"), "picture", facts={"file": name})
    section.paragraph(_("the picture of this turn is attached: {file}").format(file=name))
    return section
