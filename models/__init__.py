"""CP-SAT models, one module per question (producible mana, payment, targets,
replacement orderings, resolution choices). Each takes a rules-level
description of the question and returns a model plus a decoder."""
