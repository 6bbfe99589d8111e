"""Errors the project reports about its input (contract §3).

Every error about a user's input names the file and the place inside it, on
one line::

    situation.yaml: battlefield.alice[2].card: unknown card 'Forrest' (did you mean 'Forest'?)

The errors are :class:`ValueError` subclasses (as python-chess does with its
invalid/illegal moves), so callers that only care that the input was bad can
catch ``ValueError``.  The command line turns any :class:`MtgsolveError` into
that one line on stderr and exit code :data:`EXIT_BAD_INPUT`.
"""
from __future__ import annotations

EXIT_BAD_INPUT = 2
"""Exit code of the command line for bad input (contract §3)."""


class MtgsolveError(ValueError):
    """Bad input, located: ``file`` (as the user named it), ``path`` (a dotted
    path inside the file such as ``battlefield.alice[2].card``, or ``""`` for
    the file as a whole) and a one-line ``message``."""

    def __init__(self, file: str, path: str, message: str):
        self.file = str(file)
        self.path = path
        self.message = " ".join(str(message).split())  # always one line
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.path:
            return f"{self.file}: {self.path}: {self.message}"
        return f"{self.file}: {self.message}"

    def __reduce__(self) -> tuple[type[MtgsolveError], tuple[str, str, str]]:  # picklable (batch workers send errors between processes)
        return (type(self), (self.file, self.path, self.message))


class SituationError(MtgsolveError):
    """A situation file that cannot be read or does not follow contract §1."""


class QueryError(MtgsolveError):
    """A query (contract §2) that is malformed or names things the situation lacks."""


def error_line(exc: BaseException) -> str:
    """The one line the command line prints for ``exc`` (contract §3).

    Located errors print as themselves; anything else is flattened to one line.
    """
    if isinstance(exc, MtgsolveError):
        return str(exc)
    return " ".join(f"{type(exc).__name__}: {exc}".split())


class UnsupportedCase(Exception):
    """A situation the project does not model exactly. Queries answer it as
    ``status: error`` with an ``unsupported: …`` message — never approximated."""
