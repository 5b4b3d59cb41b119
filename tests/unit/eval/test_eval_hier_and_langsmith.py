"""The hierarchical-debate record adapter and the LangSmith push (fake client)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from disputatio.eval.langsmith_sync import example_id, push_run
from disputatio.eval.protocols_hier import parse_graph_answer, record_of
from disputatio.eval.question import Question
from disputatio.eval.results import ResultsLog, write_manifest


def test_hier_record_parses_the_final_text_and_the_root_workers_first_answers() -> None:
    q = Question(id="q1", dataset="toy", question="?", options=["yes", "no"], gold="yes")
    out = {
        "answer": "Evidence [S1] supports it. Answer Choice: yes",
        "transcript": [
            {
                "node": "root",
                "kind": "answer",
                "round": 0,
                "content": "Answer Choice: no",
                "agent": "worker-root-0",
                "queries": ["q one"],
            },
            {
                "node": "root",
                "kind": "answer",
                "round": 0,
                "content": "Answer Choice: no",
                "agent": "worker-root-1",
                "queries": [],
            },
            {
                "node": "root",
                "kind": "answer",
                "round": 1,
                "content": "Answer Choice: yes",
                "agent": "worker-root-0",
                "queries": ["q two"],
            },
        ],
        "tree": [{"id": "root", "children": [], "rounds": 1, "agreement": True, "debated": True}],
        "citations": [{"id": "s1"}],
        "usage": {"worker-root-0": {"role": "synthesizer", "calls": 2}},
    }
    record = record_of(q, out, 12.0)
    assert record["answer"] == "yes" and record["initial_answers"] == ["no", "no"]
    assert (record["rounds_run"], record["converged"], record["debated_leaves"]) == (1, True, 1)
    from disputatio.eval.analysis import question_metrics

    m = question_metrics({**record, "gold": "yes", "correct": True})
    assert (m["change"], m["tool_calls"], m["sections_cited"]) == ("wrong_to_correct", 2, 1)


def test_hier_answer_is_read_from_its_opening_verdict_line() -> None:
    """The composed answer below the verdict holds the sub-questions' own verdicts."""
    yes_no = Question(id="q", dataset="toy", question="?", options=["yes", "no"], gold="yes")
    composed = "Verdict: A\n\nIs X a Y?\nVerdict: No\nIt is not [s1].\n\nWhat is Y?\nVerdict: No"
    assert parse_graph_answer(composed, yes_no) == ("yes", "OK", "verdict")  # A → first label
    assert parse_graph_answer("Verdict: **Yes** [S1] [S2]\nIt is [S1].", yes_no)[0] == "yes"
    # a verdict naming no option: the whole answer is parsed as the baselines' replies are
    assert parse_graph_answer("Verdict: unclear\nThe answer is no.", yes_no)[:2] == ("no", "OK")
    mc = Question(
        id="m", dataset="toy", question="?", options={"A": "Metformin", "B": "Insulin"}, gold="A"
    )
    assert parse_graph_answer("Verdict: Insulin is preferred [S1]", mc) == ("B", "OK", "verdict")
    number = Question(id="n", dataset="gsm8k", question="?", options=[], gold="42")
    assert (
        parse_graph_answer("Verdict: 42 apples\n6 * 7 = 42, plus 3 = 45 in all.", number)[0] == "42"
    )


class FakeClient:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def has_dataset(self, dataset_name: str) -> bool:
        return False

    def create_dataset(self, name: str, **_: Any) -> Any:
        self.calls.append(("dataset", name))
        return SimpleNamespace(id="ds-1")

    def create_examples(self, dataset_id: str, examples: list[dict[str, Any]]) -> None:
        self.calls.append(("examples", [e["id"] for e in examples]))

    def create_project(self, name: str, **kw: Any) -> None:
        self.calls.append(("project", (name, kw["reference_dataset_id"])))

    def create_run(self, **kw: Any) -> None:
        self.calls.append(("run", kw["reference_example_id"]))

    def create_feedback(self, run_id: Any, key: str, score: float) -> None:
        self.calls.append(("feedback", (key, score)))


def test_push_run_makes_one_experiment_per_protocol_linked_to_the_examples(
    tmp_path: Path,
) -> None:
    run = tmp_path / "r1"
    write_manifest(run, {"model": "m"}, {})
    log = ResultsLog(run / "results.jsonl")
    for protocol in ("cot", "rag"):
        log.append(
            {
                "dataset": "toy",
                "protocol": protocol,
                "question_id": "q1",
                "answer": "A",
                "gold": "A",
                "correct": protocol == "cot",
                "error": None,
            }
        )
    client = FakeClient()
    push_run(run, client)
    kinds = [k for k, _ in client.calls]
    assert kinds.count("dataset") == 1 and kinds.count("project") == 2
    assert ("run", example_id("toy", "q1")) in client.calls
    assert [v for k, v in client.calls if k == "feedback"] == [("correct", 1.0), ("correct", 0.0)]
