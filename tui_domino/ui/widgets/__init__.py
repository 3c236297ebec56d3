"""The game's widgets: the board, the hand, the score panel."""
