"""The enemies near a shape, from an index of the other sides' bases alone (issue 37, the big manoeuvre file)."""

from __future__ import annotations

import random

from movecheck.maneuver import geometry as g
from movecheck.maneuver.model import Base, Battlefield, Corps
from movecheck.maneuver.world import World


def crowded_world(rng: random.Random) -> tuple[World, list[Base]]:
    """Red and blue bases (a third side too) scattered over a small field, blue interleaved with red."""
    bf = Battlefield(120, 120)
    bases = [Base(f"b{k}", ("red", "blue", "green")[k % 3], f"c{k}", rng.uniform(5, 115), rng.uniform(5, 115),
                  rng.choice([0, 90, 17, rng.uniform(0, 360)]), 4, 2, 8) for k in range(40)]
    bf.bases = {b.id: b for b in bases}
    bf.sides = {side: [Corps(b.corps, side, [b]) for b in bases if b.side == side] for side in ("red", "blue", "green")}
    return World(bf, "red"), bases


def test_enemies_near_are_the_other_sides_bases_near_after_moves() -> None:
    """After bases of every side move (the world told), the enemies near a shape are exactly the other sides'
    bases among all the bases near it, in the same order; contacts and the pre-battle bonus read them."""
    rng = random.Random(5)
    world, bases = crowded_world(rng)
    for _ in range(30):
        moved = rng.sample(bases, 3)
        for base in moved:
            base.place(rng.uniform(5, 115), rng.uniform(5, 115), rng.uniform(0, 360))
        world.moved(moved)
        probe = g.base_rect(rng.uniform(0, 120), rng.uniform(0, 120), rng.uniform(0, 360), 4, 2)
        distance = rng.choice([0.0, 0.5, 3.0, 20.0])
        near = world.bases_near(probe, distance)
        assert world.enemies_near(probe, distance) == [b for b in near if b.side != "red"]
    assert any(world.enemies_near(b.rect, 20.0) for b in bases)  # the probes met enemies


def test_a_world_with_no_enemies_finds_none() -> None:
    """A side alone on the field: no contact, the pre-battle bonus for every group of its bases."""
    bf = Battlefield(50, 50)
    bases = [Base(f"r{k}", "red", "c", 10 + 5 * k, 10, 0, 4, 2, 8) for k in range(3)]
    bf.bases = {b.id: b for b in bases}
    bf.sides = {"red": [Corps("c", "red", bases)]}
    world = World(bf, "red")
    assert world.bases_near(bases[0].rect, 5.0) == bases[:2]
    assert world.enemies_near(bases[0].rect, 5.0) == []
    assert world.contacts(bases[0].rect) == []
    assert world.prebattle(bases) == (True, None)
