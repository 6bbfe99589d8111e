"""No function or method in ``solver/`` or ``models/`` is longer than 120 lines (issue 18).

A longer function is a sign that it does several things (``PaymentModel._build``
was 531 lines); split it into named steps. Lines are counted from the ``def``
line (decorators excluded) to the last line of the body, docstring and comments
included: ``end_lineno - lineno + 1`` of the ``ast`` node. Nested functions are
counted on their own and as part of the function around them.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 120


def long_functions(root: Path = ROOT, max_lines: int = MAX_LINES) -> list[tuple[str, str, int]]:
    """``(file, qualified name, lines)`` of every function under ``root/solver`` and
    ``root/models`` over ``max_lines`` lines."""
    out: list[tuple[str, str, int]] = []
    for d in ("solver", "models"):
        for path in sorted((root / d).rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))

            def visit(node: ast.AST, prefix: str) -> None:
                for child in ast.iter_child_nodes(node):
                    name = prefix
                    if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        name = prefix + child.name
                        n = (child.end_lineno or child.lineno) - child.lineno + 1
                        if n > max_lines:
                            out.append((path.relative_to(root).as_posix(), name, n))
                        name += "."
                    elif isinstance(child, ast.ClassDef):
                        name = prefix + child.name + "."
                    visit(child, name)

            visit(tree, "")
    return out


def test_no_function_longer_than_the_limit() -> None:
    found = long_functions()
    assert not found, f"functions longer than {MAX_LINES} lines (split them into named steps):\n" + "\n".join(
        f"  {f}: {name} ({n} lines)" for f, name, n in found)


def test_the_count_sees_methods_and_nested_functions(tmp_path: Path) -> None:
    (tmp_path / "solver").mkdir()
    (tmp_path / "models").mkdir()
    body = "".join(f"        x{i} = {i}\n" for i in range(4))
    (tmp_path / "models" / "m.py").write_text(
        "class A:\n    @staticmethod\n    def m():\n        def inner():\n            pass\n" + body + "\n"
        "def short():\n    return 1\n")
    # m: def line + inner (2 lines) + 4 body lines = 7; inner = 2; short = 2 (decorator not counted)
    assert long_functions(tmp_path, max_lines=6) == [("models/m.py", "A.m", 7)]
    assert long_functions(tmp_path, max_lines=1) == [("models/m.py", "A.m", 7), ("models/m.py", "A.m.inner", 2),
                                                     ("models/m.py", "short", 2)]
