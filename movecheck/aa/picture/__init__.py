"""The aa picture: what a turn shows (collect), the scene's types, the board drawn from its polygons
(board, board_files), the diagram of a map without one (layout, svg)."""
