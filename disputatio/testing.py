"""Test doubles for users and for our own orchestration tests.

:class:`ScriptedChatModel` replays a fixed script of replies, records every prompt it saw, and
behaves like a small local model: ``bind_tools`` is accepted but tool calls come back as text,
and ``with_structured_output`` parses the scripted JSON into the schema. Give each parallel
agent its own instance so the script order never depends on scheduling.

It also records what each call RECEIVED besides the prompt (``received``: the temperature,
max_tokens, stop sequences and extra request body in force), like a real client would send
them. Copies made with ``model_copy(update=...)`` (how
:func:`disputatio.models.chat.configure_model` applies a temperature to a model object) share
the script, its cursor and the records.

For retrieval there are three more doubles, none of which loads a model or needs a database:

* :class:`FakeRetriever`: a ``CorpusRetriever`` over fixed sections, matched by shared words
  (or all of them for every query, or fixed sections per keyword of the query, or a search
  that always fails); it records every search it was asked (query, ``k``, threshold, filters).
* :class:`FakeEmbeddings`: deterministic embeddings, a hashed bag of words (texts sharing
  words are near, others orthogonal); for the funnels (``InMemoryFunnel(embeddings=...)``).
* :class:`ScriptedReranker`: a reranker replaying scripted scores, recording what it scored.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from disputatio.retrievers.base import RetrievalFilters
from disputatio.state.retrieval import RetrievalResult, Section

#: A scripted reply: text, a message, a pydantic object / dict (sent as JSON), an exception to
#: raise, or a function of the prompt returning any of those.
Reply = (
    str | AIMessage | BaseModel | dict[str, Any] | Exception | Callable[[list[BaseMessage]], Any]
)


class ScriptExhaustedError(AssertionError):
    """The model was called more often than its script allows."""


class _Cursor:
    """Script position shared by a model and its copies."""

    def __init__(self) -> None:
        self.value = 0
        self.lock = threading.Lock()


class ScriptedChatModel(BaseChatModel):
    """A chat model that replays ``script`` in order.

    Attributes:
        script: Replies, consumed one per call.
        name: Label used in error messages.
        repeat_last: Keep returning the last reply when the script runs out (else raise).
        prompts: Every prompt received, in order (for assertions).
        received: Per call, the generation parameters received: ``{temperature, max_tokens,
            stop, extra_body, kwargs}`` (same order as ``prompts``).
        temperature: Sampling temperature in force (set by the caller, recorded only).
        max_tokens: Completion budget in force (recorded only).
        stop: Stop sequences in force (recorded; a ``stop`` passed at call time wins).
        extra_body: Extra request body in force, e.g. ``{"repeat_penalty": 1.2}`` (recorded).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    script: list[Any] = Field(default_factory=list)
    name: str = "scripted"
    repeat_last: bool = False
    prompts: list[list[BaseMessage]] = Field(default_factory=list)
    received: list[dict[str, Any]] = Field(default_factory=list)
    temperature: float | None = None
    max_tokens: int | None = None
    stop: list[str] | None = None
    extra_body: dict[str, Any] | None = None
    _cursor: _Cursor = PrivateAttr(default_factory=_Cursor)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def calls(self) -> int:
        """How many times the model was called."""
        return len(self.prompts)

    def _next(self, messages: list[BaseMessage], received: dict[str, Any]) -> Any:
        with self._cursor.lock:
            self.prompts.append(list(messages))
            self.received.append(received)
            if self._cursor.value >= len(self.script):
                if self.repeat_last and self.script:
                    reply = self.script[-1]
                else:
                    raise ScriptExhaustedError(
                        f"{self.name}: call {self._cursor.value + 1} but the script has "
                        f"{len(self.script)} replies"
                    )
            else:
                reply = self.script[self._cursor.value]
            self._cursor.value += 1
        if callable(reply) and not isinstance(reply, BaseModel | type):
            reply = reply(messages)
        if isinstance(reply, Exception):
            raise reply
        return reply

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        received = {
            "temperature": kwargs.pop("temperature", self.temperature),
            "max_tokens": kwargs.pop("max_tokens", self.max_tokens),
            "stop": stop if stop is not None else self.stop,
            "extra_body": kwargs.pop("extra_body", self.extra_body),
            "kwargs": dict(kwargs),
        }
        reply = self._next(messages, received)
        if isinstance(reply, AIMessage):
            message = reply
        else:
            if isinstance(reply, BaseModel):
                text = reply.model_dump_json()
            elif isinstance(reply, dict):
                text = json.dumps(reply)
            else:
                text = str(reply)
            n_in = sum(len(str(m.content).split()) for m in messages)
            message = AIMessage(
                content=text,
                usage_metadata={
                    "input_tokens": n_in,
                    "output_tokens": len(text.split()),
                    "total_tokens": n_in + len(text.split()),
                },
            )
        return ChatResult(generations=[ChatGeneration(message=message)])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, AIMessage]:
        """Accept tools like a local model does: calls come back as text in the content."""
        return self

    def with_structured_output(
        self, schema: Any, *, include_raw: bool = False, **kwargs: Any
    ) -> Runnable[Any, Any]:
        """Parse the scripted JSON reply into ``schema``."""

        def parse(message: AIMessage) -> Any:
            error: Exception | None = None
            parsed: Any = None
            try:
                data = json.loads(str(message.content))
                if isinstance(schema, type) and issubclass(schema, BaseModel):
                    parsed = schema.model_validate(data)
                else:
                    parsed = data
            except Exception as exc:  # reported like langchain does with include_raw
                if not include_raw:
                    raise
                error = exc
            if include_raw:
                return {"raw": message, "parsed": parsed, "parsing_error": error}
            return parsed

        return self | RunnableLambda(parse)


# --- retrieval ---------------------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class FakeRetriever:
    """A ``CorpusRetriever`` over fixed sections, found by the words they share with the query.

    A section scores the share of the query's distinct words found in its title and text (a
    query ``"curie radium"`` scores 1.0 on a section naming both, 0.5 on one naming one). The
    matching sections come back best first (ties in the given order), at most ``k``; a search
    whose best score is below the threshold is refused, like the funnel's.

    With ``match_all`` every query matches every section: the first ``k`` sections come back
    as given (their own scores, in the given order; the best score is the first one's). With
    ``by_keyword``, a query containing one of its keys (case-insensitive; the first key found,
    in the mapping's order) gets that key's sections the same way, as given; other queries
    search ``sections`` as above. With ``fails_with`` every search is recorded, then raises
    that exception (a corpus that is down).

    Args:
        sections: The corpus: sections, or texts (section ``s1``, ``s2``, ... in order).
        k: Sections returned when a search passes no ``k``.
        threshold: Refusal threshold when a search passes none (0: refuse only when nothing
            matches).
        match_all: Return the sections as given whatever the query (a fixed ranking).
        by_keyword: Fixed sections per keyword of the query: ``{"dose": [DOSE]}``.
        fails_with: Raise this exception from every search.

    Attributes:
        sections: The corpus.
        searches: Every search, in order: ``{"query", "k", "threshold", "filters"}`` as passed.
    """

    def __init__(
        self,
        sections: Sequence[Section | str] = (),
        *,
        k: int = 8,
        threshold: float = 0.0,
        match_all: bool = False,
        by_keyword: Mapping[str, Sequence[Section]] | None = None,
        fails_with: Exception | None = None,
    ) -> None:
        self.sections = [
            s if isinstance(s, Section) else Section(id=f"s{i}", text=s)
            for i, s in enumerate(sections, start=1)
        ]
        self.k = k
        self.threshold = threshold
        self.match_all = match_all
        self.by_keyword = {key.lower(): list(hits) for key, hits in (by_keyword or {}).items()}
        self.fails_with = fails_with
        self.searches: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    @property
    def queries(self) -> list[str]:
        """The queries searched, in order."""
        return [s["query"] for s in self.searches]

    @property
    def calls(self) -> list[tuple[str, int | None]]:
        """The ``(query, k)`` of every search, in order."""
        return [(s["query"], s["k"]) for s in self.searches]

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        threshold: float | None = None,
        filters: RetrievalFilters | None = None,
    ) -> RetrievalResult:
        """Return the sections sharing words with ``query`` (see the class docstring)."""
        with self._lock:
            self.searches.append(
                {"query": query, "k": k, "threshold": threshold, "filters": filters}
            )
        if self.fails_with is not None:
            raise self.fails_with
        keyed = next((v for key, v in self.by_keyword.items() if key in query.lower()), None)
        if keyed is not None:
            scored = list(keyed)
        elif self.match_all:
            scored = list(self.sections)
        else:
            scored = self._matching(query)
        best = scored[0].score if scored else 0.0
        limit = self.threshold if threshold is None else threshold
        if not scored or best < limit:
            return RetrievalResult(query=query, refused=True, best_score=best, threshold=limit)
        kept = scored[: k or self.k]
        return RetrievalResult(query=query, sections=kept, best_score=best, threshold=limit)

    def _matching(self, query: str) -> list[Section]:
        """The sections sharing words with ``query``, scored and best first."""
        wanted = set(_words(query))
        scored = []
        for section in self.sections:
            found = wanted & set(_words(f"{section.title or ''} {section.text}"))
            if found:
                score = len(found) / len(wanted)
                scored.append(section.model_copy(update={"score": score, "channels": ["fake"]}))
        scored.sort(key=lambda s: s.score, reverse=True)  # stable: ties keep the given order
        return scored


class FakeEmbeddings(Embeddings):
    """Deterministic embeddings: a hashed bag of words, L2-normalised.

    Each lowercase word adds 1 to the dimension its sha256 picks, so the same text always gives
    the same vector (across processes too), texts sharing words have a positive cosine and
    texts sharing none (barring hash collisions) a cosine of 0. A text without words embeds as
    the zero vector.

    Args:
        size: Dimensions.

    Attributes:
        calls: Texts embedded, in order (queries and documents alike).
    """

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.calls: list[str] = []

    def _vector(self, text: str) -> list[float]:
        self.calls.append(text)
        v = [0.0] * self.size
        for word in _words(text):
            v[int.from_bytes(hashlib.sha256(word.encode()).digest()[:8], "big") % self.size] += 1
        norm = math.sqrt(sum(x * x for x in v)) or 1.0
        return [x / norm for x in v]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One vector per text."""
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        """The vector of ``text``."""
        return self._vector(text)


#: A scripted rerank: the scores (one per text), ``{substring: score}`` (a text scores the
#: value of the first key it contains, else the default), an exception to raise, or a function
#: of ``(query, texts)`` returning the scores.
RerankReply = (
    Sequence[float] | Mapping[str, float] | Exception | Callable[[str, list[str]], list[float]]
)


class ScriptedReranker:
    """A model reranker replaying ``script``, one reply per call (like a ``/rerank`` server).

    The funnel treats it as a model reranker: its scores become the sections' scores and their
    order (``cfg.rerank_platt`` applies when set).

    Args:
        script: Replies (:data:`RerankReply`), consumed one per call.
        default: Score of a text no key of a ``{substring: score}`` reply matches.
        repeat_last: Keep replaying the last reply when the script runs out (else raise
            :class:`ScriptExhaustedError`).

    Attributes:
        calls: Every call: ``(query, texts)``.
        name: Shown in traces and calibration records.
    """

    name = "scripted"

    def __init__(
        self, script: Sequence[RerankReply], *, default: float = 0.0, repeat_last: bool = False
    ) -> None:
        self.script = list(script)
        self.default = default
        self.repeat_last = repeat_last
        self.calls: list[tuple[str, list[str]]] = []
        self._lock = threading.Lock()

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """The next reply's scores of ``texts``, in input order.

        Raises:
            ScriptExhaustedError: When the script has no reply left.
            AssertionError: When a list of scores does not match the texts in length.
        """
        with self._lock:
            n = len(self.calls)
            self.calls.append((query, list(texts)))
            if n >= len(self.script) and not (self.repeat_last and self.script):
                raise ScriptExhaustedError(
                    f"{self.name}: call {n + 1} but the script has {len(self.script)} replies"
                )
            reply = self.script[min(n, len(self.script) - 1)]
        if isinstance(reply, Exception):
            raise reply
        if callable(reply):
            return [float(x) for x in reply(query, list(texts))]
        if isinstance(reply, Mapping):
            keyed = [(key, float(v)) for key, v in reply.items()]
            return [next((v for key, v in keyed if key in t), self.default) for t in texts]
        if len(reply) != len(texts):
            raise AssertionError(f"{self.name}: {len(reply)} scores for {len(texts)} texts")
        return [float(x) for x in reply]
