"""Option log-probabilities from an OpenAI-compatible chat endpoint.

::

    from disputatio.models.logprobs import option_logprobs
    option_logprobs(model, messages, ["yes", "no"])  # {"yes": -0.16, "no": -2.33}

The model is asked for its answer with ``logprobs=True, top_logprobs=k`` and a completion budget
of one or two tokens; the prompt ends where the option label must come next (``Answer:``). The
endpoint's ``logprobs.content`` (``langchain_openai.ChatOpenAI`` puts the choice's ``logprobs``
in ``response_metadata["logprobs"]``; llama.cpp's server, vLLM and OpenAI return it) lists, per
generated token, the ``top_logprobs`` alternatives. Each option label is scored at the answer
position by the log-sum-exp of every listed token that spells it (:func:`token_label`:
``Yes``, `` yes`` and ``yes`` are the label ``yes``; ``A``, `` A`` and ``(A`` are ``A``). The
answer position is the first generated token that is a label; failing that, the first whose
alternatives hold a label (a reply opening with a space or ``**``). A label absent from the
listed alternatives is given the position's smallest listed log-probability, an upper bound
of its own (``missing`` names such labels).

An endpoint that returns no log-probabilities raises :class:`LogprobsUnavailableError`, which
names the endpoint.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from disputatio.errors import ConfigError

#: Alternatives asked for at each position (OpenAI and vLLM allow at most 20 by default).
TOP_LOGPROBS = 20
#: Completion budget of a label verdict: the label, and one token for a leading space or mark.
LABEL_MAX_TOKENS = 2
#: Characters stripped around a token before it is compared with a label.
_STRIP = " \t\r\n*_`'\"()[]{}<>.,:;!?|#"


class LogprobsUnavailableError(ConfigError):
    """The endpoint returned no log-probabilities (it cannot serve a log-probability verdict)."""

    code = "config.logprobs"


@dataclass(frozen=True)
class OptionScores:
    """Log-probabilities of option labels at the answer position of one reply.

    Attributes:
        logprobs: ``{label: log-probability}`` of every label; a missing label has ``floor``.
        missing: Labels absent from the listed alternatives.
        floor: The position's smallest listed log-probability (``-inf`` when none was read).
        position: Index of the answer position in the generated tokens (-1: no label found).
        token: The token generated at that position.
        text: The reply's text.
        alternatives: ``[(token, logprob)]`` listed at that position (for the record).
    """

    logprobs: dict[str, float]
    missing: tuple[str, ...]
    floor: float
    position: int
    token: str
    text: str
    alternatives: list[tuple[str, float]] = field(default_factory=list)

    @property
    def found(self) -> bool:
        """Whether some label was listed at the answer position."""
        return self.position >= 0 and len(self.missing) < len(self.logprobs)


def endpoint_of(model: Any) -> str:
    """A readable name of the endpoint behind ``model`` (class, model name, base URL)."""
    inner = model
    while hasattr(inner, "bound"):  # RunnableBinding from .bind(...)
        inner = inner.bound
    name = getattr(inner, "model_name", None) or getattr(inner, "model", None)
    base = getattr(inner, "openai_api_base", None)
    if base is None and type(inner).__name__ == "ChatOpenAI":
        base = "https://api.openai.com/v1"
    where = f" at {base}" if base else ""
    return f"{type(inner).__name__} model {name!r}{where}"


def token_label(token: str, labels: Sequence[str]) -> str | None:
    """The label ``token`` spells, or None.

    Surrounding spaces, brackets and punctuation are ignored; one-letter labels (``A``-``E``)
    compare case-sensitively (a lower-case ``a`` is more often the article), word labels
    (``yes``/``no``/``maybe``) case-insensitively, and a word label split into several tokens
    is matched by its first token when that prefix (two characters at least) is no other
    label's.
    """
    text = token.strip(_STRIP)
    if not text:
        return None
    for label in labels:
        if text == label or (len(label) > 1 and text.lower() == label.lower()):
            return label
    low = text.lower()
    if len(low) >= 2:
        prefixed = [lb for lb in labels if len(lb) > 1 and lb.lower().startswith(low)]
        if len(prefixed) == 1:
            return prefixed[0]
    return None


def _logsumexp(values: Sequence[float]) -> float:
    top = max(values)
    return top + math.log(sum(math.exp(v - top) for v in values))


def _alternatives(entry: Mapping[str, Any]) -> list[tuple[str, float]]:
    """``[(token, logprob)]`` listed at one position, the generated token included, unique."""
    out: dict[str, float] = {}
    for alt in entry.get("top_logprobs") or []:
        if alt.get("logprob") is not None:
            out.setdefault(str(alt.get("token", "")), float(alt["logprob"]))
    if entry.get("logprob") is not None:
        out.setdefault(str(entry.get("token", "")), float(entry["logprob"]))
    return list(out.items())


def _pick_position(content: Sequence[Mapping[str, Any]], labels: Sequence[str]) -> int:
    for i, entry in enumerate(content):  # the generated token is a label
        if token_label(str(entry.get("token", "")), labels) is not None:
            return i
    for i, entry in enumerate(content):  # some listed alternative is
        if any(token_label(tok, labels) for tok, _ in _alternatives(entry)):
            return i
    return -1


def read_option_logprobs(
    message: AIMessage, labels: Sequence[str], *, endpoint: str = "the endpoint"
) -> OptionScores:
    """Score ``labels`` from a reply's ``response_metadata["logprobs"]``.

    Raises:
        LogprobsUnavailableError: If the reply carries no per-token log-probabilities.
    """
    meta = (getattr(message, "response_metadata", None) or {}).get("logprobs")
    content = meta.get("content") if isinstance(meta, Mapping) else None
    if not content:
        raise LogprobsUnavailableError(
            f"{endpoint} returned no log-probabilities (asked logprobs=True, top_logprobs): "
            "the log-probability verdicts need an OpenAI-compatible chat endpoint that returns "
            "them (llama.cpp server, vLLM, OpenAI)"
        )
    text = str(message.content) if isinstance(message.content, str) else message.text
    position = _pick_position(content, labels)
    if position < 0:
        listed = _alternatives(content[0])
        floor = min((lp for _, lp in listed), default=-math.inf)
        return OptionScores(
            {lb: floor for lb in labels}, tuple(labels), floor, -1, "", text, listed
        )
    entry = content[position]
    listed = _alternatives(entry)
    floor = min(lp for _, lp in listed)
    spelled: dict[str, list[float]] = {}
    for tok, lp in listed:
        label = token_label(tok, labels)
        if label is not None:
            spelled.setdefault(label, []).append(lp)
    scores = {lb: _logsumexp(spelled[lb]) if lb in spelled else floor for lb in labels}
    missing = tuple(lb for lb in labels if lb not in spelled)
    token = str(entry.get("token", ""))
    return OptionScores(scores, missing, floor, position, token, text, listed)


def logprob_model(model: Any, *, top_logprobs: int = TOP_LOGPROBS) -> Any:
    """``model`` asking for per-token log-probabilities (``logprobs=True, top_logprobs=k``)."""
    return model.bind(logprobs=True, top_logprobs=top_logprobs)


def score_options(
    model: Any,
    messages: list[BaseMessage],
    labels: Sequence[str],
    *,
    top_logprobs: int = TOP_LOGPROBS,
    max_tokens: int | None = LABEL_MAX_TOKENS,
) -> tuple[OptionScores, AIMessage]:
    """Ask ``model`` (temperature 0, ``max_tokens``) and score ``labels``; return the reply too.

    Raises:
        LogprobsUnavailableError: If the endpoint returns no log-probabilities.
    """
    from disputatio.models.chat import configure_model

    configured = configure_model(model, temperature=0.0, max_tokens=max_tokens)
    reply = logprob_model(configured, top_logprobs=top_logprobs).invoke(messages)
    return read_option_logprobs(reply, labels, endpoint=endpoint_of(model)), reply


def option_logprobs(
    model: Any,
    messages: list[BaseMessage],
    labels: Sequence[str],
    *,
    top_logprobs: int = TOP_LOGPROBS,
    max_tokens: int | None = LABEL_MAX_TOKENS,
) -> dict[str, float]:
    """``{label: log-probability}`` of each option label at the answer position.

    Args:
        model: A chat model of an OpenAI-compatible endpoint (``ChatOpenAI``: ``local:``,
            ``vllm:`` and ``openai:`` models).
        messages: The prompt; it should end where the label comes next (``Answer:``).
        labels: The option labels (``A``-``D``, or ``yes``/``no``/``maybe``).
        top_logprobs: Alternatives listed per position.
        max_tokens: Completion budget (1-2: the label, maybe after a space).

    Returns:
        One log-probability per label (a label not listed gets the smallest listed value).

    Raises:
        LogprobsUnavailableError: If the endpoint returns no log-probabilities.
    """
    scores, _ = score_options(
        model, messages, labels, top_logprobs=top_logprobs, max_tokens=max_tokens
    )
    return scores.logprobs
