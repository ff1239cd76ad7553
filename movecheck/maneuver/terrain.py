"""The terrain kinds of the battlefield format (the model and the option declarations both read them)."""

from __future__ import annotations

TERRAIN_KINDS = ("open", "stream", "ploughed_field", "rice_paddy", "hill", "forest", "impassable")
"""Every terrain kind the battlefield format knows."""
