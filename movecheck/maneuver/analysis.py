"""What an order does on the battlefield: the facts the clauses judge.

The facts live in three modules: :mod:`~movecheck.maneuver.world` (the
battlefield as the earlier orders left it, and the rolls an order declares),
:mod:`~movecheck.maneuver.free` (a single base along its path) and
:mod:`~movecheck.maneuver.corps` (where every base of a corps must end under a
compulsory order, for every combination of undeclared rolls).  They return
numbers, positions, touched bases and terrain, and roll combinations; the
clauses (:mod:`movecheck.maneuver.checks`) decide and word the findings.
This module names the entry points the engine uses.
"""

from __future__ import annotations


