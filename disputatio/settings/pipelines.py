"""Settings sections of the pipelines (ingestion, retrieval, debates); see disputatio.settings."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator

# the retrieval settings have their own module; they are imported from here too
from disputatio.settings.retrieval import ChannelSettings as ChannelSettings
from disputatio.settings.retrieval import RetrievalSettings as RetrievalSettings


class IngestSettings(BaseModel):
    """Document ingestion."""

    parent_min_tokens: int = Field(800, ge=50, description="Lower target size of parent chunks.")
    parent_max_tokens: int = Field(1000, ge=50, description="Upper bound of parent chunks.")
    child_tokens: int = Field(200, ge=20, description="Target size of child chunks.")
    child_overlap: int = Field(20, ge=0, description="Token overlap between child chunks.")
    child_close_tokens: int = Field(
        0,
        ge=0,
        description="A child closes at a paragraph's end once it holds this many tokens (0: "
        "one child per paragraph; a heading stays with its text; only a paragraph cut for size "
        "overlaps itself). child_tokens or more: paragraphs packed up to child_tokens, the "
        "chunking before 2026-12-02 (docs/grounding.md, 'Children cut at paragraphs').",
    )
    max_file_mb: float = Field(50.0, gt=0, description="Files larger than this are refused.")
    ocr: str = Field(
        "rapidocr",
        description="OCR engine: 'rapidocr' (offline), 'none', or 'remote:<model>@<base_url>'.",
    )
    entity_extractor: str = Field(
        "spacy", description="Entity/relation extractor: 'spacy', 'llm' or 'none'."
    )
    dependency_relations: bool = Field(
        False,
        description="spaCy: also extract subject-verb-object relations (runs the parser, "
        "~2.4x slower NER); off = NER + sentence co-occurrence only.",
    )
    batch_size: int = Field(
        512, ge=1, description="Most documents parsed, embedded and written per batch."
    )
    batch_chunks: int = Field(
        2048,
        ge=1,
        description="A batch stops taking documents once it holds this many child chunks "
        "(large batches let the embedder group texts of similar length: less padding).",
    )
    max_batches: int = Field(
        100_000, ge=1, le=1_000_000, description="Bound on the batch loop of one ingestion run."
    )
    synchronous_commit: bool = Field(
        False,
        description="Wait for the WAL flush at each document commit (off: a crash can lose the "
        "last moments of ingestion, never half a document; re-ingesting restores them).",
    )


class DebateSettings(BaseModel):
    """Hierarchical debate (orchestrator → sub-questions → workers → debate → review)."""

    max_depth: int = Field(2, ge=0, le=4, description="Depth of the sub-question tree.")
    max_breadth: int = Field(3, ge=1, le=6, description="Children per sub-question.")
    workers: int = Field(3, ge=1, le=3, description="Workers per sub-question (2–3).")
    worker_temperatures: list[float] = Field(
        default_factory=lambda: [0.7, 0.3, 0.5], description="Temperature per worker persona."
    )
    personas: list[str] = Field(
        default_factory=lambda: ["synthesizer", "devils_advocate", "skeptic"],
        min_length=1,
        description="Worker personas, in order: names of prompts.debate.PERSONAS (synthesizer, "
        "devils_advocate, skeptic, critic, close_reader) or instructions of your own; small "
        "local models: synthesizer, critic, close_reader (docs/results.md).",
    )
    rounds: int = Field(2, ge=0, le=6, description="Debate rounds when workers disagree.")
    max_tool_calls: int = Field(3, ge=0, description="Retrieval calls per worker turn.")
    agreement_threshold: float = Field(
        0.8, ge=0, le=1, description="Answers this similar count as agreement."
    )
    token_budget: int = Field(200_000, ge=1000, description="Hard token budget per question.")
    review_searches: int = Field(
        1, ge=0, le=3, description="Extra retrievals the reviewer may ask for per debated leaf."
    )
    verdict_last: bool = Field(
        False,
        description="Ask agents for the support first and the verdict line last.",
    )
    stated_parts: bool = Field(
        True,
        description="A question that states its parts ('When is X, and is lunch provided?') "
        "is split on them, each keeping the question's lead-in, with no orchestrator call "
        "(the local orchestrator's paraphrases lost the asker's framing: docs/grounding.md).",
    )


#: The claim judge's prompt cache on a llama.cpp endpoint (``grounding.judge_prompt_cache``;
#: :mod:`disputatio.validators.judge`).
JudgePromptCache = Literal["off", "prefix", "on"]


def judge_cache_from_bool(value: object) -> object:
    """``true``/``false`` as ``"on"``/``"off"``; any other value as it is.

    The older form of the judge's prompt cache, also as text from the environment.
    """
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0"):
        return "on" if value.strip().lower() in ("true", "1") else "off"
    return value


class GroundingSettings(BaseModel):
    """The claim checker run on every final answer (disputatio.validators.claims)."""

    checker: Literal["lexical", "hybrid", "judged"] = Field(
        "judged",
        description="Support checker: 'lexical' (guards + word coverage), 'hybrid' (guards + "
        "mean of coverage and embedding cosine) or 'judged' (hybrid, and the chat model's "
        "yes/no verdict, from log-probabilities, on a claim left in the grey zone; the judge is "
        "the model of role 'claim_judge', default the chat model); chosen on labelled pairs "
        "(docs/grounding.md).",
    )
    threshold: float | None = Field(
        None,
        ge=0,
        le=1,
        description="Support score from which a claim is supported (default: the checker's).",
    )
    judge_prompt_cache: JudgePromptCache = Field(
        "prefix",
        description="'judged' checker on a llama.cpp endpoint: the judge's prompt cache. "
        "'off' evaluates every prompt afresh; 'prefix' reuses exactly the cached tokens of the "
        "system message and of the claim's section and question lines, each computed one way "
        "and checked by a fingerprint, so a verdict still depends on its prompt alone "
        "(docs/grounding.md, 'A fixed-prefix cache'); "
        "'on' reuses any cached prefix (fastest; a claim's P(yes) then moves with the claim "
        "judged before it, by up to 0.03 near 0.5: benchmarks/judge_determinism.py). "
        "true/false mean 'on'/'off'.",
    )

    @field_validator("judge_prompt_cache", mode="before")
    @classmethod
    def _cache_from_bool(cls, value: object) -> object:
        """``true``/``false`` (the setting's older form, also from the environment)."""
        return judge_cache_from_bool(value)

    attribute: bool = Field(
        True,
        description="Attach an uncited or mis-cited claim to its best supporting shown sentence.",
    )
    answer_format: Literal["sentences", "sections"] = Field(
        "sections",
        description="What the quick path's answerer sees: 'sentences' (numbered, it cites the "
        "sentence) or 'sections' (whole sections, it cites the section); either way every "
        "claim is checked and attributed after generation. 'sections' answered 10 of 15 "
        "calibration parts with the local 1.5B, 'sentences' 2 (docs/grounding.md).",
    )
    max_sentences: int = Field(
        12,
        ge=0,
        description="Sentences of the retrieved sections the quick path's answerer sees, the "
        "nearest the question (0: every sentence of every section).",
    )
    allow_unsupported: bool = Field(
        False,
        description="Keep unsupported and uncited claims in answers, flagged, instead of "
        "dropping them (answers without evidence).",
    )
    on_question: bool = Field(
        True,
        description="Drop supported claims answering a neighbouring question: another number "
        "or unit than asked, no amount where one is asked (wh-questions; docs/grounding.md).",
    )
    on_question_words: bool = Field(
        False, description="Also a question's word the evidence replaces (docs/grounding.md)."
    )
    judge_question: bool = Field(
        False, description="Tell the claim judge the question its claim answers."
    )
    answer_parts: bool = Field(
        True,
        description="Quick path: say which part of a multi-part question no kept claim answers "
        "(read off the question's wording; docs/grounding.md).",
    )
    judge_relevance: bool = Field(
        True,
        description="Quick path, 'judged' checker: ask the judge whether the kept claims "
        "answer the question asked (one call a one-part answer); its P(yes) is a signal of "
        "the fitted confidence (held-out AUC 0.556 -> 0.712 with it; docs/grounding.md).",
    )
    relevance_floor: float = Field(
        0.25,
        ge=0,
        le=1,
        description="Quick path: refuse an answer the judge gives P(answers the question) "
        "below this (0: never; nor with allow_unsupported). 0.25 refuses 1% of the right "
        "one-part answers of the fit sets; on held-out sets 9-12 it refused 3 more near "
        "misses and 1 wrong answer, no right one (docs/grounding.md).",
    )

    quote_refused: bool = Field(
        False,
        description="Quick path: when the judge vetoes the sentence the scores found for a "
        "claim, show that sentence itself instead of dropping the claim; the relevance checks "
        "then decide whether it answers the question (with the 1.5B judge, on sets 10-19's "
        "drafts: 4 answerable questions more answered, 5 near misses more answered; "
        "docs/grounding.md).",
    )
    repair: bool = Field(
        False,
        description="Quick path: when the checker sets aside every claim of the answer for "
        "want of support, ask the model once more, afresh, to copy the sentence that answers "
        "(one more answering call on those refusals; with the 1.5B, 3 right answers gained on "
        "145 repairs over 14 question sets, none wrong: docs/grounding.md).",
    )
    repair_floor: float = Field(
        0.5,
        ge=0,
        le=1,
        description="Quick path: a repaired one-part answer stands only when the judge gives "
        "P(answers the question) at least this (the relevance floor applies to first tries).",
    )


class MedragSettings(BaseModel):
    """MedRAG-style two-agent debate."""

    temperatures: list[float] = Field(
        default_factory=lambda: [0.7, 0.3], description="Agent1 and Agent2 temperatures."
    )
    summary_temperature: float = Field(0.1, description="Temperature of the round summaries.")
    summary_max_tokens: int = Field(120, ge=16, description="Budget of each round summary.")
    rounds: int = Field(2, ge=1, le=6, description="Debate rounds.")
    k: int = Field(6, ge=1, description="Snippets retrieved per agent per round.")
    section_max_chars: int = Field(
        700, ge=100, description="Characters of each snippet shown to an agent."
    )
    max_tokens: int = Field(
        192, ge=16, description="Completion budget of an agent's answer (2 sentences + box)."
    )
    query_max_tokens: int = Field(
        48, ge=8, description='Completion budget of an agent\'s retrieve("query") call.'
    )
    verifier_temperature: float = Field(0.7, ge=0, le=2, description="Verifier temperature.")
    verifier_max_chars: int = Field(3500, ge=500, description="Debate text shown to the verifier.")
    response_max_chars: int = Field(
        2000, ge=100, description="Replies are cut to this many characters after cleaning."
    )
    repetition_penalty: float = Field(
        1.2, ge=1.0, le=2.0, description="llama.cpp repeat_penalty (local and vLLM servers)."
    )
    stop: list[str] = Field(
        default_factory=lambda: ["<|im_end|>", "<|endoftext|>", "\nQuestion:", "\n\n\n\n"],
        description="Stop sequences of agent, summary and verifier calls.",
    )


class RefereeSettings(BaseModel):
    """Tech Referee."""

    max_options: int = Field(3, ge=2, le=3, description="Options compared at most.")
    max_clarifications: int = Field(3, ge=0, description="Clarification questions at most.")
    max_retries: int = Field(
        3, ge=0, description="Retries of a phase after a transient (connection, 5xx) error."
    )
    rate_limit_retries: int = Field(
        2, ge=0, description="Retries after a rate limit (429), with exponential backoff."
    )
    max_fill_rounds: int = Field(
        2, ge=0, description="Times the referee is asked again for unscored or ambiguous cells."
    )
    max_claims_checked: int = Field(
        8, ge=1, description="Claims of each opponent one cross-examiner fact-checks at most."
    )
    web_search: Literal["auto", "none", "tavily", "exa"] = Field(
        "auto",
        description="Web search of the agents besides the corpus: 'auto' uses Tavily when "
        "TAVILY_API_KEY is set, else Exa when EXA_API_KEY is set, else none.",
    )


class RdcSettings(BaseModel):
    """ResearchDebateChain."""

    quality_alpha: float = Field(1.0, gt=0, description="f(q) = q**alpha in log-odds fusion.")
    max_rounds: int = Field(4, ge=1, description="Moderator rounds at most.")
    entropy_stop: float = Field(0.2, ge=0, description="Stop when entropy (nats) is below.")
    voi_stop: float = Field(0.01, ge=0, description="Stop when the best test's EIG is below.")
    max_risk: float = Field(0.5, ge=0, le=1, description="Tests riskier than this are excluded.")
    speaker_selection: str = Field(
        "round_robin", description="'round_robin', 'linucb' or 'thompson' (linear Thompson)."
    )
    semantics: Literal["bipolar", "derived"] = Field(
        "bipolar",
        description="Labelling: the seed's bipolar rule, or grounded over derived attacks.",
    )
    label_consistency: float = Field(
        0.0, ge=0, description="Strength of the label/posterior consistency regulariser (0: off)."
    )
    min_entropy_drop: float = Field(
        0.0, ge=0, description="Stop when each of the last stall_turns turns dropped less (nats)."
    )
    stall_turns: int = Field(3, ge=1, description="Turns the entropy-drop halt looks back over.")
    top_pairs: int = Field(3, ge=2, description="Top hypotheses whose pairs get Δ_ik(T).")
    max_support_paths: int = Field(
        256, ge=1, description="Support paths enumerated for the counter-evidence hitting set."
    )
    retrieved_hypotheses: int = Field(
        2, ge=0, description="Hypotheses agents may add from corpus retrieval (0: case only)."
    )
    ledger: Literal["postgres", "memory"] = Field(
        "postgres", description="Ledger of runs that inject none: Postgres, or in-process."
    )
    memory: bool = Field(True, description="Keep per-agent diaries in the LangGraph store.")
    reliabilities: dict[str, float] = Field(
        default_factory=dict,
        description="β per evidence source (as `disputatio rdc calibrate` fits them): "
        "multiplies the quality of the case's findings of that source (default 1).",
    )
