"""Evidence read vs evidence found: the leak filter, recall@k of the gold, the context read."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from disputatio.eval.config import EvalConfig
from disputatio.eval.evidence import gold_hits, recall_at_k, texts_match
from disputatio.eval.protocols import ProtocolEnv
from disputatio.eval.question import Question
from disputatio.eval.results import ResultsLog
from disputatio.eval.runner import Plan, run_eval
from disputatio.nodes.medrag.context import MedragContext
from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever, ScriptedChatModel

from .logprob_fakes import lp_reply

OWN = (
    "BRCA1 mutations raise the lifetime risk of breast cancer considerably.",
    "Carriers of BRCA1 variants were offered prophylactic mastectomy in the cohort.",
    "A snippet of the question that the corpus does not hold at all, anywhere.",
)
OTHERS = [f"Unrelated evidence number {i} about another disease entirely." for i in range(4)]


def sections() -> list[Section]:
    """The corpus ranking: own snippets (re-cased, a chunk of one) among others."""
    texts = [
        OWN[0].upper(),
        OTHERS[0],
        "Carriers of BRCA1 variants were offered prophylactic",
        OTHERS[1],
        OTHERS[2],
        OTHERS[3],
    ]
    return [Section(id=f"s{i}", text=t, score=1.0 - i / 10) for i, t in enumerate(texts)]


def ranked() -> FakeRetriever:
    """Returns the first ``k`` (2 unless asked) sections of :func:`sections` for any query."""
    return FakeRetriever(sections(), k=2, match_all=True)


def questions() -> list[Question]:
    with_context = Question(
        id="b1",
        dataset="toyev",
        question="Does BRCA1 raise the risk?",
        options=["yes", "no"],
        gold="yes",
        context=OWN,
    )
    without = Question(
        id="m1",
        dataset="toyev",
        question="Which drug?",
        options={"A": "aspirin", "B": "heparin"},
        gold="A",
    )
    return [with_context, without]


def run(
    config: EvalConfig,
    tmp: Path,
    protocols: tuple[str, ...],
    model: Any,
    retriever: Any,
    qs: list[Question] | None = None,
) -> list[dict[str, Any]]:
    def env_for(_dataset: str, _questions: Any) -> ProtocolEnv:
        return ProtocolEnv(
            medrag=MedragContext(models={"baseline": model}, retriever=retriever, k=2)
        )

    drawn = qs if qs is not None else questions()
    plan = Plan(("toyev",), protocols, n=len(drawn), loader=lambda _name: drawn)
    summary = run_eval(config, plan, env_for, out_root=tmp)
    return ResultsLog(Path(summary["run_dir"]) / "results.jsonl").read()


def prompt(model: ScriptedChatModel, i: int = 0) -> str:
    return str(model.prompts[i][-1].content)


@pytest.mark.parametrize(
    ("section", "snippet", "expected"),
    [
        (OWN[0].upper(), OWN[0], True),  # case and punctuation are ignored
        ("Carriers of BRCA1 variants were offered prophylactic", OWN[1], True),  # a chunk
        (f"Title.\n\n{OWN[1]}\n\nMore text.", OWN[1], True),  # the snippet inside a section
        ("BRCA1 mutations", OWN[0], False),  # too short to say
        (OTHERS[0], OWN[0], False),
    ],
)
def test_texts_match_by_normalised_containment_either_way(
    section: str, snippet: str, expected: bool
) -> None:
    assert texts_match(section, snippet) is expected


def test_recall_at_k_counts_gold_snippets_among_the_first_k() -> None:
    ranked = sections()
    assert gold_hits(ranked[:2], OWN) == [0]
    assert recall_at_k(ranked, OWN, 2) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, OWN, 3) == pytest.approx(2 / 3)
    assert recall_at_k(ranked, (), 3) is None


def test_rag_found_never_shows_the_questions_own_snippets_and_records_recall(
    tmp_path: Path, config: EvalConfig
) -> None:
    model = ScriptedChatModel(script=["Maybe. \\boxed{yes}"], repeat_last=True)
    retriever = ranked()
    (record,) = run(config, tmp_path, ("rag_found",), model, retriever, questions()[:1])
    shown = prompt(model)
    assert OTHERS[0] in shown and OTHERS[1] in shown
    assert "BRCA1" not in shown.split("<question>")[0]  # no own snippet among the documents
    evidence = record["evidence"]
    assert evidence["recall_at_k"] == pytest.approx(1 / 3)  # s0 of the unfiltered top 2
    assert evidence["gold_found"] == [0] and evidence["removed"] == ["s0", "s2"]
    assert evidence["removed_in_top_k"] == 1 and evidence["shown"] == 2
    assert [k for _, k in retriever.calls] == [2 + len(OWN)]  # k plus one per own snippet
    (log,) = record["log"]["retrieval"]
    assert log["ids"] == ["s1", "s3"] and log["candidates"][:3] == ["s0", "s1", "s2"]


def test_rag_found_answers_questions_without_context_unfiltered(
    tmp_path: Path, config: EvalConfig
) -> None:
    model = ScriptedChatModel(script=["\\boxed{A}"], repeat_last=True)
    retriever = ranked()
    kb = dataclasses.replace(config, corpus="kb")  # the oracle corpus skips such questions
    (record,) = run(kb, tmp_path, ("rag_found",), model, retriever, questions()[1:])
    assert record["answer"] == "A"
    assert record["evidence"]["recall_at_k"] is None and record["evidence"]["removed"] == []
    assert [k for _, k in retriever.calls] == [2]


def test_the_rag_verdicts_read_the_same_leak_free_evidence(
    tmp_path: Path, config: EvalConfig
) -> None:
    model = ScriptedChatModel(script=[lp_reply({"Yes": 0.6, "No": 0.4})], repeat_last=True)
    (record,) = run(config, tmp_path, ("rag_logprob",), model, ranked(), questions()[:1])
    documents = prompt(model).split("<question>")[0]
    assert OTHERS[0] in documents and "BRCA1" not in documents
    assert record["evidence"]["removed"] == ["s0", "s2"]
    assert record["calibration"]["setting"] == "rag" and record["answer"] == "yes"


def test_rag_read_gives_the_model_the_questions_own_context_only_where_there_is_one(
    tmp_path: Path, config: EvalConfig
) -> None:
    model = ScriptedChatModel(script=["\\boxed{yes}"], repeat_last=True)
    retriever = ranked()
    records = run(config, tmp_path, ("rag_read",), model, retriever)
    assert [(r["protocol"], r["question_id"]) for r in records] == [("rag_read", "b1")]
    shown = prompt(model)
    assert OWN[0] in shown and OWN[1] in shown  # the first k = 2 snippets
    assert OWN[2] not in shown
    assert [k for _, k in retriever.calls] == []  # nothing searched
    assert record_evidence(records) == {"setting": "read", "k": 2, "gold_snippets": 3, "given": 2}


def record_evidence(records: list[dict[str, Any]]) -> dict[str, Any]:
    evidence = dict(records[0]["evidence"])
    evidence.pop("ids")
    return evidence
