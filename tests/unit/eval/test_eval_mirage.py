"""MIRAGE's test sets as shipped: loaders, ids, the calibration split, the build, the CLI."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from disputatio.cli import eval_run
from disputatio.errors import ConfigError
from disputatio.eval import mirage, mirage_build
from disputatio.eval.datasets import DATASETS, expand_names, load_all, load_questions
from disputatio.eval.runner import draw

from .conftest import fake_retriever, scripted_models

COUNTS = {"mmlu": 1089, "medqa": 1273, "medmcqa": 4183, "pubmedqa": 500, "bioasq": 618}
ID_FORMATS = {
    "mmlu": r"(anatomy|clinical_knowledge|college_biology|college_medicine|medical_genetics"
    r"|professional_medicine)-\d{3}",
    "medqa": r"\d{4}",
    "medmcqa": r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
    "pubmedqa": r"\d{7,8}",
    "bioasq": r"[0-9a-f]{24}",
}


@pytest.mark.parametrize("name", mirage.SETS)
def test_each_shipped_set_has_mirage_s_count_ids_and_answers(name: str) -> None:
    questions = mirage.load_all(f"mirage:{name}")
    assert len(questions) == COUNTS[name]
    assert len({q.id for q in questions}) == COUNTS[name]
    assert all(re.fullmatch(ID_FORMATS[name], q.id) for q in questions)
    assert all(q.dataset == f"mirage:{name}" and q.question.strip() for q in questions)
    assert all(q.gold in q.options for q in questions)
    if name in ("pubmedqa", "bioasq"):
        labels = ["yes", "no", "maybe"] if name == "pubmedqa" else ["yes", "no"]
        assert all(q.options == labels for q in questions)
        assert all(q.context for q in questions)  # abstracts / gold snippets, for later
    else:
        assert all(list(q.options) == ["A", "B", "C", "D"] for q in questions)  # 4, as MIRAGE
        assert not any(q.context for q in questions)


def test_known_questions_keep_mirage_s_ids_and_answer_letters() -> None:
    """First items of MIRAGE's benchmark.json, read back from the shipped files."""
    medqa = {q.id: q for q in mirage.load_all("mirage:medqa")}
    assert medqa["0000"].gold == "B" and medqa["0000"].question.startswith("A junior ortho")
    assert medqa["0001"].gold == "D"
    mmlu = {q.id: q for q in mirage.load_all("mirage:mmlu")}
    assert mmlu["anatomy-000"].gold == "A" and "stylomastoid" in mmlu["anatomy-000"].question
    medmcqa = {q.id: q for q in mirage.load_all("mirage:medmcqa")}
    first = medmcqa["45258d3d-b974-44dd-a161-c3fccbdadd88"]  # cop 1 → A
    assert isinstance(first.options, dict) and first.gold == "A"
    assert first.options["A"].startswith("Impulse through myelinated")
    bioasq = {q.id: q for q in mirage.load_all("mirage:bioasq")}
    losartan = bioasq["6402c910201352f04a00000c"]  # Task 11B batch 1: the first yes/no
    assert losartan.gold == "no" and "losartan" in losartan.context[0]
    assert sum(len(q.context) for q in bioasq.values()) == 5449


def test_mirage_all_expands_to_the_five_sets_in_order_without_repeats() -> None:
    assert expand_names(["mirage:all"]) == mirage.NAMES
    assert expand_names(["bioasq", "mirage:medqa", "mirage:all"]) == (
        "bioasq",
        "mirage:medqa",
        "mirage:mmlu",
        "mirage:medmcqa",
        "mirage:pubmedqa",
        "mirage:bioasq",
    )
    assert all(name in DATASETS for name in mirage.NAMES) and "mirage:all" not in DATASETS


def test_the_calibration_split_is_a_fixed_hash_of_the_id_and_about_a_fifth() -> None:
    total = calibration = 0
    for name in mirage.NAMES:
        every = mirage.load_all(name)
        calib = mirage.calibration_questions(name)
        test = mirage.split_questions(name, "test")
        assert {q.id for q in calib}.isdisjoint(q.id for q in test)
        assert len(calib) + len(test) == len(every)
        assert 0.15 < len(calib) / len(every) < 0.25
        assert [q.id for q in calib] == [q.id for q in mirage.calibration_questions(name)]
        for q in every[:50]:  # the rule itself: sha256("<data set>:<id>"), per mille < 200
            bucket = int(hashlib.sha256(f"{name}:{q.id}".encode()).hexdigest()[:8], 16) % 1000
            assert mirage.is_calibration(name, q.id) == (bucket < 200)
        total += len(every)
        calibration += len(calib)
    assert 0.18 < calibration / total < 0.22


@pytest.mark.parametrize("name", mirage.NAMES)
def test_test_draws_never_include_a_calibration_question(name: str) -> None:
    held_out = {q.id for q in mirage.calibration_questions(name)}
    pool = load_all(name)  # what `eval run` draws from
    assert len(pool) == len(mirage.load_all(name)) - len(held_out)
    for seed in (0, 1, 7):
        drawn = draw(pool, None, seed)
        assert not held_out & {q.id for q in drawn}
        assert draw(pool, 20, seed) == drawn[:20]  # draws stay prefix-stable (nested)
    assert not held_out & {q.id for q in load_questions(name, n=100, seed=3)}


def test_unknown_sets_and_splits_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="unknown MIRAGE set"):
        mirage.load_all("mirage:nope")
    with pytest.raises(ConfigError, match="unknown data set"):
        load_all("mirage:all")  # a name for the five, not a set
    with pytest.raises(ConfigError, match="unknown split"):
        mirage.split_questions("mirage:medqa", "train")  # type: ignore[arg-type]


def _raw_folder(root: Path) -> Path:
    """One or two items per set, laid out as MIRAGE's rawdata/."""
    mmlu = root / "mmlu" / "data" / "test"
    mmlu.mkdir(parents=True)
    for subject in mirage_build.MMLU_SUBJECTS:
        (mmlu / f"{subject}_test.csv").write_text(f'"{subject}, q?",a,b,"c, d",None,D\n')
    medqa = root / "medqa" / "data_clean" / "questions" / "US" / "4_options"
    medqa.mkdir(parents=True)
    row = {"question": "Q?", "options": dict(zip("ABCD", "wxyz", strict=True)), "answer_idx": "C"}
    (medqa / "phrases_no_exclude_test.jsonl").write_text(json.dumps(row) + "\n")
    (root / "medmcqa" / "data").mkdir(parents=True)
    item = {"id": "u1", "question": "M?", "opa": "1", "opb": "2", "opc": "3", "opd": "4"}
    (root / "medmcqa" / "data" / "dev.json").write_text(
        json.dumps({**item, "cop": 4, "exp": "gives it away"}) + "\n"
    )
    (root / "pubmedqa" / "data").mkdir(parents=True)
    pubmed = {"123": {"QUESTION": "P?", "CONTEXTS": ["c1", "c2"], "final_decision": "maybe"}}
    (root / "pubmedqa" / "data" / "test_set.json").write_text(json.dumps(pubmed))
    for task in (7, 8, 9, 10, 11):
        folder = root / "bioasq" / f"Task{task}BGoldenEnriched"
        folder.mkdir(parents=True)
        if task not in (7, 11):
            continue  # a batch-less year
        doc = "http://www.ncbi.nlm.nih.gov/pubmed/42"
        questions = [
            {"id": f"b{task}", "type": "yesno", "body": "B?", "exact_answer": "Yes",
             "documents": [doc], "snippets": [{"text": f"s{task}"}]},
            {"id": "f", "type": "factoid", "body": "F?", "exact_answer": [["x"]]},
        ]  # fmt: skip
        (folder / f"{task}B1_golden.json").write_text(json.dumps({"questions": questions}))
    for path in ("medqa/LICENSE", "medmcqa/LICENSE.md", "pubmedqa/LICENSE"):
        (root / path).write_text(f"licence of {path}\n")
    return root


def test_the_build_reads_each_raw_set_as_mirage_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        mirage_build, "EXPECTED", {"mmlu": 6, "medqa": 1, "medmcqa": 1, "pubmedqa": 1, "bioasq": 2}
    )
    raw, out = _raw_folder(tmp_path / "raw"), tmp_path / "out"
    assert mirage_build.build(raw, out) == mirage_build.EXPECTED
    first = (out / "bioasq.jsonl.gz").read_bytes()
    mirage_build.build(raw, out)
    assert (out / "bioasq.jsonl.gz").read_bytes() == first  # deterministic bytes

    def rows(name: str) -> list[dict[str, Any]]:
        with gzip.open(out / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh:
            return [json.loads(line) for line in fh]

    (mmlu, *_) = rows("mmlu")
    assert (mmlu["id"], mmlu["question"], mmlu["answer"]) == ("anatomy-000", "anatomy, q?", "D")
    assert mmlu["options"] == {"A": "a", "B": "b", "C": "c, d", "D": "None"}  # text kept
    assert [(r["id"], r["answer"]) for r in rows("medqa")] == [("0000", "C")]
    (mcq,) = rows("medmcqa")
    assert (mcq["id"], mcq["answer"], "exp" in json.dumps(mcq)) == ("u1", "D", False)
    (pub,) = rows("pubmedqa")
    assert (pub["id"], pub["answer"], pub["context"], pub["pmids"]) == (
        "123",
        "maybe",
        ["c1", "c2"],
        [123],
    )
    # Task 11B before 7B; yes/no only; the answer lowercased; snippets kept as context
    assert [(r["id"], r["answer"], r["context"], r["pmids"]) for r in rows("bioasq")] == [
        ("b11", "yes", ["s11"], [42]),
        ("b7", "yes", ["s7"], [42]),
    ]
    assert (out / "LICENSE.medmcqa").read_text() == "licence of medmcqa/LICENSE.md\n"
    loaded = mirage.load_all("mirage:bioasq", root=out)
    assert next((q.id, q.options, q.gold, q.context) for q in loaded) == (
        "b11",
        ["yes", "no"],
        "yes",
        ("s11",),
    )


def test_the_build_refuses_a_set_whose_count_is_not_mirage_s(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="MIRAGE has 1089"):
        mirage_build.build(_raw_folder(tmp_path / "raw"), tmp_path / "out")


def test_the_shipped_files_stay_small() -> None:
    size = sum(p.stat().st_size for p in mirage.DATA_DIR.glob("*.jsonl.gz"))
    assert size < 10_000_000
    assert {p.name for p in mirage.DATA_DIR.glob("LICENSE.*")} == {
        f"LICENSE.{name}" for name in mirage.SETS
    }


def test_eval_run_takes_mirage_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--datasets mirage:all``: the five sets, each drawn from its test split."""
    seen: dict[str, int] = {}

    def env_factory(config: Any, settings: Any, checkpointer: Any) -> Any:
        from disputatio.eval.protocols import ProtocolEnv
        from disputatio.nodes.medrag.context import MedragContext

        def env_for(dataset: str, questions: Any) -> ProtocolEnv:
            seen[dataset] = len(questions)
            return ProtocolEnv(
                medrag=MedragContext(models=scripted_models(), retriever=fake_retriever())
            )

        return env_for

    monkeypatch.setattr(eval_run, "_env_factory", env_factory)
    cli = typer.Typer()
    cli.command("run")(eval_run.run)
    cli.command("other")(lambda: None)
    args = ["run", "-d", "mirage:all", "-p", "cot", "-n", "2", "--corpus", "oracle"]
    result = CliRunner().invoke(cli, [*args, "--no-db", "-o", str(tmp_path), "-m", "scripted:m"])
    assert result.exit_code == 0, result.output
    assert "10 new, 0 errors" in result.output
    assert seen == {name: len(load_all(name)) for name in mirage.NAMES}
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    records = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]
    assert sorted({r["dataset"] for r in records}) == sorted(mirage.NAMES)
    for record in records:
        assert not mirage.is_calibration(record["dataset"], record["question_id"])


def test_a_calibration_split_runs_as_a_data_set_of_its_own() -> None:
    calib = load_all("mirage:bioasq@calibration")
    assert [q.id for q in calib] == [q.id for q in mirage.calibration_questions("mirage:bioasq")]
    assert not {q.id for q in calib} & {q.id for q in load_all("mirage:bioasq")}
    assert all(mirage.is_calibration("mirage:bioasq@calibration", q.id) for q in calib)
    assert mirage.base_name("mirage:bioasq@calibration") == "mirage:bioasq"
    assert expand_names(["mirage:all@calibration"]) == mirage.CALIBRATION_NAMES
    assert all(name in DATASETS for name in mirage.CALIBRATION_NAMES)
