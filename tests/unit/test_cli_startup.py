"""The CLI starts without loading a graph: ``--help`` and light commands stay fast.

Loading langgraph and the graphs took ~1.4 s of every command's start (``disputatio --help``
2.0–2.3 s); the commands that run a graph load it when they run.
"""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("langgraph", "langchain_core", "torch", "spacy", "sentence_transformers", "onnxruntime")


def test_building_the_cli_loads_no_graph_and_no_model_library() -> None:
    code = (
        "import sys\n"
        "from disputatio.cli.app import app\n"
        "import typer.main\n"
        "typer.main.get_command(app)\n"  # what --help builds: every command's parameters
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_the_eval_package_loads_its_harness_only_when_asked() -> None:
    code = (
        "import sys\n"
        "import disputatio.eval.confidence_fit\n"
        "assert 'disputatio.eval.harness' not in sys.modules\n"
        "from disputatio.eval import run_benchmark\n"
        "assert callable(run_benchmark) and 'disputatio.eval.harness' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
