"""Where aircraft land: the landing search (carriers, bounds, branch-and-bound, pieces)."""
