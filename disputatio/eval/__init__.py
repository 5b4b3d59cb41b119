"""Benchmark harness: MIRAGE-style data sets, the debate and its baselines, metrics, reports.

::

    from disputatio.eval import run_benchmark
    result = run_benchmark("medqa", "debate", n=20, seed=0)

The names below load on first use (PEP 562), so that importing one light module of the
package (``disputatio.eval.confidence_fit``, say, for the CLI's help) does not load every
graph the harness runs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from disputatio.eval.datasets import DATASETS, Question, load_questions
    from disputatio.eval.harness import run_benchmark
    from disputatio.eval.mirage import calibration_questions
    from disputatio.eval.protocols import PROTOCOLS
    from disputatio.eval.report import markdown_table, write_results

#: Public name → the module that defines it.
_HOME = {
    "DATASETS": "datasets",
    "Question": "datasets",
    "load_questions": "datasets",
    "run_benchmark": "harness",
    "calibration_questions": "mirage",
    "PROTOCOLS": "protocols",
    "markdown_table": "report",
    "write_results": "report",
}

__all__ = [
    "DATASETS",
    "PROTOCOLS",
    "Question",
    "calibration_questions",
    "load_questions",
    "markdown_table",
    "run_benchmark",
    "write_results",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
