"""Every maneuver clause, imported family by family so the catalogue holds them all.

These modules import no shapely: the geometry is loaded by the checks when an
order is checked, so ``movecheck rules`` stays light.
"""

from movecheck.maneuver import lint, options  # noqa: F401  (options: which of them govern each clause)
from movecheck.maneuver.checks import contact, formation, movement, terrain  # noqa: F401
