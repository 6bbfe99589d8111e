"""Legal actions and the transition kernel: casting, resolution, combat, turns."""
