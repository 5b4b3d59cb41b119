"""The quick path checks what the model finished: a reply cut at its token limit loses its tail."""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import AIMessage
from rag_fakes import text_funnel

from disputatio.graphs.rag import graph
from disputatio.nodes.rag.context import RagContext
from disputatio.settings import load_settings
from disputatio.testing import ScriptedChatModel

TEXT = (
    "The water temperature of the Therapy Pool is kept at 34 degrees Celsius. "
    "The Therapy Pool is open to members over 60 on weekday mornings."
)


def test_a_reply_cut_at_its_token_limit_loses_its_unfinished_sentence(tmp_path: Path) -> None:
    """Every word of the fragment stands in the section, so only the cut tells it is no claim."""
    settings = load_settings(home=tmp_path, grounding={"checker": "lexical"})
    corpus = text_funnel(TEXT, "pools.md", settings)
    whole = "The water temperature of the Therapy Pool is kept at 34 degrees Celsius [S1]."
    cut = AIMessage(
        content=f"{whole} The Therapy Pool is open to members over 60",
        response_metadata={"finish_reason": "length"},
    )
    ctx = RagContext(settings=settings, retriever=corpus,
                     models={"answerer": ScriptedChatModel(script=[cut])})  # fmt: skip
    out = graph.invoke({"question": "How warm is the Therapy Pool?", "threshold": 0.0}, context=ctx)
    assert "34 degrees" in out["answer"]
    assert "members over 60" not in out["answer"]
    assert not [c for c in out["claims"] if "members" in c["text"]]
    assert "members over 60" in out["draft"]  # the model's own text is kept as it came
