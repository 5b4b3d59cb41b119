"""Calibrated log-probability verdicts: the calibration maths, the protocols, their params kept."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from disputatio.errors import ConfigError
from disputatio.eval.calibration import (
    apply_biases,
    apply_prior,
    argmax_label,
    content_free_prior,
    fit_biases,
    label_probs,
)
from disputatio.eval.config import EvalConfig
from disputatio.eval.logprob_verdict import content_free_messages
from disputatio.eval.protocols import ProtocolEnv
from disputatio.eval.question import Question
from disputatio.eval.render import write_report
from disputatio.eval.results import ResultsLog
from disputatio.eval.runner import Plan, run_eval
from disputatio.eval.stats import balanced_accuracy
from disputatio.models.logprobs import LogprobsUnavailableError
from disputatio.nodes.medrag.context import MedragContext
from disputatio.testing import ScriptedChatModel

from .conftest import fake_retriever
from .logprob_fakes import completion, lp_reply, openai_endpoint

YN = ["yes", "no"]
CONTENT_FREE = {"N/A", "", "[MASK]"}
# test questions: p(yes) and gold. The model says "yes" to all; p / prior(0.8) separates them.
TEST = {"q0": (0.9, "yes"), "q1": (0.7, "no"), "q2": (0.85, "yes"), "q3": (0.6, "no")}
# calibration questions (never drawn): the same pattern
CALIB = {
    "c0": (0.92, "yes"),
    "c1": (0.72, "no"),
    "c2": (0.88, "yes"),
    "c3": (0.65, "no"),
    "c4": (0.95, "yes"),
    "c5": (0.7, "no"),
}


def yes_no(table: dict[str, tuple[float, str]], dataset: str = "toyyn") -> list[Question]:
    return [
        Question(id=k, dataset=dataset, question=f"Is {k} so?", options=list(YN), gold=g)
        for k, (_, g) in table.items()
    ]


def asked(messages: list[BaseMessage]) -> str:
    """The question of a label prompt (``N/A``, ``""``, ``[MASK]`` for content-free ones)."""
    match = re.search(r"<question>\n(.*?)\n</question>", str(messages[-1].content), re.S)
    assert match is not None
    return match.group(1)


class Model:
    """A scripted endpoint: p(yes) by question; content-free inputs give p(yes) = 0.8."""

    def __init__(self, fail_at: Callable[[str, int], bool] | None = None) -> None:
        self.asked: Counter[str] = Counter()
        self.fail_at = fail_at
        self.table = {f"Is {k} so?": p for k, (p, _) in {**TEST, **CALIB}.items()}
        self.chat = ScriptedChatModel(script=[self.reply], repeat_last=True)

    def reply(self, messages: list[BaseMessage]) -> AIMessage:
        q = asked(messages)
        self.asked[q] += 1
        if self.fail_at is not None and self.fail_at(q, self.asked[q]):
            raise RuntimeError("server down")
        p = 0.8 if q in CONTENT_FREE else self.table[q]
        return lp_reply({"Yes": p, "No": 1 - p} if p >= 0.5 else {"No": 1 - p, "Yes": p})

    def count(self, keys: set[str] | dict[str, Any]) -> int:
        names = {f"Is {k} so?" for k in keys} if not CONTENT_FREE & set(keys) else set(keys)
        return sum(n for q, n in self.asked.items() if q in names)


def env_factory(model: Any, calib: list[Question] | None = None, **ctx: Any) -> Any:
    def env_for(_dataset: str, _questions: Any) -> ProtocolEnv:
        medrag = MedragContext(models={"baseline": model}, retriever=fake_retriever(), k=2, **ctx)
        loader = (lambda _name: list(calib)) if calib is not None else None
        return ProtocolEnv(medrag=medrag, calibration_questions=loader)

    return env_for


def run(
    config: EvalConfig,
    tmp: Path,
    protocols: tuple[str, ...],
    model: Any,
    n: int = 4,
    calib: list[Question] | None = None,
    **kw: Any,
) -> list[dict[str, Any]]:
    plan = Plan(("toyyn",), protocols, n=n, loader=lambda _name: yes_no(TEST))
    summary = run_eval(config, plan, env_factory(model, calib), out_root=tmp, **kw)
    return ResultsLog(Path(summary["run_dir"]) / "results.jsonl").read()


# --- the maths ----------------------------------------------------------------------------


def test_contextual_calibration_divides_by_the_content_free_prior() -> None:
    prior = content_free_prior([{"yes": 0.8, "no": 0.2}, {"yes": 0.7, "no": 0.3}], YN)
    assert prior == pytest.approx({"yes": 0.75, "no": 0.25})
    q = apply_prior({"yes": 0.7, "no": 0.3}, prior)
    assert q == pytest.approx(
        {
            "yes": (0.7 / 0.75) / (0.7 / 0.75 + 0.3 / 0.25),
            "no": (0.3 / 0.25) / (0.7 / 0.75 + 0.3 / 0.25),
        }
    )
    assert argmax_label(q, YN) == "no"  # raw says yes; below the prior it is a no


def test_a_zero_prior_is_floored_not_divided_by() -> None:
    prior = content_free_prior([{"yes": 1.0, "no": 0.0}], YN)
    assert prior["no"] > 0
    assert sum(apply_prior({"yes": 0.5, "no": 0.5}, prior).values()) == pytest.approx(1.0)


def test_label_probs_renormalise_over_the_labels() -> None:
    import math

    probs = label_probs({"yes": math.log(0.3), "no": math.log(0.1)}, YN)
    assert probs == pytest.approx({"yes": 0.75, "no": 0.25})


def test_fitted_biases_reach_balanced_accuracy_where_the_raw_argmax_is_constant() -> None:
    probs = [{"yes": p, "no": 1 - p} for p, _ in CALIB.values()]
    golds = [g for _, g in CALIB.values()]
    raw = [argmax_label(p, YN) == g for p, g in zip(probs, golds, strict=True)]
    biases = fit_biases(probs, golds, YN)
    fitted = [
        argmax_label(apply_biases(p, biases), YN) == g for p, g in zip(probs, golds, strict=True)
    ]
    assert balanced_accuracy(raw, golds) == 0.5
    assert balanced_accuracy(fitted, golds) == 1.0


def test_fitted_biases_weigh_each_gold_label_equally() -> None:
    # 9 golds yes (p=0.75), 1 gold no (p=0.6): an unweighted fit learns "always yes"
    probs = [{"yes": 0.75, "no": 0.25}] * 9 + [{"yes": 0.6, "no": 0.4}]
    golds = ["yes"] * 9 + ["no"]
    biases = fit_biases(probs, golds, YN)
    answers = [argmax_label(apply_biases(p, biases), YN) for p in probs]
    assert answers == golds


def test_biases_sum_to_zero_and_stay_finite_for_a_label_never_gold() -> None:
    labels = ["yes", "no", "maybe"]
    probs = [{"yes": 0.5, "no": 0.3, "maybe": 0.2}, {"yes": 0.4, "no": 0.5, "maybe": 0.1}]
    biases = fit_biases(probs, ["yes", "no"], labels)
    assert sum(biases.values()) == pytest.approx(0.0, abs=1e-9)
    assert all(abs(b) < 50 for b in biases.values()) and biases["maybe"] < 0


def test_content_free_prompts_keep_the_labels_and_blank_the_texts() -> None:
    text = str(
        content_free_messages("N/A", {"A": "aspirin", "B": "heparin"}, "rag", None)[-1].content
    )
    assert "A. N/A" in text and "B. N/A" in text and "aspirin" not in text
    assert "<documents>" in text and "<question>\nN/A\n</question>" in text
    cot = str(content_free_messages("", ["yes", "no"], "cot", None)[-1].content)
    assert "<documents>" not in cot and "- yes" in cot and cot.rstrip().endswith("Answer:")


# --- the protocols ------------------------------------------------------------------------


def test_cot_calibrated_answers_by_the_calibrated_probability_and_records_both(
    tmp_path: Path, config: EvalConfig
) -> None:
    model = Model()
    records = run(config, tmp_path, ("cot_calibrated",), model.chat)
    by_id = {r["question_id"]: r for r in records}
    assert {q: r["answer"] for q, r in by_id.items()} == {k: g for k, (_, g) in TEST.items()}
    for qid, record in by_id.items():
        cal = record["calibration"]
        assert cal["raw_answer"] == "yes"  # uncalibrated: always yes
        assert cal["raw_probs"]["yes"] == pytest.approx(TEST[qid][0])
        assert cal["probs"] == pytest.approx(apply_prior(cal["raw_probs"], cal["params"]["prior"]))
        assert cal["params"]["prior"]["yes"] == pytest.approx(0.8)
        assert record["log"]["history"][0]["choice"] == record["answer"]
    assert model.count(CONTENT_FREE) == 3  # one prior for the run, three content-free inputs
    sent = model.chat.received[-1]
    assert sent["kwargs"] == {"logprobs": True, "top_logprobs": 20}
    assert sent["temperature"] == 0.0 and sent["max_tokens"] == 2


def test_a_resumed_run_reuses_the_calibration_without_asking_again(
    tmp_path: Path, config: EvalConfig
) -> None:
    run(config, tmp_path, ("cot_calibrated",), Model().chat, n=2)
    no_cf = Model(fail_at=lambda q, _n: q in CONTENT_FREE)  # a content-free call would fail
    records = run(config, tmp_path, ("cot_calibrated",), no_cf.chat, n=3)
    assert all(not r["error"] for r in records) and len(records) == 3
    shutil.rmtree(tmp_path / config.run_id / "calibration")  # lost: the records still hold it
    records = run(config, tmp_path, ("cot_calibrated",), no_cf.chat, n=4)
    assert all(not r["error"] for r in records) and len(records) == 4
    assert no_cf.count(CONTENT_FREE) == 0
    assert (tmp_path / config.run_id / "calibration").is_dir()  # written back from the records


def test_logprob_and_fit_read_the_calibrated_siblings_call(
    tmp_path: Path, config: EvalConfig
) -> None:
    model = Model()
    protocols = ("cot_calibrated", "cot_logprob", "cot_calibrated_fit")
    records = run(config, tmp_path, protocols, model.chat, calib=yes_no(CALIB))
    assert model.count(TEST) == 4  # one verdict call per test question for the three
    calibrated = {r["question_id"]: r for r in records if r["protocol"] == "cot_calibrated"}
    for record in (r for r in records if r["protocol"] != "cot_calibrated"):
        assert record["calibration"]["reused_from"] == "cot_calibrated"
        assert record["usage"] == calibrated[record["question_id"]]["usage"]
    raw = [r for r in records if r["protocol"] == "cot_logprob"]
    assert {r["answer"] for r in raw} == {"yes"}
    fitted = [r for r in records if r["protocol"] == "cot_calibrated_fit"]
    assert all(r["correct"] for r in fitted)


def test_fitted_biases_come_from_the_calibration_split_once_per_run(
    tmp_path: Path, config: EvalConfig
) -> None:
    model = Model()
    records = run(
        config, tmp_path, ("cot_calibrated_fit",), model.chat, calib=yes_no(CALIB), concurrency=2
    )
    assert model.count(CALIB) == len(CALIB)  # each calibration question asked once
    params = records[0]["calibration"]["params"]
    assert sorted(params["ids"]) == sorted(CALIB) and not set(params["ids"]) & set(TEST)
    assert params["balanced_accuracy_fitted"] == 1.0 and params["balanced_accuracy_raw"] == 0.5
    assert all(r["calibration"]["params"] == params for r in records)
    assert all(r["correct"] for r in records)
    again = Model()
    run(config, tmp_path, ("cot_calibrated_fit",), again.chat, calib=yes_no(CALIB), n=4)
    assert again.count(CALIB) == 0


def test_a_fit_killed_halfway_resumes_from_its_kept_scores(
    tmp_path: Path, config: EvalConfig
) -> None:
    calls = Counter[str]()

    def once(q: str, _n: int) -> bool:  # the 4th calibration call of the run fails, once
        if q.startswith("Is c"):
            calls["calib"] += 1
        return calls["calib"] == 4 and q.startswith("Is c")

    model = Model(fail_at=once)
    records = run(config, tmp_path, ("cot_calibrated_fit",), model.chat, calib=yes_no(CALIB))
    assert sum(bool(r["error"]) for r in records) == 1  # the question that met the failure
    assert model.count(CALIB) == len(CALIB) + 1  # 3 kept, 1 failed, the other 3 once
    retry = run(config, tmp_path, ("cot_calibrated_fit",), Model().chat, calib=yes_no(CALIB))
    assert len({r["question_id"] for r in retry if not r["error"]}) == 4


def test_a_verdict_listing_no_label_leaves_the_question_unanswered(
    tmp_path: Path, config: EvalConfig
) -> None:
    chat = ScriptedChatModel(script=[lp_reply({"The": 0.9, "I": 0.1})], repeat_last=True)
    records = run(config, tmp_path, ("cot_logprob",), chat, n=2)
    assert [(r["answer"], r["status"]) for r in records] == [(None, "NO_LABEL")] * 2


def test_an_endpoint_without_logprobs_stops_the_run(tmp_path: Path, config: EvalConfig) -> None:
    chat = ScriptedChatModel(script=["yes"], repeat_last=True)
    with pytest.raises(LogprobsUnavailableError, match="no log-probabilities"):
        run(config, tmp_path, ("cot_calibrated",), chat, n=2)


def test_a_fit_needs_a_calibration_split(tmp_path: Path, config: EvalConfig) -> None:
    with pytest.raises(ConfigError, match="no calibration split"):
        run(config, tmp_path, ("cot_calibrated_fit",), Model().chat, n=1)


def test_the_harness_reads_verdicts_from_an_openai_compatible_endpoint(
    tmp_path: Path, config: EvalConfig
) -> None:
    def answer(body: dict[str, Any]) -> dict[str, Any]:
        q = re.search(r"<question>\n(.*?)\n</question>", body["messages"][-1]["content"], re.S)
        assert q is not None
        p = 0.8 if q.group(1) in CONTENT_FREE else TEST[q.group(1)[3:5]][0]
        return completion({"Yes": p, "No": 1 - p})

    requests: list[dict[str, Any]] = []
    records = run(config, tmp_path, ("cot_calibrated",), openai_endpoint(answer, requests))
    assert all(r["correct"] for r in records) and len(records) == 4
    assert len(requests) == 4 + 3  # the questions and the three content-free inputs
    assert all(b["logprobs"] is True and b["top_logprobs"] == 20 for b in requests)
    assert all(r["usage"]["baseline"]["input_tokens"] == 40 for r in records)


def test_the_report_gives_the_balanced_accuracy_calibration_changes(
    tmp_path: Path, config: EvalConfig
) -> None:
    run(config, tmp_path, ("cot_calibrated", "cot_logprob"), Model().chat)
    paths = write_report([tmp_path / config.run_id], tmp_path / "report")
    summary = json.loads(paths["json"].read_text())["toyyn"]["protocols"]
    assert summary["cot_logprob"]["balanced_accuracy"] == 0.5  # "yes" to everything
    assert summary["cot_calibrated"]["balanced_accuracy"] == 1.0
    assert summary["cot_calibrated"]["calls_per_q"] == 1.0
    assert "cot_calibrated" in paths["markdown"].read_text()
