"""Benchmark harness: MIRAGE-style data sets, the debate and its baselines, metrics, reports.

::

    from disputatio.eval import run_benchmark
    result = run_benchmark("medqa", "debate", n=20, seed=0)
"""

from disputatio.eval.datasets import DATASETS, Question, load_questions
from disputatio.eval.harness import run_benchmark
from disputatio.eval.mirage import calibration_questions
from disputatio.eval.protocols import PROTOCOLS
from disputatio.eval.report import markdown_table, write_results

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
