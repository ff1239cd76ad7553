"""The whole turn beyond movement: purchase, mobilization, income, control, battle results, apply."""
