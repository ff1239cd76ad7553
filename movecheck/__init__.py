"""movecheck: check wargame orders against the board and the rules."""

__version__ = "0.1.0"
