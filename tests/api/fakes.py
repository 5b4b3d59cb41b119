"""Scripted fake models for the API tests: replies cite the first section shown in the prompt.

Each model records what it received, so tests can check that a tenant's agents saw only that
tenant's sections.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from langchain_core.messages import BaseMessage

from disputatio.api.auth import hash_key
from disputatio.settings import ServerSettings
from disputatio.testing import ScriptedChatModel
from disputatio.validators.sentences import split_sentences

KEY_A, TENANT_A = "key-acme-0123456789", "api-acme"
KEY_B, TENANT_B = "key-globex-9876543210", "api-globex"


def server_settings(**overrides: Any) -> ServerSettings:
    """Server settings of the tests: two tenants, small limits, a short run lease."""
    values: dict[str, Any] = {
        "api_keys": {hash_key(KEY_A): TENANT_A, hash_key(KEY_B): TENANT_B},
        "max_upload_mb": 0.25,
        "max_request_kb": 64,
        "max_query_chars": 500,
        "max_runs_per_tenant": 3,
        "run_lease_s": 3.0,
        "stream_poll_s": 0.1,
        "stream_max_s": 120.0,
    }
    values.update(overrides)
    return ServerSettings(**values)


_SECTION = re.compile(r'<section id="([^"]+)"|\bid="([^"]+)"|\[([A-Za-z0-9][\w.:#/-]*)\]')


def first_section_id(messages: list[BaseMessage]) -> str | None:
    """The id of the first section a prompt shows."""
    for message in messages:
        text = message.content if isinstance(message.content, str) else str(message.content)
        for match in _SECTION.finditer(text):
            found = next(g for g in match.groups() if g)
            if found not in ("section-id", "id", "example_id"):
                return found
    return None


def citing(text: str, delay_s: float = 0.0) -> Callable[[list[BaseMessage]], str]:
    """A reply that states ``text`` and cites the first section of the prompt."""

    def reply(messages: list[BaseMessage]) -> str:
        if delay_s:
            time.sleep(delay_s)
        sid = first_section_id(messages)
        return f"{text} [{sid}]." if sid else f"{text}."

    return reply


#: A claim no section supports (its number is in none): the checker drops it.
UNSUPPORTED_CLAIM = "Brucellosis is cured by surgery within 4711 days"
_NUMBERED = re.compile(r"^\[(S\d+\.\d+)\] (.+)$", re.M)


_BLOCK = re.compile(r'<section id="([^"]+)"([^>]*)>\n(.*?)\n</section>', re.S)


def _sentences(text: str) -> list[str]:
    """The checker's sentences of ``text`` (a hard-wrapped sentence is one), spaces folded."""
    return [" ".join(s.sentence.split()) for s in split_sentences(text)]


def restating(
    shown: list[str] | None = None, extra: str | None = UNSUPPORTED_CLAIM, head: str = ""
) -> Callable[[list[BaseMessage]], str]:
    """A quick answer that restates a sentence it was shown (the first naming brucellosis,
    else the first), citing it, then adds ``extra`` (cited the same: no sentence supports
    :data:`UNSUPPORTED_CLAIM`); each sentence restated is appended to ``shown``. ``head``
    (a line such as ``"Support:"``) goes first.

    It reads numbered sentences (``[S1.2] …``) or whole sections (``<section id="S1">``).
    """

    def reply(messages: list[BaseMessage]) -> str:
        text = "\n".join(str(m.content) for m in messages)
        pairs = _NUMBERED.findall(text) or [
            (label, sentence)
            for label, _, body in _BLOCK.findall(text)
            for sentence in _sentences(body)
        ]
        found = [
            (label, sentence.strip())
            for label, sentence in pairs
            if len(sentence.split()) >= 6 and sentence.rstrip().endswith(".")
        ]
        if not found:
            raise AssertionError("the prompt shows no sentence")
        named = [f for f in found if "brucell" in f[1].lower()]
        label, sentence = (named or found)[0]
        if shown is not None:
            shown.append(sentence)
        more = f" {extra} [{label}]." if extra else ""
        return f"{head}{sentence.rstrip('.')} [{label}].{more}"

    return reply


def grounded(text: str, delay_s: float = 0.0, tag: str = "") -> Callable[[list[BaseMessage]], str]:
    """A reply that restates a full sentence of a section the prompt shows, citing it (the
    claim checker finds it supported); ``text`` (cited) when none is shown.

    The sentence is the first one naming ``text``'s subject (its first word) in a section whose
    source or heading names it too, else in any section, else the first one. ``tag`` goes
    before the citation (a server marks its moves).
    """
    subject = text.split()[0].lower()

    def reply(messages: list[BaseMessage]) -> str:
        if delay_s:
            time.sleep(delay_s)
        shown = "\n".join(str(m.content) for m in messages)
        found = [
            (subject not in attrs.lower(), subject not in sentence.lower(), label, sentence)
            for label, attrs, body in _BLOCK.findall(shown)
            for sentence in _sentences(body)
            if len(sentence.split()) >= 6 and sentence.endswith(".")
        ]
        if not found:
            return citing(text + tag)(messages)
        *_, label, sentence = min(found, key=lambda f: f[:2])  # the first of the best kind
        return f"{sentence[:-1]}{tag} [{label}]."

    return reply


DEBATE_AGENTS = {
    "worker-root-0": "Brucellosis is diagnosed by blood culture and serology",
    "worker-root-1": "Only a positive culture confirms brucellosis; antibody titres can mislead",
    "reviewer": "Both workers cite the brucellosis section; the claim is supported",
    "summarizer": "Brucellosis is diagnosed by blood culture and serology",
    "aggregator": "Brucellosis is diagnosed by blood culture and serology",
    "orchestrator": "The question needs no decomposition",
}
#: Agents whose answer can become the final one: they restate a shown sentence (see
#: :func:`grounded`), so the support check keeps their claim and its citation.
GROUNDED_AGENTS = ("worker-root-0", "summarizer", "aggregator")


def choosing(text: str, choice: str) -> Callable[[list[BaseMessage]], str]:
    """A MedRAG agent's reply: ``text`` citing the prompt's first section, then its choice."""

    def reply(messages: list[BaseMessage]) -> str:
        return f"{citing(text)(messages)}\nAnswer Choice: {choice}"

    return reply


#: What the MedRAG agents retrieve from (a fixed corpus, as for the referee and RDC).
MEDRAG_CORPUS = {
    "bru-1": "Brucellosis is confirmed by blood culture; serology (Rose Bengal) supports it.",
    "bru-2": "Chest X-ray findings in brucellosis are non-specific.",
}

#: MedRAG agents disagree in round 1 (A vs B) and agree on B in round 2 after the summaries.
MEDRAG_SCRIPTS: dict[str, list[Any]] = {
    "agent1": [choosing("A chest X-ray shows it", "A"),
               choosing("Reconsidered: culture and serology", "B")],
    "agent2": [choosing("Blood culture and serology", "B"),
               choosing("Still culture and serology", "B")],
    "agent1_summarizer": ["SUMMARY-OF-AGENT1: imaging. Answer Choice: A"],
    "agent2_summarizer": ["SUMMARY-OF-AGENT2: culture and serology. Answer Choice: B"],
}  # fmt: skip


class FakeModels:
    """Context overrides of the API app: scripted models for every graph, one per agent role.

    Attributes:
        delay_s: Seconds each debate reply takes (to stop a server mid-debate).
        rounds: Debate rounds (the two workers disagree, so every round is held).
        referee_asks: The referee's planner asks a clarification question first.
        tag: Appended to every debate agent's statement (a server process marks its moves).
        rag_reply: The quick answerer's reply (default: a shown sentence, restated and cited).
        models: Every model handed out, by (graph, tenant, role), to inspect prompts.
    """

    def __init__(
        self, delay_s: float = 0.0, rounds: int = 1, referee_asks: bool = True, tag: str = ""
    ) -> None:
        self.delay_s = delay_s
        self.rounds = rounds
        self.referee_asks = referee_asks
        self.tag = tag
        self.rag_reply: Callable[[list[BaseMessage]], str] | None = None
        self.models: dict[tuple[str, str, str], ScriptedChatModel] = {}

    def _model(self, graph: str, tenant: str, role: str, reply: Any) -> ScriptedChatModel:
        script = list(reply) if isinstance(reply, list) else [reply]  # a list: one reply a call
        model = ScriptedChatModel(
            script=script, repeat_last=not isinstance(reply, list), name=f"{tenant}:{role}"
        )
        self.models[(graph, tenant, role)] = model
        return model

    def _debater(self, role: str, text: str) -> Callable[[list[BaseMessage]], str]:
        if role in GROUNDED_AGENTS:
            return grounded(text, self.delay_s, self.tag)
        return citing(text + self.tag, self.delay_s)

    def __call__(self, graph: str, tenant: str) -> dict[str, Any]:
        if graph == "rag":
            answer = self.rag_reply or restating(extra=None)  # one claim, supported
            return {"models": {"answerer": self._model(graph, tenant, "answerer", answer)}}
        if graph == "debate":
            models = {
                role: self._model(graph, tenant, role, self._debater(role, text))
                for role, text in DEBATE_AGENTS.items()
            }
            return {"models": models, "flat": True, "workers": 2, "rounds": self.rounds,
                    "max_tool_calls": 0}  # fmt: skip
        if graph == "referee":
            models = referee_models(self.referee_asks)
            retriever = KeywordRetriever(REFEREE_CORPUS)
            return {"models": models, "retriever": retriever, "structured_retries": 0}
        if graph == "rdc":
            return rdc_overrides()
        if graph == "medrag_debate":
            models = {
                role: self._model(graph, tenant, role, reply)
                for role, reply in MEDRAG_SCRIPTS.items()
            }
            return {"models": models, "retriever": KeywordRetriever(MEDRAG_CORPUS),
                    "agent_query": False, "rounds": 2}  # fmt: skip
        return {}


# --- referee and rdc: scripted agents (shapes as in tests/unit/referee and tests/unit/rdc) ---

REFEREE_CORPUS = {
    "pg-1": "pgvector adds vector similarity search to PostgreSQL with HNSW and IVFFlat indexes.",
    "pg-2": "pgvector keeps vectors next to relational data, so operations reuse Postgres backups.",
    "fa-1": "FAISS is an in-memory library for fast similarity search on billions of vectors.",
    "fa-2": "FAISS has no persistence or transactions; the application must store the index.",
}
REFEREE_AXES = [("latency", 8), ("operations", 3)]


class KeywordRetriever:
    """Sections sharing the most words with the query (a fixed corpus; never refuses)."""

    def __init__(self, corpus: dict[str, str]) -> None:
        self.corpus = corpus

    def search(self, query: str, *, k: int | None = None, **_: Any) -> Any:
        from disputatio.state.retrieval import RetrievalResult, Section

        words = set(re.findall(r"\w+", query.lower()))
        scored = sorted(
            ((len(words & set(re.findall(r"\w+", t.lower()))), sid, t)
             for sid, t in self.corpus.items()),
            key=lambda x: (-x[0], x[1]),
        )  # fmt: skip
        hits = [s for s in scored if s[0] > 0][: k or 3] or scored[:1]
        sections = [Section(id=sid, text=text, score=0.8) for _, sid, text in hits]
        return RetrievalResult(query=query, sections=sections, best_score=0.9)


def _plan(options: list[str], **extra: Any) -> dict[str, Any]:
    axes = [{"name": n, "weight": w} for n, w in REFEREE_AXES]
    return {"options": options, "axes": axes, "constraints": [], **extra}


def _advocate(option: str, cite: str) -> dict[str, Any]:
    claims = [
        {"axis": axis, "text": f"{option} is good at {axis}", "citations": [cite]}
        for axis, _ in REFEREE_AXES
    ]
    return {"summary": f"{option} fits", "claims": claims, "weaknesses": [f"{option} has limits"]}


def _examiner(claim_id: str) -> dict[str, Any]:
    return {"checks": [{"claim_id": claim_id, "verdict": "confirmed", "citations": []}],
            "defense": ""}  # fmt: skip


def referee_models(ask: bool) -> dict[str, ScriptedChatModel]:
    """A pgvector-vs-FAISS referee run; with ``ask`` the planner first asks which options."""
    question = {"question": "Which alternatives to pgvector?", "kind": "multi_choice",
                "choices": ["FAISS", "Milvus"], "target": "options"}  # fmt: skip
    planner = [_plan(["pgvector"], ambiguous=True, questions=[question])] if ask else []
    planner.append(_plan(["pgvector", "FAISS"]))
    scores = {("pgvector", "latency"): 6, ("pgvector", "operations"): 9,
              ("FAISS", "latency"): 9, ("FAISS", "operations"): 4}  # fmt: skip
    ruling = {
        "scores": [{"option": o, "axis": a, "score": s} for (o, a), s in scores.items()],
        "recommendation": "FAISS",
        "confidence": "high",
    }
    scripts: dict[str, list[Any]] = {
        "planner": planner,
        "advocate-pgvector": [_advocate("pgvector", "pg-1")],
        "advocate-FAISS": [_advocate("FAISS", "fa-1")],
        "advocate-faiss": [_advocate("FAISS", "fa-1")],
        "examiner-pgvector": [_examiner("faiss#1")],
        "examiner-FAISS": [_examiner("pgvector#1")],
        "examiner-faiss": [_examiner("pgvector#1")],
        "referee": [ruling],
    }
    return {n: ScriptedChatModel(script=s, name=n) for n, s in scripts.items()}


def _claim(cid: str, source: str, bearings: dict[str, float]) -> dict[str, Any]:
    return {"id": cid, "text": f"claim {cid}", "provenance": [source], "quality": 0.8,
            "bearings": [{"hypothesis": h, "llr": v} for h, v in bearings.items()]}  # fmt: skip


def _move(summary: str, claims: list[dict[str, Any]]) -> dict[str, Any]:
    return {"summary": summary, "claims": claims, "relations": []}


def rdc_overrides() -> dict[str, Any]:
    """Two scripted specialists, one round, no appeal (the bundled rare-disease case)."""
    corpus = {
        "sec-brucella-1": "Brucellosis follows raw dairy.",
        "sec-still-1": "AOSD: ferritin often above 3000.",
    }
    infectious = [
        _move("raw dairy", [_claim("c1", "sec-brucella-1", {"brucellosis": 1.2})]),
        _move("nothing to add", []),
        _move("nothing to add", []),
        {"ranking": ["brucellosis", "q_fever", "adult_onset_still"], "rationale": "dairy"},
    ]
    autoimmune = [
        _move("ferritin", [_claim("a1", "sec-still-1", {"adult_onset_still": 0.8})]),
        _move("nothing to add", []),
        _move("nothing to add", []),
        {"ranking": ["adult_onset_still", "brucellosis", "q_fever"], "rationale": "ferritin"},
    ]
    models = {
        "infectious": ScriptedChatModel(script=infectious, name="infectious"),
        "autoimmune": ScriptedChatModel(script=autoimmune, name="autoimmune"),
    }
    return {"models": models, "retriever": KeywordRetriever(corpus),
            "specialists": ["infectious", "autoimmune"], "max_rounds": 1, "entropy_stop": 0.0,
            "voi_stop": 0.0, "appeal": False}  # fmt: skip
