"""mtgsolve: exact legal choices in Magic: The Gathering situations.

The library users import. See README.md and the contract in the project's
design documents. Public entry points:

* :func:`solver.io.load.load_situation` / :func:`solver.io.load.situation_from_dict`
* :func:`solver.queries.answer` — answer one query on a loaded state
* :func:`solver.api.runner.solve_file` — answer every query of a file
"""

__version__ = "0.1.0"
