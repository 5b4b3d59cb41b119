"""Settings of the retrieval funnel: its knobs and each channel's depth and weight."""

from __future__ import annotations

import logging
from typing import Any, Literal, Self

from pydantic import BaseModel, Field, model_validator

logger = logging.getLogger(__name__)


class ChannelSettings(BaseModel):
    """Knobs of one retrieval channel (an entry of ``RetrievalSettings.channels``)."""

    k: int | None = Field(
        default=None, ge=1, description="Candidates it returns (None: its default)."
    )
    weight: float | None = Field(
        default=None, ge=0, description="Fusion weight (0 = the channel is off; None: its default)."
    )


#: The built-in channels' defaults, ``(k, weight)``, in fusion order (those of
#: ``disputatio.retrievers.channels.BUILTIN_CHANNELS``). The graph channel is off: on BioASQ's
#: calibration split a weight of 0.05-0.1 changed nDCG@10 by less than 0.4 points either way.
BUILTIN_CHANNEL_DEFAULTS: dict[str, tuple[int, float]] = {
    "lexical": (100, 0.45),
    "semantic": (100, 0.55),
    "graph": (50, 0.0),
}

#: Deprecated settings (``k_<name>``, ``weight_<name>`` of a built-in channel) → (channel, knob).
DEPRECATED_CHANNEL_FIELDS: dict[str, tuple[str, str]] = {
    f"{knob}_{name}": (name, knob) for name in BUILTIN_CHANNEL_DEFAULTS for knob in ("k", "weight")
}


class RetrievalSettings(BaseModel):
    """The triple-hybrid retrieval funnel.

    Defaults are tuned on BioASQ's calibration split; docs/retrieval_tuning.md has the numbers.

    Each channel's depth and fusion weight live in ``channels`` (``[retrieval] channels =
    {graph = {k = 50, weight = 0.1}}``, or ``DISPUTATIO_RETRIEVAL__CHANNELS__GRAPH__WEIGHT=0.1``),
    for the built-in channels and any channel a funnel adds
    (:mod:`disputatio.retrievers.channels`). The former fields ``k_lexical``, ``k_semantic``,
    ``k_graph``, ``weight_lexical``, ``weight_semantic`` and ``weight_graph`` are still accepted
    as input, deprecated: they are folded into ``channels`` (with a warning in the log) and are
    not fields; given with their ``channels`` entry, the two must agree.
    """

    k_final: int = Field(8, ge=1, description="Parent sections handed to the answerer.")
    fusion: Literal["convex", "rrf"] = Field(
        "convex",
        description="'convex': weighted mean of min-max normalised channel scores; "
        "'rrf': weighted reciprocal rank fusion.",
    )
    rrf_k: int = Field(60, ge=1, description="RRF constant k in 1/(k + rank) (fusion='rrf').")
    channels: dict[str, ChannelSettings] = Field(
        default_factory=dict,
        description="Per-channel knobs by channel name, e.g. {graph = {k = 50, weight = 0.1}}; "
        "a weight of 0 turns a channel off. The built-in channels are always filled in "
        "(lexical k 100 weight 0.45, semantic k 100 weight 0.55, graph k 50 weight 0: off; on "
        "BioASQ's calibration split a graph weight of 0.05-0.1 changed nDCG@10 by less than "
        "0.4 points either way). A name the funnel being built has no channel for is refused "
        "(a ConfigError naming it and the funnel's channels).",
    )
    bm25_k1: float = Field(0.9, ge=0, description="BM25 term-frequency saturation k1.")
    bm25_b: float = Field(0.4, ge=0, le=1, description="BM25 length normalisation b.")
    bm25_postings_per_term: int = Field(
        1000, ge=10, description="Highest-impact postings read per query term (bounds BM25)."
    )
    graph_hops: int = Field(1, ge=0, le=1, description="Relation hops from the seed entities.")
    graph_neighbour_cap: int = Field(
        20, ge=1, description="Neighbours kept per seed entity (strongest edges first)."
    )
    graph_query_ner: bool = Field(
        True,
        description="Recognise query entities with the ingestion NER (spaCy) as graph seeds, "
        "besides whole-key matches of the query's word n-grams.",
    )
    parent_rest_share: float = Field(
        0.1,
        ge=0,
        le=1,
        description="A parent scores its best child plus at most this share of it from the rest.",
    )
    channel_timeout_s: float | None = Field(
        5.0,
        gt=0,
        description="Deadline per channel (statement_timeout + thread wait); late channels are "
        "dropped and recorded in the trace. None = no deadline.",
    )
    rerank_blend: float = Field(
        0.0,
        ge=0,
        le=1,
        description="local:hybrid orders by blend·relevance + (1-blend)·fusion score.",
    )
    relevance_platt_a: float = Field(
        12.0, description="Relevance = sigmoid(a·cosine + b): slope a (calibrate refits it)."
    )
    relevance_platt_b: float = Field(
        -6.0, description="Relevance = sigmoid(a·cosine + b): offset b (calibrate refits it)."
    )
    rerank_threshold: float = Field(
        0.15,
        description="Refuse (NO_SUITABLE_CONTEXT) when the best calibrated relevance is below "
        "(calibrate refits it). A loose gate: the claim check refuses what no sentence "
        "supports. 0.15, with one child per paragraph, refuses 1 of 198 answerable questions "
        "of the grounding sets it was chosen on and 0 of 1,181 BioASQ questions "
        "(docs/grounding.md, 'Children cut at paragraphs').",
    )
    trim_alpha: float = Field(
        0.5, ge=0, le=1, description="Uncalibrated trim: keep chunks scoring >= alpha * s_max."
    )
    deep_trim_alpha: float | None = Field(
        0.1,
        ge=0,
        le=1,
        description="Uncalibrated: a search deeper than k_final (a ranking: never refused) also "
        "gets, after the trimmed list, those scoring >= this * s_max (None: the trim alone, "
        "refused like the answerer's; docs/retrieval_quality.md).",
    )
    calibrated_deep_trim_alpha: float | None = Field(
        0.0,
        ge=0,
        le=1,
        description="Calibrated: the same on calibrated scores, after the conformal list (0: "
        "the rest of the reranked list; None: the conformal list alone).",
    )
    conformal_alpha: float = Field(
        0.1, gt=0, lt=1, description="Miscoverage level of the calibrated (conformal) trim."
    )
    refusal_alpha: float = Field(
        0.05,
        gt=0,
        lt=1,
        description="calibrate sets the refusal threshold so at most this share of on-topic "
        "calibration questions is refused.",
    )
    planner: str = Field("deterministic", description="Query planner: 'deterministic' or 'llm'.")

    @model_validator(mode="before")
    @classmethod
    def _deprecated_channel_fields(cls, data: Any) -> Any:
        """Fold the deprecated ``k_<name>``/``weight_<name>`` inputs into ``channels``."""
        if not isinstance(data, dict) or not DEPRECATED_CHANNEL_FIELDS.keys() & data.keys():
            return data
        data = dict(data)
        given = data.get("channels") or {}
        if not isinstance(given, dict):
            return data  # not a mapping: the field's own validation says so
        channels = {name: _entry(value) for name, value in given.items()}
        old = [key for key in DEPRECATED_CHANNEL_FIELDS if key in data]
        for key in old:
            name, knob = DEPRECATED_CHANNEL_FIELDS[key]
            value = data.pop(key)
            entry = channels.setdefault(name, {})
            if entry.get(knob) is not None and not _same(entry[knob], value):
                raise ValueError(
                    f"{key} = {value} and channels.{name}.{knob} = {entry[knob]} disagree: give"
                    f" channels.{name}.{knob} only ({key} is deprecated)"
                )
            entry[knob] = value
        logger.warning(
            "retrieval: %s deprecated; use %s",
            ", ".join(old) + (" is" if len(old) == 1 else " are"),
            ", ".join("channels.{}.{}".format(*DEPRECATED_CHANNEL_FIELDS[key]) for key in old),
        )
        data["channels"] = channels
        return data

    @model_validator(mode="after")
    def _builtin_channels(self) -> Self:
        """Fill in the built-in channels' entries (their defaults where a knob is not given)."""
        given = self.channels
        channels = {}
        for name, (k, weight) in BUILTIN_CHANNEL_DEFAULTS.items():
            entry = given.get(name) or ChannelSettings()
            channels[name] = ChannelSettings(
                k=k if entry.k is None else entry.k,
                weight=weight if entry.weight is None else entry.weight,
            )
        channels.update({n: e for n, e in given.items() if n not in BUILTIN_CHANNEL_DEFAULTS})
        object.__setattr__(self, "channels", channels)  # no validation again, no fields_set
        return self

    def weight_for(self, channel: str) -> float:
        """The fusion weight the settings give ``channel``.

        Raises:
            KeyError: When the settings give ``channel`` no weight.
        """
        entry = self.channels.get(channel)
        if entry is None or entry.weight is None:
            raise KeyError(f"retrieval.channels has no weight for {channel!r}")
        return entry.weight


def _entry(value: Any) -> dict[str, Any]:
    """A ``channels`` entry as given (a mapping or a ChannelSettings), as a mutable dict."""
    if isinstance(value, ChannelSettings):
        return value.model_dump(exclude_none=True)
    if isinstance(value, dict):
        return dict(value)
    raise ValueError(f"a channels entry is a mapping of k and weight, not {value!r}")


def _same(a: Any, b: Any) -> bool:
    """Whether two knob values as given (numbers or strings from the environment) are equal."""
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return bool(a == b)
