"""TripleA import: a saved game or map XML read into a movecheck map and state."""
