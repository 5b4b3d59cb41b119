"""The README's Python examples are valid Python whose disputatio imports exist."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_the_readme_has_python_examples() -> None:
    assert BLOCKS


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_every_name_a_readme_example_imports_exists(block: str) -> None:
    """Each ``from X import a, b`` of an example resolves (a renamed API breaks this test)."""
    tree = ast.parse(block)  # a syntax error fails here
    imports = [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert imports
    for node in imports:
        module = importlib.import_module(str(node.module))
        for alias in node.names:
            assert hasattr(module, alias.name), f"{node.module} has no {alias.name}"
