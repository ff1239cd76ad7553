"""movecheck: check wargame orders against the board and the rules."""

__version__ = "0.1.0"

DOCS_URL = "https://movecheck.github.io/movecheck/"
"""Where the documentation site is published (a placeholder until the project has an address: docs/releasing.md)."""
