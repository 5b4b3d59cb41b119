"""The confidence of eval records, its fit on the calibration split, and the report section."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from disputatio.cli import eval_report
from disputatio.errors import ConfigError
from disputatio.eval.confidence import agreement, raw_confidence, signals, split_of_record
from disputatio.eval.confidence_fit import (
    MODEL_FILE,
    cross_fitted,
    find_model,
    fit_models,
    fitted_confidence,
)
from disputatio.eval.confidence_metrics import ece
from disputatio.eval.render import write_report
from disputatio.eval.results import write_manifest

from .run_files import write_run


def rec(qid: str, right: bool, protocol: str = "rag_logprob", **extra: Any) -> dict[str, Any]:
    return {
        "dataset": "toy",
        "protocol": protocol,
        "question_id": qid,
        "answer": "A",
        "gold": "A" if right else "B",
        "correct": right,
        "error": None,
        "wall_ms": 10.0,
        "usage": {},
        **extra,
    }


def logprob_rec(qid: str, right: bool, p: float, protocol: str = "rag_logprob") -> dict[str, Any]:
    return rec(qid, right, protocol, calibration={"probs": {"A": p, "B": 1 - p}})


def overconfident_records(n: int = 300, seed: int = 0) -> list[dict[str, Any]]:
    """Right with probability q; the raw confidence says 0.5 + q / 2 (informative, too high)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        q = float(rng.uniform(0.2, 0.9))
        out.append(logprob_rec(f"q{i}", bool(rng.random() < q), 0.5 + q / 2))
    return out


def test_the_raw_confidence_is_the_one_the_record_carries() -> None:
    assert raw_confidence(logprob_rec("q", True, 0.8)) == (pytest.approx(0.8), "option_prob")
    validated = rec("q", True, "medrag", log={"validation": [{"name": "confidence", "score": 0.3}]})
    assert raw_confidence(validated) == (0.3, "validator")
    assert raw_confidence(rec("q", True, "hier", log={"confidence": 1.0})) == (1.0, "log")
    assert raw_confidence(rec("q", True, "x", confidence=0.6)) == (0.6, "record")
    # nothing written, or no answer: no confidence (never imputed)
    assert raw_confidence(rec("q", True, "cot")) == (None, None)
    unanswered = {**logprob_rec("q", False, 0.8), "answer": None}
    assert raw_confidence(unanswered) == (None, None)


def test_agreement_is_the_share_of_the_last_round_or_samples_that_gave_the_answer() -> None:
    rounds = [{"answers": {"a": "B", "b": "B"}}, {"answers": {"a": "A", "b": "B"}}]
    assert agreement(rec("q", True, "medrag", answers_per_round=rounds)) == 0.5
    samples = [{"round": 1, "choice": c} for c in "AABA"]
    assert agreement(rec("q", True, "sc", log={"history": samples})) == 0.75
    assert agreement(rec("q", True, "cot", log={"history": [{"round": 1, "choice": "A"}]})) is None


def test_retrieval_and_support_signals_are_read_from_the_log() -> None:
    claims = [
        {"factual": True, "verdict": "supported", "evidence": {"score": 0.8}},
        {"factual": True, "verdict": "unsupported"},
    ]
    log = {
        "retrieval": [{"scores": [0.2, 0.9]}, {"scores": [0.5]}, {"scores": [], "skipped": True}],
        "validation": [{"name": "support", "details": {"claims": claims}}],
    }
    s = signals(rec("q", True, "medrag", log=log))
    assert s["retrieval_top"] == 0.9 and s["retrieval_mean"] == pytest.approx(0.7)
    assert s["supported_share"] == 0.5 and s["evidence_score"] == 0.8 and s["not_found"] == 0.0


def test_a_record_s_own_split_wins_over_the_id_hash() -> None:
    records = overconfident_records(200)
    hashed = {split_of_record(r) for r in records}
    assert hashed == {"calibration", "test"}
    assert split_of_record({**records[0], "split": "test"}) == "test"


def test_the_fit_never_sees_test_records() -> None:
    records = overconfident_records()
    calib = [r for r in records if split_of_record(r) == "calibration"]
    test = [r for r in records if split_of_record(r) == "test"]
    assert len(calib) >= 30 and len(test) >= 150
    # test records turned upside down (every answer's outcome flipped) change nothing
    flipped = [{**r, "correct": not r["correct"]} for r in test]
    alone = fit_models(calib)
    assert fit_models(records) == alone == fit_models(calib + flipped)
    model = find_model(alone, "toy", "rag_logprob")
    assert model is not None and model["fitted"]
    assert set(model["calibration_ids"]) == {f"toy:{r['question_id']}" for r in calib}
    with pytest.raises(ConfigError, match="fitted on"):
        fitted_confidence(model, calib[0])


def test_the_fitted_confidence_is_better_calibrated_on_the_test_split() -> None:
    records = overconfident_records(600)
    model = find_model(fit_models(records), "toy", "rag_logprob")
    assert model is not None and model["kind"] in ("platt", "isotonic", "logistic")
    test = [r for r in records if split_of_record(r) == "test"]
    right = [r["correct"] for r in test]
    raw = [raw_confidence(r)[0] for r in test]
    fitted = [fitted_confidence(model, r) for r in test]
    assert ece(fitted, right) < ece(raw, right) / 2  # type: ignore[arg-type,operator]


def test_a_useless_signal_gives_the_constant_model() -> None:
    rng = np.random.default_rng(3)
    records = [
        logprob_rec(f"q{i}", bool(rng.random() < 0.7), float(rng.uniform(0.3, 1.0)))
        for i in range(400)
    ]
    model = find_model(fit_models(records), "toy", "rag_logprob")
    assert model is not None and model["kind"] == "constant"
    assert set(model["cv_log_loss"]) == {"constant", "platt", "isotonic", "logistic"}
    assert model["cv_log_loss"]["constant"] == min(model["cv_log_loss"].values())


def test_a_model_pooled_over_data_sets_scores_each_of_them() -> None:
    toy = overconfident_records(200)
    other = [{**r, "dataset": "other"} for r in overconfident_records(200, seed=1)]
    models = fit_models(toy + other, by="protocol")
    model = find_model(models, "other", "rag_logprob")
    assert model is not None and model is find_model(models, "toy", "rag_logprob")
    assert model["dataset"] == "*" and model["n_calibration"] > 50
    # the same question id is a calibration record of one set and a test record of the other
    test = [r for r in other if split_of_record(r) == "test"]
    shared = {f"toy:{r['question_id']}" for r in test} & set(model["calibration_ids"])
    assert shared and all(fitted_confidence(model, r) is not None for r in test)


def test_too_few_calibration_records_are_not_fitted_and_say_why() -> None:
    model = find_model(fit_models(overconfident_records(20)), "toy", "rag_logprob")
    assert model is not None and not model["fitted"] and "calibration records" in model["reason"]


def test_the_report_renders_the_confidence_section(tmp_path: Path) -> None:
    records = overconfident_records(200)
    records += [rec(f"q{i}", i % 3 > 0, "cot") for i in range(40)]
    run = write_run(tmp_path, records)
    paths = write_report([run], tmp_path / "report")
    text = paths["markdown"].read_text()
    assert "## Confidence" in text and "10 equal-width bins" in text
    assert "| toy | cot | 40 | 0 of 40 answered | none written |" in text
    assert "| toy | rag_logprob | 200 | 200 of 200 answered | chosen option's probability |" in text
    assert "fitted in memory for this report" in text
    for name in ("reliability", "risk_coverage"):
        assert paths[name].stat().st_size > 1000 and f"![{name}]({name}.png)" in text
    doc = json.loads(paths["json"].read_text())
    group = doc["confidence"]["toy"]["rag_logprob"]
    assert group["raw"]["n"] == 200 and group["test"]["fitted"]["n"] > 100
    assert group["raw"]["ece"] > group["test"]["fitted"]["ece"]


def test_calibrate_confidence_writes_the_model_the_report_then_reads(tmp_path: Path) -> None:
    run = write_run(tmp_path, overconfident_records(200))
    cli = typer.Typer()
    cli.command("calibrate-confidence")(eval_report.calibrate_confidence)
    cli.command("report")(eval_report.report)
    result = CliRunner().invoke(cli, ["calibrate-confidence", str(run), "--by", "protocol"])
    assert result.exit_code == 0, result.output
    assert "*/rag_logprob:" in result.output and "CV log-loss" in result.output
    kept = json.loads((run / MODEL_FILE).read_text())
    assert kept["by"] == "protocol" and kept["models"][0]["fitted"]
    out = CliRunner().invoke(cli, ["report", str(run), "-o", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    assert f"kept in `{MODEL_FILE}` (by protocol)" in (tmp_path / "r" / "report.md").read_text()
    bad = CliRunner().invoke(cli, ["calibrate-confidence", str(run), "--by", "question"])
    assert bad.exit_code == 2


def test_records_of_a_calibration_run_fit_the_model_of_their_set() -> None:
    records = overconfident_records(300)
    test = [r for r in records if split_of_record(r) == "test"]
    # the same questions' calibration counterparts, run as "toy@calibration"
    calib = [
        {**r, "dataset": "toy@calibration", "question_id": f"c{i}"} for i, r in enumerate(test)
    ]
    assert {split_of_record(r) for r in calib} == {"calibration"}
    model = find_model(fit_models(test + calib), "toy", "rag_logprob")
    assert model is not None and model["fitted"]
    assert len(model["calibration_ids"]) == len(calib)


def test_cross_fitting_scores_each_record_with_a_model_that_never_saw_it() -> None:
    """Flipping a record's outcome leaves its own out-of-fold confidence as it was."""
    records = [{**r, "split": "test"} for r in overconfident_records(100)]
    before, kinds = cross_fitted(records)
    assert len(kinds) == 5 and all(p is not None for p in before)
    for i in (0, 37, 99):
        flipped = [*records[:i], {**records[i], "correct": not records[i]["correct"]},
                   *records[i + 1 :]]  # fmt: skip
        after, _ = cross_fitted(flipped)
        assert after[i] == before[i]
        assert after != before  # the other folds' models did see it
    assert cross_fitted(records[:15]) == ([None] * 15, [])  # too few to fit 5 folds


def test_a_run_without_calibration_records_is_cross_fitted_in_the_report(tmp_path: Path) -> None:
    records = [{**r, "split": "test"} for r in overconfident_records(200)]
    paths = write_report([write_run(tmp_path, records)], tmp_path / "report")
    group = json.loads(paths["json"].read_text())["confidence"]["toy"]["rag_logprob"]
    assert not group["fit"]["fitted"] and group["fit"]["cross"]["folds"] == 5
    assert group["test"]["fitted"]["n"] == 200
    assert group["raw"]["ece"] > group["test"]["fitted"]["ece"]
    assert "| toy | rag_logprob | cross-fitted (5 folds): " in paths["markdown"].read_text()


def _calibrate(*args: str) -> Any:
    cli = typer.Typer()
    cli.command("calibrate-confidence")(eval_report.calibrate_confidence)
    cli.command("report")(eval_report.report)
    return CliRunner().invoke(cli, list(args))


def test_a_test_run_is_calibrated_on_another_runs_calibration_records(tmp_path: Path) -> None:
    """A MIRAGE run draws test questions only; a run of ``<set>@calibration`` fits its model."""
    records = overconfident_records(300)
    test = [{**r, "split": "test"} for r in records]
    calib = [{**r, "dataset": "toy@calibration", "question_id": f"c{i}"} for i, r in
             enumerate(records[:120])]  # fmt: skip
    run, other = write_run(tmp_path / "a", test), write_run(tmp_path / "b", calib)
    alone = _calibrate("calibrate-confidence", str(run))
    assert "toy/rag_logprob: not fitted" in alone.output
    both = _calibrate("calibrate-confidence", str(run), "--calibration-run", str(other))
    assert both.exit_code == 0, both.output
    kept = json.loads((run / MODEL_FILE).read_text())
    model = find_model(kept, "toy", "rag_logprob")
    assert model is not None and model["fitted"] and model["n_calibration"] == 120
    assert kept["calibration_runs"] == [str(other)]
    out = _calibrate("report", str(run), "-o", str(tmp_path / "r"))
    assert out.exit_code == 0, out.output
    doc = json.loads((tmp_path / "r" / "report.json").read_text())
    group = doc["confidence"]["toy"]["rag_logprob"]
    assert "cross" not in group["fit"] and group["test"]["fitted"]["n"] == 300


def test_a_calibration_run_of_another_model_is_refused(tmp_path: Path) -> None:
    run = write_run(tmp_path / "a", [{**r, "split": "test"} for r in overconfident_records(50)])
    other = tmp_path / "b"
    write_manifest(other, {"model": "another", "corpus": "kb"}, {})
    (other / "results.jsonl").write_text("")
    out = _calibrate("calibrate-confidence", str(run), "--calibration-run", str(other))
    assert out.exit_code != 0
    assert "used model 'another'" in str(out.exception) + out.output
    assert not (run / MODEL_FILE).exists()
