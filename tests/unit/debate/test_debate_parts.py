"""A flat debate (the question not decomposed) says which part of a two-part question it leaves.

The scripted workers answer the mechanism from the one shown section and invent a dose (a
number in no sentence, dropped by the claim check): the final answer says the documents do not
answer the dose part, and with ``grounding.answer_parts`` off it silently does not.
"""

from __future__ import annotations

import dataclasses

from debate_fakes import ASPIRIN, context, run, scripted

from disputatio.settings import load_settings
from disputatio.testing import FakeRetriever

QUESTION = "How does aspirin work, and how much is taken daily?"
ANSWER = "Aspirin irreversibly inhibits COX-1 [s-aspirin]. Adults take 500 mg daily [s-aspirin]."


def _run(answer_parts: bool) -> dict:
    settings = load_settings(
        models={"chat": "openai:never-called"},
        grounding={"checker": "lexical", "answer_parts": answer_parts},
    )
    models = {f"worker-root-{i}": scripted(f"w{i}", ANSWER) for i in range(2)}
    retriever = FakeRetriever([ASPIRIN], match_all=True)
    ctx = dataclasses.replace(
        context(models, retriever, flat=True, workers=2, rounds=0), settings=settings
    )
    out, _, _ = run(QUESTION, ctx)
    for model in models.values():
        assert QUESTION in str(model.prompts[0][-1].content)  # each worker was asked it
    return out


def test_a_flat_debate_says_which_part_the_documents_do_not_answer() -> None:
    out = _run(answer_parts=True)
    assert "COX-1" in out["answer"] and "500 mg" not in out["answer"]
    assert out["answer"].splitlines()[-1].endswith("How much is taken daily?")
    said = [c for c in out["claims"] if c["verdict"] == "not_found"]
    assert [c["part"] for c in said] == ["part 2"]


def test_without_answer_parts_the_flat_debate_leaves_it_unsaid() -> None:
    out = _run(answer_parts=False)
    assert "How much is taken daily" not in out["answer"]
    assert not [c for c in out["claims"] if c["verdict"] == "not_found"]
