"""mtgsolve: exact legal choices in Magic: The Gathering situations.

The library users import. See README.md and the contract in the project's
design documents. Public entry points:

* :func:`solver.situation.load_situation` / :func:`solver.situation.situation_from_dict`
* :func:`solver.queries.answer` — answer one query on a loaded state
* :func:`solver.runner.solve_file` — answer every query of a file
"""

__version__ = "0.1.0"
