"""Vocabulary with no rules in it: errors, mana, the ability IR, card values, the game state, moves."""
