"""Push a finished evaluation run to LangSmith as experiments (only with LANGSMITH_API_KEY).

One LangSmith dataset per data set (``disputatio-<dataset>``, examples keyed by question id,
created once) and one experiment (a project with ``reference_dataset_id``) per (run, data set,
protocol), holding one run per question with its answer and a ``correct`` feedback score.
Nothing else in the harness depends on this module; while a run executes, LangChain's own
tracing (``LANGSMITH_TRACING``) records the model calls.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from disputatio.eval.results import ResultsLog, read_manifest

_NAMESPACE = uuid.UUID("5b0c1d1e-9a54-4c83-8f0e-2a1f7d3c6b10")


def example_id(dataset: str, question_id: str) -> str:
    """Stable LangSmith example id of a question."""
    return str(uuid.uuid5(_NAMESPACE, f"{dataset}/{question_id}"))


def push_run(run_dir: Path, client: Any = None) -> str:
    """Create the datasets, experiments, runs and feedback of ``run_dir``; return a summary.

    Args:
        run_dir: A run folder of ``eval run``.
        client: A ``langsmith.Client`` (default: one from the environment).
    """
    if client is None:
        from langsmith import Client

        client = Client()
    manifest = read_manifest(run_dir)
    finished = ResultsLog(run_dir / "results.jsonl", writer=False).finished().values()
    by_group: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for record in finished:
        by_group.setdefault((record["dataset"], record["protocol"]), []).append(record)
    datasets: dict[str, Any] = {}
    for (dataset, protocol), records in sorted(by_group.items()):
        if dataset not in datasets:
            datasets[dataset] = _dataset(client, dataset, records)
        project = f"{manifest['run_id']}/{dataset}/{protocol}"
        client.create_project(
            project,
            reference_dataset_id=datasets[dataset],
            metadata={"identity": manifest["identity"], "protocol": protocol},
            upsert=True,
        )
        for record in records:
            run_id = uuid.uuid5(_NAMESPACE, f"{project}/{record['question_id']}")
            end = datetime.now(UTC)
            client.create_run(
                name=protocol,
                inputs={"question": record.get("question"), "options": record.get("options")},
                run_type="chain",
                project_name=project,
                id=run_id,
                outputs={"answer": record.get("answer"), "consensus": record.get("consensus_type")},
                reference_example_id=example_id(dataset, record["question_id"]),
                start_time=end,
                end_time=end,
                extra={
                    "metadata": {"wall_ms": record.get("wall_ms"), "usage": record.get("usage")}
                },
            )
            client.create_feedback(run_id, key="correct", score=float(bool(record.get("correct"))))
    return f"{len(by_group)} experiment(s) of run {manifest['run_id']}"


def _dataset(client: Any, dataset: str, records: list[dict[str, Any]]) -> Any:
    name = f"disputatio-{dataset}"
    if client.has_dataset(dataset_name=name):
        ds = client.read_dataset(dataset_name=name)
        have = {str(e.id) for e in client.list_examples(dataset_id=ds.id)}
    else:
        ds = client.create_dataset(name, description=f"disputatio eval questions of {dataset}")
        have = set()
    new = [
        {
            "id": example_id(dataset, r["question_id"]),
            "inputs": {"question": r.get("question"), "options": r.get("options")},
            "outputs": {"answer": r.get("gold")},
        }
        for r in records
        if example_id(dataset, r["question_id"]) not in have
    ]
    if new:
        client.create_examples(dataset_id=ds.id, examples=new)
    return ds.id
