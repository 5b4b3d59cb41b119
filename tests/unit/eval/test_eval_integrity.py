"""Integrity of a run: the corpus it searched is part of its identity."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from disputatio.cli import eval_report, eval_run
from disputatio.eval import runner
from disputatio.eval.config import EvalConfig, tenant_fingerprint
from disputatio.eval.datasets import DATASETS

from .conftest import fake_retriever, scripted_models, toy_questions

REPO = Path(__file__).resolve().parents[3]
KB_RUN = REPO / "docs" / "results" / "runs" / "local-qwen2-5-coder-1-5b-kb-163b7012f64e"


def app() -> typer.Typer:
    cli = typer.Typer()
    cli.command("run")(eval_run.run)
    cli.command("report")(eval_report.report)
    return cli


class FakeDocuments:
    """A connection whose ``documents`` table holds ``rows`` of (tenant, collection, sha256)."""

    def __init__(self, rows: list[tuple[str, str, str]]) -> None:
        self.rows = rows
        self.queries: list[tuple[str, list[Any]]] = []

    def execute(self, sql: str, params: list[Any]) -> Any:
        self.queries.append((sql, list(params)))
        assert sql.startswith("SELECT sha256 FROM documents WHERE tenant = %s")
        tenant, *rest = params
        picked = [
            (sha,)
            for t, coll, sha in reversed(self.rows)  # any order: the caller sorts
            if t == tenant and (not rest or coll == rest[0])
        ]

        class Cursor:
            def fetchall(self) -> list[tuple[str]]:
                return picked

        return Cursor()


def test_the_tenant_fingerprint_follows_the_tenant_s_documents_only() -> None:
    rows = [("t", "a", "h1"), ("t", "b", "h2"), ("other", "a", "h3")]
    base = tenant_fingerprint(FakeDocuments(rows), "t")
    assert base["documents"] == 2
    # the order the database returns rows in plays no part; other tenants neither
    assert tenant_fingerprint(FakeDocuments([*rows[::-1], ("x", "a", "h9")]), "t") == base
    changed = [("t", "a", "h1"), ("t", "b", "h2-edited"), ("other", "a", "h3")]
    added = [*rows, ("t", "a", "h4")]
    removed = rows[1:]
    prints = {tenant_fingerprint(FakeDocuments(r), "t")["fingerprint"] for r in (changed, added)}
    prints.add(tenant_fingerprint(FakeDocuments(removed), "t")["fingerprint"])
    assert base["fingerprint"] not in prints and len(prints) == 3
    # a collection filter is hashed in and filters the documents
    only_a = tenant_fingerprint(FakeDocuments(rows), "t", collection="a")
    assert only_a["documents"] == 1 and only_a["fingerprint"] != base["fingerprint"]


@contextlib.contextmanager
def _connect(conn: FakeDocuments) -> Iterator[FakeDocuments]:
    yield conn


def test_a_changed_tenant_corpus_gets_a_new_run_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from disputatio.storage import db

    def env_factory(config: Any, settings: Any, checkpointer: Any) -> Any:
        assert config.corpus == "tenant" and config.tenant == "lab"
        from disputatio.eval.protocols import ProtocolEnv
        from disputatio.nodes.medrag.context import MedragContext

        def env_for(dataset: str, questions: Any) -> ProtocolEnv:
            ctx = MedragContext(models=scripted_models(), retriever=fake_retriever(), k=config.k)
            return ProtocolEnv(medrag=ctx)

        return env_for

    docs = FakeDocuments([("lab", "default", "h1"), ("lab", "default", "h2")])
    monkeypatch.setattr(db, "connect", lambda *_a, **_k: _connect(docs))
    monkeypatch.setattr(eval_run, "_env_factory", env_factory)
    monkeypatch.setattr(runner, "load_all", lambda name: toy_questions(3, name))
    monkeypatch.setitem(DATASETS, "toy", DATASETS["medqa"])
    args = ["run", "-d", "toy", "-p", "cot,rag", "-n", "2", "--corpus", "tenant"]
    args += ["--tenant", "lab", "--no-db", "-o", str(tmp_path), "-m", "scripted:model"]

    first = CliRunner().invoke(app(), args)
    assert first.exit_code == 0, first.output
    assert "4 new, 0 errors, 0 finished before" in first.output
    same = CliRunner().invoke(app(), args)  # same documents: the same run, resumed
    assert "0 new, 0 errors, 4 finished before" in same.output, same.output

    docs.rows[1] = ("lab", "default", "h2-replaced")
    changed = CliRunner().invoke(app(), args)
    assert changed.exit_code == 0, changed.output
    assert "4 new, 0 errors, 0 finished before" in changed.output, changed.output
    runs = sorted(p for p in tmp_path.iterdir() if p.is_dir())
    assert len(runs) == 2
    prints = {
        json.loads((r / "manifest.json").read_text())["identity"]["corpus_fingerprint"]
        for r in runs
    }
    assert len(prints) == 2 and None not in prints
    assert "tenant lab: 2 documents" in first.output


@pytest.mark.skipif(not KB_RUN.is_dir(), reason="the committed kb run is not in this checkout")
def test_a_kb_configuration_keeps_its_identity_and_run_id() -> None:
    """The long kb run's committed manifest recomputes to the same identity and run id."""
    manifest = json.loads((KB_RUN / "manifest.json").read_text(encoding="utf-8"))
    identity = manifest["identity"]
    fields = dict(identity)
    temps = fields.pop("temperatures")
    config = EvalConfig(**fields, temperatures=tuple(temps) if temps is not None else None)
    assert config.identity() == identity
    assert config.run_id == manifest["run_id"] == KB_RUN.name


def _summary_run(tmp_path: Path, make_env: Any, config: EvalConfig) -> tuple[Any, Path]:
    from disputatio.eval.runner import Plan, run_eval

    qs = toy_questions(3)
    plan = Plan(("toy",), ("medrag",), n=3, loader=lambda _name: list(qs))
    models = scripted_models(agents=("A", "B"))  # disagreement: rounds, hence summaries

    def go() -> dict[str, Any]:
        return run_eval(config, plan, make_env(models), out_root=tmp_path)

    summary = go()
    assert summary["new"] == 3
    return go, Path(summary["run_dir"]) / "logs" / "toy" / "oracle" / "medrag"


def _by_question(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        out.setdefault(json.loads(line)["question_id"], []).append(line)
    return out


def test_a_kill_before_the_summaries_are_appended_is_repaired_on_resume(
    tmp_path: Path, make_env: Any, config: EvalConfig
) -> None:
    """Killed between a question's JSON file and its summaries: resume restores them once."""
    go, folder = _summary_run(tmp_path, make_env, config)
    log = folder / "summarization_logs.jsonl"
    whole = log.read_text(encoding="utf-8")
    before = _by_question(log)
    assert set(before) == {"q0", "q1", "q2"} and all(len(v) >= 2 for v in before.values())
    # q1's JSON file was written, its summaries never appended; q2's last line was torn
    kept = [line for q, lines in before.items() if q != "q1" for line in lines]
    log.write_text("\n".join(kept[:-1]) + "\n" + kept[-1][:10], encoding="utf-8")
    assert (folder / "q1__complete_debate.json").exists()

    second = go()
    assert (second["new"], second["skipped"]) == (0, 3)
    after = _by_question(log)
    assert {q: sorted(v) for q, v in after.items()} == {q: sorted(v) for q, v in before.items()}
    repaired = log.read_text(encoding="utf-8")
    assert go()["new"] == 0 and log.read_text(encoding="utf-8") == repaired  # no duplicates
    assert sorted(repaired.splitlines()) == sorted(whole.splitlines())


def test_a_kill_before_the_question_s_json_is_repaired_with_its_summaries(
    tmp_path: Path, make_env: Any, config: EvalConfig
) -> None:
    go, folder = _summary_run(tmp_path, make_env, config)
    log = folder / "summarization_logs.jsonl"
    before = log.read_text(encoding="utf-8")
    (folder / "q0__complete_debate.json").unlink()
    log.write_text(
        "".join(line + "\n" for line in before.splitlines() if '"q0"' not in line),
        encoding="utf-8",
    )
    go()
    assert (folder / "q0__complete_debate.json").exists()
    assert sorted(log.read_text(encoding="utf-8").splitlines()) == sorted(before.splitlines())


def _report_run(tmp_path: Path, bad_line: str) -> Path:
    from disputatio.eval.results import write_manifest

    run_dir = tmp_path / "run"
    write_manifest(run_dir, {"corpus": "oracle"}, {})
    good: dict[str, Any] = {"dataset": "toy", "protocol": "cot", "question_id": "q0", "gold": "A"}
    good |= {"answer": "A", "correct": True, "error": None, "usage": {}, "wall_ms": 5.0}
    lines = [json.dumps(good), json.dumps({**good, "question_id": "q1"}), bad_line]
    (run_dir / "results.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return run_dir


@pytest.mark.parametrize(
    ("bad_line", "says"),
    [
        ('{"dataset": "toy", "question_id": "q2", "correct": true}', "without protocol"),
        ("[1, 2]", "not a record (JSON an array"),
        ('"text"', "not a record (JSON a string"),
        ("null", "not a record (JSON null"),
        (
            '{"dataset": "toy", "protocol": "cot", "question_id": "q2", "usage": [1]}',
            "malformed record (AttributeError",
        ),
        (
            '{"dataset": "toy", "protocol": "cot", "question_id": "q2", "wall_ms": "slow"}',
            "malformed record (ValueError",
        ),
    ],
)
def test_a_malformed_record_stops_the_report_with_one_line_naming_file_and_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    bad_line: str,
    says: str,
) -> None:
    from disputatio.cli import main

    run_dir = _report_run(tmp_path, bad_line)
    monkeypatch.setenv("DISPUTATIO_HOME", str(tmp_path / "home"))
    with pytest.raises(SystemExit) as exit_:
        main(["eval", "report", str(run_dir), "-o", str(tmp_path / "rep")])
    err = capsys.readouterr().err
    assert f"{run_dir / 'results.jsonl'}:3: " in err and says in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert exit_.value.code == 2
    assert not (tmp_path / "rep" / "report.md").exists()  # no report with a record left out


def test_a_well_formed_run_still_reports(tmp_path: Path) -> None:
    from disputatio.eval.render import write_report

    good = '{"dataset": "toy", "protocol": "rag", "question_id": "q0", "gold": "A", "error": null}'
    paths = write_report([_report_run(tmp_path, good)], tmp_path / "rep")
    assert "| cot | 2 |" in paths["markdown"].read_text(encoding="utf-8")


def test_resuming_over_a_malformed_record_names_its_line_too(
    tmp_path: Path, make_env: Any, config: EvalConfig
) -> None:
    from disputatio.errors import ConfigError
    from disputatio.eval.runner import Plan, run_eval

    qs = toy_questions(2)
    plan = Plan(("toy",), ("cot",), n=2, loader=lambda _name: list(qs))
    summary = run_eval(config, plan, make_env(scripted_models()), out_root=tmp_path)
    path = Path(summary["run_dir"]) / "results.jsonl"
    with path.open("a", encoding="utf-8") as fh:
        fh.write('{"protocol": "cot", "question_id": "q9"}\n')
    with pytest.raises(ConfigError, match=r"results\.jsonl:3: record without dataset"):
        run_eval(config, plan, make_env(scripted_models()), out_root=tmp_path)
