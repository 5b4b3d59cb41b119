"""Quick-path test helpers: an in-memory funnel over texts (fake embeddings, no reranker), and
a judge's reply with log-probabilities."""

from __future__ import annotations

import math

from langchain_core.messages import AIMessage

from disputatio.models.rerank import NoReranker
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import Settings
from disputatio.testing import FakeEmbeddings


def text_funnel(text: str, source: str, settings: Settings) -> InMemoryFunnel:
    """A funnel over ``text`` (one markdown file named ``source``), no entity graph."""
    return InMemoryFunnel.from_texts(
        [(f"{text}\n", {"source": source})],
        embeddings=FakeEmbeddings(),
        reranker=NoReranker(),
        entity_extractor=False,
        settings=settings,
    )


def lp_reply(p_yes: float) -> AIMessage:
    """A one-token reply with log-probabilities, as an OpenAI-compatible endpoint sends it."""
    top = [
        {"token": "yes", "logprob": math.log(p_yes)},
        {"token": "no", "logprob": math.log(1 - p_yes)},
    ]
    first = top[0] if p_yes >= 0.5 else top[1]
    content = [{**first, "top_logprobs": top}]
    return AIMessage(content=first["token"], response_metadata={"logprobs": {"content": content}})
