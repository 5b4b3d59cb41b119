"""State of the MedRAG-style two-agent debate graph (``medrag_debate``).

Records kept in the state are plain dicts (documented as TypedDicts below), so checkpoints stay
JSON-friendly and the benchmark harness can write them to Postgres as they are.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, TypeAlias

from typing_extensions import TypedDict

from disputatio.state.reducers import merge_dicts, merge_usage

#: How the final answer was reached (recorded per question).
ConsensusType: TypeAlias = Literal[
    "agreement", "verifier", "majority_vote", "agent1_fallback", "failed"
]
CONSENSUS_TYPES: tuple[str, ...] = (
    "agreement",
    "verifier",
    "majority_vote",
    "agent1_fallback",
    "failed",
)

#: Options: ``{"A": "text", ...}`` for multiple choice, or labels like ``["yes", "no", "maybe"]``.
Options: TypeAlias = dict[str, str] | list[str]

#: What an answer is: one of the options, or a free number (GSM8K-style, ``\boxed{N}``).
AnswerMode: TypeAlias = Literal["options", "numeric"]
ANSWER_MODES: tuple[str, ...] = ("options", "numeric")


#: The seed's names of ``consensus_type`` in the log's ``final_answer`` (state name → seed name).
SEED_CONSENSUS: dict[str, str] = {
    "agreement": "agreement",
    "verifier": "verification_consensus",
    "majority_vote": "majority_vote",
    "agent1_fallback": "agent1_fallback",
    "failed": "failed",
}


class RetrievalLog(TypedDict, total=False):
    """What one agent retrieved in one round.

    Attributes:
        query: The query sent to the retriever.
        query_source: ``agent`` (the agent wrote ``retrieve("...")``), ``question`` (no call
            could be parsed: the question was used) or ``requery`` (question + peers).
        error: The retriever's error, when it failed (the agent then reasoned without
            evidence).
        k: Sections asked for.
        ids: Ids of the returned sections, best first.
        scores: Their scores, same order.
        refused: True when the retriever refused (nothing relevant enough).
        best_score: Best score the retriever saw.
        ms: Wall time of the search in milliseconds.
        skipped: True when retrieval was switched off (ablation).
    """

    query: str
    query_source: str
    error: str
    k: int
    ids: list[str]
    scores: list[float]
    refused: bool
    best_score: float
    ms: float
    skipped: bool


class Turn(TypedDict, total=False):
    """One agent's answer in one round.

    Attributes:
        agent: ``agent1``, ``agent2``...
        round: 1-based round number.
        temperature: Sampling temperature asked for.
        peers_text: The other agents' summaries as shown to it this round (round 2+).
        query_call: The agent's reply to "write retrieve(...)" (empty without that call).
        documents: The documents block shown to the agent (labels ``S1``...).
        labels: Label → section id of the documents shown.
        response: The reply, cleaned (no repeated patterns) and capped.
        citations: Section ids the reply cited that it was shown (``[S1]`` mapped back).
        unverified: Cited labels or ids it was not shown.
        choice: Parsed option, or the normalised number in numeric mode (None unless
            ``status`` is ``OK``).
        status: ``OK``, ``PARSE_FAILED``, ``INVALID_CHOICE`` or ``ERROR`` (also for an empty
            reply).
        retrieval_error: True when the retriever failed and the agent answered without
            evidence.
        retrieval_time: Seconds spent searching the corpus (the search only).
        generation_time: Seconds the model spent on the turn (its search call and its answer).
        pattern: Parsing rule that decided.
        raw: What the rule captured.
        retrieval: What was retrieved before reasoning.
        peers: Agents whose summaries were shown in this turn.
        usage: ``{agent: {role, calls, input_tokens, output_tokens, latency_ms}}``.
        reason_ms: Wall time of the model call.
        cut: The model stopped the reply at its token limit: its unfinished last sentence is
            left out of the claims checked (a fragment's words may all stand in a section).
    """

    agent: str
    round: int
    temperature: float
    peers_text: str
    query_call: str
    documents: str
    labels: dict[str, str]
    response: str
    citations: list[str]
    unverified: list[str]
    choice: str | None
    status: str
    pattern: str | None
    raw: str | None
    retrieval_error: bool
    retrieval_time: float
    generation_time: float
    retrieval: RetrievalLog
    peers: list[str]
    usage: dict[str, dict[str, Any]]
    reason_ms: float
    cut: bool


class Summary(TypedDict, total=False):
    """A summary of one agent's turn, shown to the other agents in the next round.

    Attributes:
        agent: Whose turn was summarised.
        round: The round of that turn.
        text: The summary (or the cleaned reply itself when summaries are switched off).
        llm: True when a model wrote it.
        usage: Usage record of the summary call (empty when ``llm`` is False).
        ms: Wall time.
    """

    agent: str
    round: int
    text: str
    llm: bool
    usage: dict[str, dict[str, Any]]
    ms: float


class Verdict(TypedDict, total=False):
    """The verifier's reply.

    Attributes:
        response: Full reply.
        choice: Parsed option (None unless ``status`` is ``OK``).
        status: Parse status.
        pattern: Parsing rule that decided.
        transcript_chars: Length of the debate text shown to it.
        ms: Wall time.
        usage: Usage record of the call.
    """

    response: str
    choice: str | None
    status: str
    pattern: str | None
    transcript_chars: int
    ms: float
    usage: dict[str, dict[str, Any]]


class Timing(TypedDict, total=False):
    """Wall time of one step.

    Attributes:
        step: Node name (``agent_turn``, ``summarize``, ``verify``...).
        agent: Agent, when the step belongs to one.
        round: Round, when the step belongs to one.
        ms: Milliseconds.
    """

    step: str
    agent: str
    round: int
    ms: float


class MedragInput(TypedDict, total=False):
    """What a caller passes in.

    Attributes:
        question: The question (required).
        options: ``{"A": "text", ...}`` or labels such as ``["yes", "no", "maybe"]`` (required
            unless ``answer_mode`` is ``numeric``).
        question_id: Caller's id of the question, copied to the output.
        answer_mode: ``options`` (an option label) or ``numeric`` (a free number, asked for in a
            box, parsed with :mod:`disputatio.parsing.numbers`; agreement and votes
            compare numbers). Default: ``options``.
    """

    question: str
    options: Options
    question_id: str
    answer_mode: AnswerMode


class MedragState(MedragInput, total=False):
    """Full state.

    Attributes:
        round: Current round (1-based).
        started_at: Epoch seconds when the run started (for the total wall time).
        turns: Every agent turn (parallel branches append).
        summaries: Every summary (parallel branches append).
        agreement_round: Round in which all agents gave the same valid answer, if any.
        verdict: The verifier's reply, when it was asked.
        answer: Final answer (option label, or number in numeric mode) or None when everything
            failed.
        consensus_type: How ``answer`` was reached (see :data:`CONSENSUS_TYPES`).
        usage: Token and latency usage per agent (``merge_usage``).
        timings: Wall time per step (parallel branches append).
        transcript: Every move as the CLI shows it: ``{agent, role, round, kind, content,
            citations}`` (parallel branches append).
        notes: Things the run degraded on (a retriever failure...).
        sections: Every section shown to an agent, id → ``Section`` dict (for citations).
        citations: Verified citations of the final answer: ``{id, source, title, page}``.
        validation: One ``ValidationResult`` dict per validator run on the final answer.
        claims: Claims of the supporting replies with their verdicts (``Claim`` dicts).
        confidence: The confidence estimator's score of the final answer.
        log: The per-question log assembled at the end (see ``finalize``).
    """

    round: int
    started_at: float
    turns: Annotated[list[Turn], operator.add]
    summaries: Annotated[list[Summary], operator.add]
    agreement_round: int | None
    verdict: Verdict | None
    answer: str | None
    consensus_type: ConsensusType
    usage: Annotated[dict[str, dict[str, Any]], merge_usage]
    timings: Annotated[list[Timing], operator.add]
    transcript: Annotated[list[dict[str, Any]], operator.add]
    notes: Annotated[list[str], operator.add]
    sections: Annotated[dict[str, dict[str, Any]], merge_dicts]
    citations: list[dict[str, Any]]
    validation: list[dict[str, Any]]
    claims: list[dict[str, Any]]
    confidence: float
    log: dict[str, Any]


class AgentTurnInput(TypedDict, total=False):
    """The payload ``Send`` hands to one agent's turn.

    Attributes:
        question: The question.
        options: Its options.
        answer_mode: ``options`` or ``numeric`` (resolved by ``prepare``).
        agent: Which agent speaks.
        round: The round.
        peer_summaries: ``[{agent, text}]`` of the other agents' previous turns.
        previous_choice: This agent's previous parsed answer, if any.
        history: This agent's earlier turns and the peers' summaries it was shown:
            ``[{round, peers, query_call, documents, response}]`` (its conversation so far).
    """

    question: str
    options: Options
    answer_mode: AnswerMode
    agent: str
    round: int
    peer_summaries: list[dict[str, str]]
    previous_choice: str | None
    history: list[dict[str, Any]]


class SummarizeInput(TypedDict, total=False):
    """The payload ``Send`` hands to one summary.

    Attributes:
        question: The question.
        options: Its options.
        answer_mode: ``options`` or ``numeric`` (resolved by ``prepare``).
        agent: Whose turn to summarise.
        round: The round of that turn.
        response: The reply to summarise.
        history: The agent's conversation up to and including that turn (the summary is
            asked at its end, so a local slot reuses the cached prefix).
    """

    question: str
    options: Options
    answer_mode: AnswerMode
    agent: str
    round: int
    response: str
    history: list[dict[str, Any]]


class MedragOutput(TypedDict, total=False):
    """What the graph returns.

    Attributes:
        question_id: Copied from the input.
        answer: Final option label (numeric mode: the normalised number), or None when
            ``consensus_type`` is ``failed``.
        consensus_type: ``agreement``, ``verifier``, ``majority_vote``, ``agent1_fallback`` or
            ``failed``.
        agreement_round: Round of agreement, if the agents agreed.
        turns: Every agent turn with its retrieval log and usage.
        summaries: Every round summary.
        verdict: The verifier's reply, if asked.
        usage: Usage per agent (``{agent: {role, calls, input_tokens, ...}}``).
        timings: Wall time per step.
        transcript: Every move (turns, summaries, verdict) as the CLI prints it.
        notes: Degradations (retriever failures...).
        citations: Verified citations of the final answer (from the turns that chose it).
        validation: One ``ValidationResult`` dict per validator (support, citations,
            confidence, bias).
        claims: Claims of the replies behind the answer, each with its verdict (``Claim``
            dicts, see ``state/claims.py``), from the ``support`` validator.
        confidence: The confidence estimator's score of the final answer.
        log: Per-question log in the seed's shape: ``mode``, ``history[].answer
            {step_by_step_thinking, answer_choice, retrieval_time, generation_time}``,
            ``final_answer {answer_choice, consensus_type, ...}``, ``timing``; plus answers per
            round, retrieval results and usage.
    """

    question_id: str
    answer: str | None
    consensus_type: ConsensusType
    agreement_round: int | None
    turns: list[Turn]
    summaries: list[Summary]
    verdict: Verdict | None
    usage: dict[str, dict[str, Any]]
    timings: list[Timing]
    transcript: list[dict[str, Any]]
    notes: list[str]
    citations: list[dict[str, Any]]
    validation: list[dict[str, Any]]
    claims: list[dict[str, Any]]
    confidence: float
    log: dict[str, Any]
