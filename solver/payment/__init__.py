"""Compile steps from the rules view to the payment and available-mana models, and their answers."""
