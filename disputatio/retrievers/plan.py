"""Query planning: keywords for full-text, a text for the vector channel, seeds for the graph.

The deterministic planner needs no model; the LLM planner asks for the same
:class:`QueryPlan` with structured output and falls back to the deterministic plan on failure.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any

from pydantic import BaseModel, Field

from disputatio.ingest.entities import normalize_entity_name
from disputatio.settings import Settings

logger = logging.getLogger(__name__)

# Unicode-aware: "cláusulas", "Müller", "Straße" stay whole words (\w is Unicode in Python 3)
_WORD = re.compile(r"[^\W_][\w\-']*")
STOPWORDS = frozenset(
    (
        "a about above after again against all am an and any are as at be because been before "
        "being below between both but by can could did do does doing down during each few for "
        "from further had has have having he her here hers him his how i if in into is it its "
        "itself just me more most my no nor not now of off on once only or other our out over "
        "own same she should so some such than that the their them then there these they this "
        "those through to too under until up very was we were what when where which while who "
        "whom why will with would you your yours explain describe tell compare versus vs please "
        "give list name one two use used using"
    ).split()
)


class QueryPlan(BaseModel):
    """How each channel should search.

    Attributes:
        keywords: Terms for the BM25 channel.
        semantic_query: Text embedded for the vector channel.
        graph_seeds: Normalised entity keys the graph channel matches exactly (whole keys).
    """

    keywords: list[str] = Field(default_factory=list, description="3-10 search keywords.")
    semantic_query: str = Field("", description="The question rephrased for semantic search.")
    graph_seeds: list[str] = Field(
        default_factory=list, description="Named entities (people, organisations, things)."
    )


def candidate_keys(query: str, max_n: int = 4, limit: int = 64) -> list[str]:
    """Word n-grams of the query as entity keys, for exact (whole-key) matching.

    An n-gram may contain stop words inside (``university of paris``) but must not start or end
    with one; longer n-grams come first.
    """
    words = [w.strip("'-") for w in _WORD.findall(query)]
    words = [w for w in words if w]
    keys: list[str] = []
    for n in range(max_n, 0, -1):
        for i in range(len(words) - n + 1):
            gram = words[i : i + n]
            if gram[0].lower() in STOPWORDS or gram[-1].lower() in STOPWORDS:
                continue
            key = normalize_entity_name(" ".join(gram))
            if len(key) >= 3 and key not in keys:
                keys.append(key)
    return keys[:limit]


def deterministic_plan(query: str, max_keywords: int = 16) -> QueryPlan:
    """Plan without a model: content words, the query itself, and whole-key entity seeds."""
    words = [w.strip("'-") for w in _WORD.findall(query)]
    content = [w for w in words if w and w.lower() not in STOPWORDS]
    keywords = list(dict.fromkeys(w.lower() for w in content))[:max_keywords]
    return QueryPlan(
        keywords=keywords, semantic_query=query.strip(), graph_seeds=candidate_keys(query)
    )


def llm_plan(query: str, llm: Any) -> QueryPlan:
    """Plan with a chat model (structured output); deterministic plan on any failure."""
    from langchain_core.messages import HumanMessage, SystemMessage

    from disputatio.prompts.retrieval import PLANNER_SYSTEM

    base = deterministic_plan(query)
    try:
        plan = llm.with_structured_output(QueryPlan, method="json_schema").invoke(
            [SystemMessage(PLANNER_SYSTEM), HumanMessage(f"<question>{query}</question>")]
        )
    except Exception as exc:  # a planner failure must not stop retrieval
        logger.warning("LLM query planner failed (%s); using the deterministic plan", exc)
        return base
    seeds = [normalize_entity_name(s) for s in plan.graph_seeds if normalize_entity_name(s)]
    return QueryPlan(
        keywords=[k.lower() for k in plan.keywords if k.strip()] or base.keywords,
        semantic_query=plan.semantic_query.strip() or base.semantic_query,
        graph_seeds=list(dict.fromkeys(seeds + base.graph_seeds))[:64],
    )


_ner_lock = threading.Lock()
_ner: dict[str, Any] = {}


def query_entities(query: str, settings: Settings) -> list[str]:
    """Entity keys in ``query`` found by the ingestion NER (spaCy; [] for other extractors).

    The extractor is loaded once per process; a failure to load it is logged and yields [].
    """
    if settings.ingest.entity_extractor != "spacy":
        return []
    from disputatio.ingest.spacy_entities import SpacyEntityExtractor
    from disputatio.ingest.types import ChildChunk

    with _ner_lock:
        extractor = _ner.get("spacy")
        if extractor is None:
            extractor = _ner["spacy"] = SpacyEntityExtractor(dependency_relations=False)
    chunk = ChildChunk(
        id="query",
        text=query,
        char_start=0,
        char_end=len(query),
        page=None,
        heading_path=(),
        token_count=0,
        ordinal=0,
        parent_id="query",
    )
    try:
        entities = extractor.extract([chunk]).entities
    except Exception as exc:  # NER is a seed source, never a reason to fail a search
        logger.warning("query NER failed (%s); graph seeds from whole-key matches only", exc)
        return []
    return [e.key for e in entities if e.key]


def with_query_entities(plan: QueryPlan, query: str, settings: Settings) -> QueryPlan:
    """``plan`` with the query's NER entities first among the graph seeds."""
    keys = query_entities(query, settings)
    if not keys:
        return plan
    seeds = list(dict.fromkeys(keys + plan.graph_seeds))[:64]
    return plan.model_copy(update={"graph_seeds": seeds})
