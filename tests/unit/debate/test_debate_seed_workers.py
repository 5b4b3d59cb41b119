"""Seed 000's debate workers: labels, temperatures, agreement, review, repairs, slots."""

from __future__ import annotations

from debate_fakes import ASPIRIN, BLEED, DOSE, context, run, scripted

from disputatio.nodes.debate.agreement import lexical_similarity, pair_similarity
from disputatio.nodes.debate.workers import REPAIR_MAX_TOKENS
from disputatio.testing import FakeRetriever
from disputatio.validators.claims import NOT_FOUND_ANSWER


def test_workers_see_short_labels_and_their_citations_map_back() -> None:
    models = {
        "worker-root-0": scripted("w0", "Verdict: COX-1.\nIt inhibits COX-1 [S1].", "Same [S1]."),
        "worker-root-1": scripted("w1", "Verdict: unknown.\nNo idea.", "Verdict: COX-1 [S1]."),
        "reviewer-root": scripted("rev", "Fine."),
        "summarizer-root": scripted("sum", "Verdict: COX-1.\nInhibits COX-1 [S1]."),
    }
    ctx = context(models, flat=True, workers=2, rounds=1, max_tool_calls=0, review_searches=0)
    out, _, _ = run("How does aspirin work?", ctx)
    first = "\n".join(str(m.content) for m in models["worker-root-0"].prompts[0])
    assert '<section id="S1" source="pharma.md"' in first and "s-aspirin" not in first
    # the debate round shows the other worker's citations with this worker's labels
    debate = str(models["worker-root-1"].prompts[1][1].content)
    assert "COX-1 [S1]" in debate and "s-aspirin" not in debate
    assert out["transcript"][0]["citations"] == ["s-aspirin"]
    assert [c["id"] for c in out["citations"]] == ["s-aspirin"]


def test_workers_receive_their_own_temperatures() -> None:
    models = {
        "worker-root-0": scripted("w0", "Verdict: yes.\nA [S1]."),
        "worker-root-1": scripted("w1", "Verdict: yes.\nB [S1]."),
    }
    run("Does aspirin inhibit COX?", context(models, flat=True, workers=2, max_tool_calls=0))
    assert [r["temperature"] for r in models["worker-root-0"].received] == [0.7]
    assert [r["temperature"] for r in models["worker-root-1"].received] == [0.3]


def test_agreement_compares_verdicts_not_wording() -> None:
    same = pair_similarity(
        "Verdict: Serology and blood culture.\nLong support one [S1].",
        "Verdict: blood culture and serology\nCompletely different prose [S2].",
        lexical_similarity,
    )
    figures = pair_similarity(
        "Verdict: the battery lasts 300 hours.", "Verdict: 6 hours.", lexical_similarity
    )
    assert same == 1.0 and figures == 0.0
    models = {
        "worker-root-0": scripted("w0", "Verdict: COX-1 inhibition.\nAspirin blocks it [S1]."),
        "worker-root-1": scripted("w1", "Verdict: inhibition of COX-1\nSee the section [S1]."),
    }
    out, _, _ = run("How?", context(models, flat=True, workers=2, rounds=2, max_tool_calls=0))
    assert out["tree"][0]["status"] == "agreed" and not out["tree"][0]["debated"]


def test_reviewer_can_ask_for_more_evidence_bounded() -> None:
    models = {
        "worker-root-0": scripted("w0", "Verdict: safe.\nFine [S1].", "Verdict: safe."),
        "worker-root-1": scripted("w1", "Verdict: risky.\nBleeds.", "Verdict: risky."),
        "reviewer-root": scripted(
            "rev", 'Risk is disputed.\nretrieve("bleeding risk")\nretrieve("dose")'
        ),
        "summarizer-root": scripted("sum", "Verdict: risky.\nIt raises bleeding risk [S2]."),
    }
    retriever = FakeRetriever(
        [ASPIRIN], match_all=True, by_keyword={"bleed": [BLEED], "dose": [DOSE]}
    )
    ctx = context(models, retriever, flat=True, workers=2, rounds=1, max_tool_calls=0)
    out, _, _ = run("Is aspirin safe?", ctx)
    queries = retriever.queries
    assert queries.count("bleeding risk") == 1 and "dose" not in queries  # review_searches=1
    # the found section comes with the summarizer's request, labelled after the reviewed ones
    prompt = models["summarizer-root"].prompts[0]
    request, critique = str(prompt[-1].content), str(prompt[-2].content)
    assert '<section id="S2" source="risks.md"' in request and "raises bleeding risk" in request
    assert critique == "Risk is disputed." and "retrieve(" not in critique
    review = next(m for m in out["transcript"] if m["kind"] == "review")
    assert review["queries"] == ["bleeding risk"] and "retrieve(" not in review["content"]
    assert [c["id"] for c in out["citations"]] == ["s-bleed"]


def test_a_summary_citing_nothing_gives_way_to_the_best_grounded_worker_answer() -> None:
    """The 0.5B e2e failure: the summarizer looped on the moderator's instruction, uncited."""
    loop = "Verdict: The debate is ongoing, and every answer above is supported."
    models = {
        "worker-root-0": scripted("w0", "Verdict: safe.\nFine.", "Verdict: safe.\nStill fine."),
        "worker-root-1": scripted("w1", "Verdict: risky.\nBleeds [S1].", "Verdict: risky [S1]."),
        "reviewer-root": scripted("rev", "They disagree."),
        "summarizer-root": scripted("sum", loop, "no labels"),  # the answer (and a repair)
    }
    ctx = context(models, flat=True, workers=2, rounds=1, max_tool_calls=0, review_searches=0)
    out, _, _ = run("Is aspirin safe?", ctx)
    # worker 1's answer (the notes say so); no claim of it is supported, so neither its short
    # answer "Verdict: risky" nor the id that line cited is shown: the answer says not found
    assert out["answer"] == NOT_FOUND_ANSWER and out["citations"] == []
    assert any("summary cited no section" in n and "worker-root-1" in n for n in out["notes"])
    summary = next(m for m in out["transcript"] if m["kind"] == "summary")
    assert summary["content"] == loop  # what the summarizer said stays in the transcript
    # a summary that cites is kept as it is
    models = {
        **models,
        "summarizer-root": scripted(
            "sum", "Verdict: risky.\nAspirin irreversibly inhibits COX-1 [S1]."
        ),
        "worker-root-0": scripted("w0", "Verdict: safe.\nFine.", "Verdict: safe."),
        "worker-root-1": scripted("w1", "Verdict: risky.\nBleeds [S1].", "Verdict: risky."),
        "reviewer-root": scripted("rev", "They disagree."),
    }
    ctx = context(models, flat=True, workers=2, rounds=1, max_tool_calls=0, review_searches=0)
    out, _, _ = run("Is aspirin safe?", ctx)
    assert out["answer"].startswith("Verdict: risky.\nAspirin irreversibly") and not out.get(
        "notes"
    )


def test_agreeing_workers_keep_the_cited_answer() -> None:
    models = {
        "worker-root-0": scripted("w0", "Verdict: COX-1 inhibition.\nAspirin blocks COX-1."),
        "worker-root-1": scripted("w1", "Verdict: COX-1 inhibition\nIt inhibits COX-1 [S1]."),
    }
    out, _, _ = run("How?", context(models, flat=True, workers=2, rounds=1, max_tool_calls=0))
    assert out["tree"][0]["status"] == "agreed"
    assert out["answer"] == "Verdict: COX-1 inhibition\nIt inhibits COX-1 [s-aspirin]."
    assert [c["id"] for c in out["citations"]] == ["s-aspirin"]


def test_an_uncited_answer_is_asked_once_for_its_labels() -> None:
    worker = scripted("w", "Verdict: COX-1.\nAspirin blocks COX-1.", "[S1]")
    stubborn = scripted("s", "Verdict: COX-1.\nNo labels.", "Still none.")
    ctx = context(
        {"worker-root-0": worker, "worker-root-1": stubborn},
        flat=True,
        workers=2,
        rounds=0,
        max_tool_calls=0,
        cite_repair=True,
    )
    out, _, _ = run("How?", ctx)
    assert worker.calls == 2 and stubborn.calls == 2  # one repair each, no more
    asked = worker.prompts[1]
    assert "cites no section" in str(asked[-1].content)
    assert asked[-2].content == "Verdict: COX-1.\nAspirin blocks COX-1."  # its own answer
    assert worker.received[1]["max_tokens"] == REPAIR_MAX_TOKENS < worker.received[0]["max_tokens"]
    moves = {m["agent"]: m for m in out["transcript"]}
    assert moves["worker-root-0"]["citations"] == ["s-aspirin"]
    # the answer stays as written; the named section is cited at the sentence it supports
    assert moves["worker-root-0"]["content"] == "Verdict: COX-1.\nAspirin blocks COX-1 [s-aspirin]."
    assert moves["worker-root-1"]["content"] == "Verdict: COX-1.\nNo labels."  # original kept
    assert out["usage"]["worker-root-0"]["calls"] == 2


def test_each_worker_keeps_one_slot_and_leaves_spread_over_slots() -> None:
    from disputatio.models.local import request_options
    from disputatio.nodes.debate.workers import worker_slot
    from disputatio.settings import load_settings

    assert [worker_slot("root", f"worker-root-{i}", 2) for i in range(2)] == [0, 1]
    assert [worker_slot(n, f"worker-{n}-0", 1) for n in ("1", "2", "3")] == [0, 1, 2]
    settings = load_settings(local_llm={"n_parallel": 2})
    assert request_options(settings, 3) == {"cache_prompt": True, "id_slot": 1}
    off = load_settings(local_llm={"cache_prompt": False, "slot_affinity": False})
    assert request_options(off, 1) == {"cache_prompt": False}
