"""Every aa clause, imported family by family so the catalogue holds them all."""

from movecheck.aa import lint, options  # noqa: F401  (options: which of them govern each clause)
from movecheck.aa.checks import (  # noqa: F401
    aircraft,
    battle_turn,
    battles,
    cargo,
    combat,
    dice,
    mobilize,
    movement,
    noncombat,
    purchase,
)
from movecheck.aa.checks import china as _china  # noqa: F401  (Anniversary: AA110, AA710, AA711)
