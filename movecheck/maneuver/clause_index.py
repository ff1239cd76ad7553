"""The index of the maneuver clauses: written by scripts/gen_clause_index.py, do not edit.

Code -> (system, the module whose import declares the clause, name, severity, the occasions it runs on).
Importing this module gives the index to the catalogue, which imports a module of it when one of its
clauses is first needed (issue 36: a check loads the clause families its phase runs, no others)."""

from movecheck.clauses import CATALOGUE

CLAUSES: dict[str, tuple[str, str, str, str, tuple[str, ...]]] = {
    'MV101': ('maneuver', 'movecheck.maneuver.checks.movement', 'mobility-exceeded', 'error',
        ('order/free',)),
    'MV102': ('maneuver', 'movecheck.maneuver.checks.movement', 'not-straight', 'error',
        ('order/free',)),
    'MV201': ('maneuver', 'movecheck.maneuver.checks.movement', 'wrong-direction', 'error',
        ('order/all_ahead', 'order/all_back', 'order/to_landmark')),
    'MV202': ('maneuver', 'movecheck.maneuver.checks.movement', 'not-max-distance', 'error',
        ('order/all_ahead', 'order/all_back', 'order/to_landmark')),
    'MV203': ('maneuver', 'movecheck.maneuver.checks.movement', 'corps-rotated', 'error',
        ('order/all_ahead', 'order/all_back', 'order/to_landmark')),
    'MV204': ('maneuver', 'movecheck.maneuver.checks.movement', 'order-repeated', 'error',
        ('order/free', 'order/all_ahead', 'order/all_back', 'order/to_landmark')),
    'MV301': ('maneuver', 'movecheck.maneuver.checks.formation', 'formation-broken', 'error',
        ('order/all_ahead', 'order/all_back', 'order/to_landmark')),
    'MV302': ('maneuver', 'movecheck.maneuver.checks.terrain', 'roll-out-of-range', 'error',
        ('order/free', 'order/all_ahead', 'order/all_back', 'order/to_landmark')),
    'MV303': ('maneuver', 'movecheck.maneuver.checks.terrain', 'roll-not-allowed', 'error',
        ('order/free', 'order/all_ahead', 'order/all_back', 'order/to_landmark')),
    'MV304': ('maneuver', 'movecheck.maneuver.checks.terrain', 'roll-needed', 'warning',
        ('order/free', 'order/all_ahead', 'order/all_back', 'order/to_landmark')),
    'MV401': ('maneuver', 'movecheck.maneuver.checks.contact', 'through-friend', 'error',
        ('order/free',)),
    'MV402': ('maneuver', 'movecheck.maneuver.checks.contact', 'through-enemy', 'error',
        ('order/free',)),
    'MV403': ('maneuver', 'movecheck.maneuver.checks.terrain', 'impassable', 'error',
        ('order/free',)),
    'MV501': ('maneuver', 'movecheck.maneuver.checks.contact', 'contact-made', 'note',
        ('order/free', 'order/all_ahead', 'order/all_back', 'order/to_landmark')),
    'MV502': ('maneuver', 'movecheck.maneuver.checks.contact', 'engaged-move', 'error',
        ('order/free', 'order/all_ahead', 'order/all_back', 'order/to_landmark')),
    'MV601': ('maneuver', 'movecheck.maneuver.lint', 'bases-overlap', 'error',
        ('lint/geometry',)),
    'MV602': ('maneuver', 'movecheck.maneuver.lint', 'corps-not-in-contact', 'warning',
        ('lint/geometry',)),
    'MV603': ('maneuver', 'movecheck.maneuver.lint', 'corps-mixed-facing', 'warning',
        ('lint/geometry',)),
    'MV604': ('maneuver', 'movecheck.maneuver.lint', 'bad-polygon', 'error',
        ('lint/geometry',)),
    'MV605': ('maneuver', 'movecheck.maneuver.lint', 'duplicate-id', 'error',
        ('lint/state',)),
}

CATALOGUE.add_index(CLAUSES)
