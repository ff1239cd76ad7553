"""``--format json-lines``: one finding per line, each a JSON object of the report schema's ``finding``.

No summary and no other lines, so ``grep``, ``jq -c`` and line-oriented log
shippers can take the output as it is.  No findings, no output.
"""

from __future__ import annotations

import json

from movecheck.findings import Report
from movecheck.render.escape import escape_json


def render(report: Report, *, color: bool = False, statistics: bool = False) -> str:
    """The sorted findings, one compact JSON object per line."""
    return "".join(
        escape_json(json.dumps(f.to_json(), ensure_ascii=False, separators=(",", ":"))) + "\n"
        for f in report.sorted_findings()
    )
