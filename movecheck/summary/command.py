"""The body of ``movecheck summary`` (the command line only registers it)."""

from __future__ import annotations

from movecheck.output import deliver

FORMATS = ("markdown", "bbcode", "text", "json")
"""``--format`` of a summary (default: markdown)."""


def run_summary(files: list[str], fmt: str, output: str | None, state: str | None, options: list[str] | None,
                root: str | None, isolated: bool, config: str | None) -> int:
    """Check the files, write the post to ``output`` (None: standard output), return the exit code."""
    from movecheck.session import Session
    from movecheck.summary.run import summarize
    from movecheck.summary.writers import WRITERS

    session = Session.start(files, fmt="text", color="never", config=config, options=options, root=root,
                            isolated=isolated)
    post, code = summarize(files, session.settings(state=state), session.select)
    deliver(output, WRITERS[fmt](post))
    return code
