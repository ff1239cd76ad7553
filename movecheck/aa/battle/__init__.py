"""The battle of each A&A edition and the exact odds of a battle (spec aa-battle.md).

- :mod:`.model`: one declared battle model per edition (1942 second edition, Revised,
  Anniversary): the steps of a round, who fires at what, the automatic steps, when a battle
  ends and who may retreat — data plus a few named hooks, one class per edition;
- :mod:`.units`: a unit type as a battle sees it (attack, defence, hit points, cost and the
  abilities the edition gives it), from the map's unit stats;
- :mod:`.engine`: the exact odds of one battle, a dynamic programme over the survivors along
  the order of loss with exact hit distributions, within a budget;
- :mod:`.odds`: ``movecheck odds``: the battles of a state read, each priced, the whole turn
  joined, the report written in text or JSON.
"""
