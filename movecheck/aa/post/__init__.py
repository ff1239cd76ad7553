"""The aa sections of a turn's post (summary)."""
