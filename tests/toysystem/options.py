"""The toy system's one rule option."""

from movecheck.options import OptionSet, number

OPTIONS = OptionSet(
    "toy", [number("max_step", 1, "the longest step a token may take", ("TY101",), minimum=1, maximum=10)]
)
