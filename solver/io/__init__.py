"""Situation files ↔ game states (contract §1)."""
