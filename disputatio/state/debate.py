"""State of the hierarchical debate graph (orchestrator → sub-questions → workers → review).

Everything kept in the state is plain JSON-like data (dicts, lists, strings, numbers): sections
are stored as ``Section.model_dump()`` dicts, so LangGraph's serializer (and the Postgres
checkpointer) round-trips the state without custom types.

Naming of the tree: the question is node ``root``; its sub-questions are ``1``, ``2``...; theirs
``1.1``, ``1.2``... Leaves are answered by workers; internal nodes aggregate their children.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, NotRequired, TypeAlias

from pydantic import BaseModel, Field, field_validator
from typing_extensions import TypedDict

from disputatio.state.reducers import merge_dicts, merge_usage

#: Id of the tree node holding the user's question.
ROOT = "root"


def merge_id_lists(
    left: dict[str, list[str]] | None, right: dict[str, list[str]] | None
) -> dict[str, list[str]]:
    """Union two ``{agent: [section ids]}`` mappings, keeping first-seen order per agent.

    Args:
        left: Ids so far.
        right: Ids reported by a node.

    Returns:
        A new mapping; inputs are not modified.
    """
    out = {k: list(v) for k, v in (left or {}).items()}
    for key, ids in (right or {}).items():
        cur = out.setdefault(key, [])
        cur.extend(i for i in ids if i not in cur)
    return out


class SubQuestionPlan(BaseModel):
    """One proposed sub-question, possibly decomposed further."""

    question: str = Field(description="A self-contained sub-question.")
    subquestions: list[SubQuestionPlan] = Field(
        default_factory=list, description="Its own sub-questions; empty when it is simple."
    )


class Decomposition(BaseModel):
    """The orchestrator's structured output."""

    subquestions: list[SubQuestionPlan] = Field(
        default_factory=list,
        description="Sub-questions of the main question; empty when it needs no decomposition.",
    )


class FlatDecomposition(BaseModel):
    """The orchestrator's structured output for small models: a flat list of questions."""

    subquestions: list[str] = Field(
        default_factory=list,
        description="Simple, self-contained sub-questions; empty when the question is simple.",
    )

    @field_validator("subquestions", mode="before")
    @classmethod
    def _accept_nested(cls, value: Any) -> Any:
        """Accept ``{"question": ...}`` items too (a model that answered the nested shape)."""
        if isinstance(value, list):
            return [v.get("question", "") if isinstance(v, dict) else v for v in value]
        return value


class DebateInput(TypedDict, total=False):
    """What a caller passes in.

    Attributes:
        question: The user's question.
        options: Answer options for multiple-choice questions (letter → text), or None.
    """

    question: str
    options: dict[str, str] | None


class DebateOutput(TypedDict, total=False):
    """What the graph returns.

    Attributes:
        question: The question as asked.
        answer: Final answer text (unverified citations stripped).
        citations: Verified citations of the answer: ``{id, source, title, page}``.
        confidence: Heuristic confidence in [0, 1] (see ``disputatio.validators.confidence``).
        tree: The sub-question tree, one dict per node: ``{id, parent, depth, question,
            children, answer, citations, unverified, confidence, agreement, status, debated,
            rounds}``.
        transcript: Every move: ``{node, agent, role, round, kind, content, citations,
            unverified, queries}``.
        usage: Tokens, calls and latency per agent (``{agent: {role, calls, ...}}``).
        validation: One ``ValidationResult`` dict per validator.
        claims: The answer's claims with their verdicts (``Claim`` dicts, see
            ``state/claims.py``), from the ``support`` validator (empty when it did not run).
        notes: Things the run degraded on (decomposition failed, token budget reached...).
    """

    question: str
    answer: str
    claims: list[dict[str, Any]]
    citations: list[dict[str, Any]]
    confidence: float
    tree: list[dict[str, Any]]
    transcript: list[dict[str, Any]]
    usage: dict[str, dict[str, Any]]
    validation: list[dict[str, Any]]
    notes: list[str]


class DebateState(DebateInput, total=False):
    """Full state of the hierarchical debate.

    Attributes:
        nodes: The sub-question tree, node id → ``{id, question, parent, depth, children}``
            (written once, by the orchestrator).
        transcript: Every move, appended by parallel branches.
        sections: Every section any agent retrieved, id → ``Section`` dict.
        retrieved: Agent → ids of the sections that agent actually retrieved (citations are
            verified against it).
        agreement: Leaf id → ``{round, score, agreed}`` of the last assessed round.
        reviews: Leaf id → the reviewer's critique.
        results: Node id → its answer: ``{answer, citations, unverified, allowed_ids,
            confidence, support, agreement, status, debated, rounds}``.
        usage: Per-agent usage, summed.
        notes: Degradations worth telling the user about.
        conversations: Worker → its last call as sent and answered, ``{"messages": [{"role",
            "content"}...], "done": <epoch seconds>}`` (OpenAI-style message dicts): with
            ``continue_turns`` a worker's next round and the leaf's reviewer extend it (the
            slot holds it, nothing is read again).
        answer: Output: final answer text.
        citations: Output: verified citations with sources.
        confidence: Output: confidence of the final answer.
        tree: Output: the tree with per-node answers.
        validation: Output: validator results.
    """

    nodes: dict[str, dict[str, Any]]
    transcript: Annotated[list[dict[str, Any]], operator.add]
    sections: Annotated[dict[str, dict[str, Any]], merge_dicts]
    retrieved: Annotated[dict[str, list[str]], merge_id_lists]
    agreement: Annotated[dict[str, dict[str, Any]], merge_dicts]
    reviews: Annotated[dict[str, str], merge_dicts]
    results: Annotated[dict[str, dict[str, Any]], merge_dicts]
    usage: Annotated[dict[str, dict[str, Any]], merge_usage]
    notes: Annotated[list[str], operator.add]
    conversations: Annotated[dict[str, dict[str, Any]], merge_dicts]
    answer: str
    citations: list[dict[str, Any]]
    confidence: float
    tree: list[dict[str, Any]]
    validation: list[dict[str, Any]]


class OtherAnswer(TypedDict):
    """Another worker's latest answer, shown in a debate round."""

    agent: str
    persona: str
    content: str


class WorkerTask(TypedDict):
    """Payload of one worker turn (sent with ``Send``).

    Attributes:
        node: Leaf id.
        question: The leaf's question.
        main_question: The user's question (context for sub-questions; equal at the root).
        agent: Agent name, ``worker-<node>-<i>``.
        persona: A name of ``prompts.debate.PERSONAS`` (``debate.personas``) or an
            instruction of its own.
        temperature: Sampling temperature of this worker.
        round: 0 for the first answer, 1.. for debate rounds.
        sections: Section dicts this agent retrieved in earlier rounds.
        previous: This agent's previous answer (debate rounds).
        others: The other workers' latest answers (debate rounds).
        conversation: With ``continue_turns``: this worker's last call and reply (message
            dicts), which its debate-round prompt extends; absent otherwise.
    """

    node: str
    question: str
    main_question: str
    agent: str
    persona: str
    temperature: float
    round: int
    sections: list[dict[str, Any]]
    previous: str | None
    others: list[OtherAnswer]
    conversation: NotRequired[list[dict[str, str]]]


class ReviewTask(TypedDict, total=False):
    """Payload of the reviewer and then the summarizer of one leaf.

    Attributes:
        node: Leaf id.
        question: The leaf's question.
        main_question: The user's question.
        moves: The leaf's transcript moves (answers of every round).
        sections: Sections shown to the reviewer (the host worker's own first, then the leaf's
            other cited or retrieved ones); the reviewer adds what its search found.
        agreement: Last agreement score of the leaf.
        rounds: Debate rounds that were run.
        host: The worker whose conversation the reviewer and the summarizer extend (on its
            llama.cpp slot, so its cached prefix is not read again).
        shared: How many of ``sections`` the host was shown (its prompt's sections).
        conversation: With ``continue_turns``: the host's last call and reply (message dicts),
            which the reviewer's prompt extends; absent otherwise.
        critique: The reviewer's critique with section ids (set by the reviewer).
        review_reply: The reviewer's reply as written (section labels, search calls removed).
        reviewed: How many of ``sections`` the reviewer was shown.
    """

    node: str
    question: str
    main_question: str
    moves: list[dict[str, Any]]
    sections: list[dict[str, Any]]
    agreement: float
    rounds: int
    host: str
    shared: int
    conversation: list[dict[str, str]]
    critique: str
    review_reply: str
    reviewed: int


#: What a final verdict names: one of the question's options, or the short answer.
VerdictKind: TypeAlias = Literal["option", "short"]


class AggregateTask(TypedDict):
    """Payload of an internal node's aggregation.

    Attributes:
        node: Node id.
        question: The node's question.
        main_question: The user's question.
        children: ``{id, question, answer, citations, allowed_ids, confidence, status}`` per
            child.
        sections: Sections the children cited (shown to the aggregator).
        part_sections: Every section a leaf child's workers were shown, by id (the claims of
            each part are checked against them; not shown to any model).
        final_verdict: On the root only: head the composition with a verdict on the question
            (one model call; see ``DebateContext.final_verdict``): ``"option"`` one of the
            options appended to the question, ``"short"`` the short answer; None: no call.
    """

    node: str
    question: str
    main_question: str
    children: list[dict[str, Any]]
    sections: list[dict[str, Any]]
    part_sections: dict[str, dict[str, Any]]
    final_verdict: VerdictKind | None


class ChooseTask(TypedDict):
    """Payload of the one call that chooses an option for a flat root whose answer named none.

    Attributes:
        node: The root's id.
        question: The root's question (its options appended).
        asked: The question as asked (without the options).
        result: The root's result (``DebateState.results``), whose answer names no option.
    """

    node: str
    question: str
    asked: str
    result: dict[str, Any]
