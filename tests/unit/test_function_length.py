"""Size limits of the package: no function over 80 lines, no module over 400 lines.

A function is counted from its ``def`` line through its last line (decorators excluded; a
nested function counts on its own and inside its parent). Split a function that outgrows the
limit into named helpers, and a module into a sibling module by concept.
"""

from __future__ import annotations

import ast
from pathlib import Path

import disputatio

MAX_FUNCTION_LINES = 80
MAX_FILE_LINES = 400
PACKAGE = Path(disputatio.__file__).parent


def long_functions(source: str, limit: int = MAX_FUNCTION_LINES) -> list[tuple[str, int, int]]:
    """``(name, first line, length)`` of every function of ``source`` longer than ``limit``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > limit:
                found.append((node.name, node.lineno, length))
    return found


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _function(name: str, body_lines: int, *, is_async: bool = False) -> str:
    head = f"{'async ' if is_async else ''}def {name}() -> None:\n"
    return head + "".join(f"    x{i} = {i}\n" for i in range(body_lines))


def test_the_checker_counts_the_def_line_through_the_last_line() -> None:
    at_limit = _function("fits", MAX_FUNCTION_LINES - 1)
    over = _function("too_long", MAX_FUNCTION_LINES)
    nested = "class C:\n" + "".join(
        "    " + line + "\n" for line in _function("method", MAX_FUNCTION_LINES).splitlines()
    )
    assert long_functions(at_limit) == []
    assert long_functions(over) == [("too_long", 1, MAX_FUNCTION_LINES + 1)]
    assert long_functions(_function("co", MAX_FUNCTION_LINES, is_async=True))[0][0] == "co"
    assert [name for name, _, _ in long_functions(nested)] == ["method"]


def test_the_package_is_found() -> None:
    modules = _modules()
    assert PACKAGE / "__init__.py" in modules
    assert len(modules) > 50  # a wrong root would pass every limit vacuously


def test_no_function_is_over_80_lines() -> None:
    offenders = [
        f"{path.relative_to(PACKAGE.parent)}:{line} {name} ({length} lines)"
        for path in _modules()
        for name, line, length in long_functions(path.read_text("utf-8"))
    ]
    assert not offenders, (
        f"functions over {MAX_FUNCTION_LINES} lines (split them into named helpers): "
        + "; ".join(offenders)
    )


def test_no_module_is_over_400_lines() -> None:
    offenders = [
        f"{path.relative_to(PACKAGE.parent)} ({count} lines)"
        for path in _modules()
        if (count := len(path.read_text("utf-8").splitlines())) > MAX_FILE_LINES
    ]
    assert not offenders, (
        f"modules over {MAX_FILE_LINES} lines (split them by concept into a sibling module): "
        + "; ".join(offenders)
    )
