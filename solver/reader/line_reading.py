"""One Oracle line and what the reader made of it (:class:`LineReading`): the value every
reading step returns (the package's line reader, :func:`solver.reader.read_lines`, and the
reader of modal lines, :mod:`solver.reader.modes`), kept below both; ``solver.reader``
re-exports it."""
from __future__ import annotations

from dataclasses import dataclass

from ..core.ir import Ability, Unsupported
from .tokens import Token, template

__all__ = ["LineReading"]


@dataclass(frozen=True)
class LineReading:
    """One Oracle line and what the reader made of it.

    ``raw``: the line as printed; ``clean``: reminder text removed;
    ``template``: the name of the line template that read it (None when not
    understood); ``parts``: the abilities it yields (Unsupported parts
    included; empty for an instant's or sorcery's instructions, which go to the
    spell); ``error``: an internal reader error, if any (reported as unsupported).
    """

    raw: str
    clean: str
    tokens: tuple[Token, ...]
    template: str | None
    parts: tuple[Ability, ...]
    spell_line: bool = False
    error: str | None = None
    unread: int = 0  # sentences whose effect is not read (kept as UnreadEffect)

    @property
    def understood(self) -> bool:
        """Every word read: structure and effects (no unsupported part, no unread effect)."""
        return self.template is not None and not self.unread and not any(isinstance(p, Unsupported) for p in self.parts)

    @property
    def structured(self) -> bool:
        """The line's structure is read (reader/structure.py): each ability's kind, costs,
        timing and target slots — its effects may be unread. Unread riders of a read
        ability are effects, not structure; an unread part whose structure was read
        (``Unsupported.structure``, reader/skeleton.py) is structure."""
        return self.template is not None and not any(
            isinstance(p, Unsupported) and p.kind != "rider" and p.structure is None for p in self.parts)

    @property
    def unsupported(self) -> tuple[Unsupported, ...]:
        return tuple(p for p in self.parts if isinstance(p, Unsupported))

    @property
    def pattern(self) -> str:
        """The line normalised into a template (see :func:`.tokens.template`)."""
        return template(self.tokens)
