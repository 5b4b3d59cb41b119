"""A chat model as the claim checker's judge: does this passage state this claim?

:class:`SupportJudge` asks the model a yes/no question (:mod:`disputatio.prompts.grounding`) and
returns P(yes) from the option log-probabilities of the reply
(:func:`disputatio.models.logprobs.read_option_logprobs`), so one short completion decides and
the answer is a probability, not a parsed word. From an endpoint that returns no
log-probabilities (Gemini, a scripted fake) the same reply's first word is read: ``yes`` is
1.0, anything else 0.0. Verdicts are cached by (claim, passage, section, question): a debate
that checks the same claim against the same sentence twice asks once.

On a llama.cpp endpoint the judge's prompt cache is one of three modes (``prompt_cache``,
``grounding.judge_prompt_cache``): ``"off"`` evaluates every prompt afresh; ``"on"`` lets
llama.cpp reuse the longest cached prefix, which is fastest but moves a claim's P(yes) with the
claim judged before it (by up to 0.03 near 0.5: ``benchmarks/judge_determinism.py``,
docs/grounding.md); ``"prefix"`` reuses exactly the cached tokens of the system message and of
the claim prompt's section and question lines, each computed one way
(:class:`~disputatio.models.prefix_cache.FixedPrefixModel`), so a verdict depends on its prompt
alone and the shared lines are not evaluated again.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any, get_args

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from disputatio.models.chat import configure_model
from disputatio.models.logprobs import (
    LABEL_MAX_TOKENS,
    LogprobsUnavailableError,
    endpoint_of,
    logprob_model,
    read_option_logprobs,
)
from disputatio.models.prefix_cache import FixedPrefixModel
from disputatio.prompts.grounding import (
    RELEVANCE_JUDGE_SYSTEM,
    RELEVANCE_JUDGE_USER,
    SUPPORT_JUDGE_SECTION,
    SUPPORT_JUDGE_SYSTEM,
    SUPPORT_JUDGE_USER,
    SUPPORT_JUDGE_USER_QUESTION,
)
from disputatio.settings.pipelines import JudgePromptCache, judge_cache_from_bool


def judge_messages(
    claim: str, passage: str, context: str = "", question: str = ""
) -> list[BaseMessage]:
    """The judge's prompt for ``claim`` against ``passage``.

    ``context`` is its section's title; ``question`` the question the claim answers, when the
    judge is told it.
    """
    section = SUPPORT_JUDGE_SECTION.format(context=context.strip()) if context.strip() else ""
    if question.strip():
        user = SUPPORT_JUDGE_USER_QUESTION.format(
            section=section, question=question.strip(), passage=passage, claim=claim
        )
    else:
        user = SUPPORT_JUDGE_USER.format(section=section, passage=passage, claim=claim)
    return [SystemMessage(SUPPORT_JUDGE_SYSTEM), HumanMessage(user)]


def relevance_messages(question: str, statements: Sequence[str]) -> list[BaseMessage]:
    """The prompt asking whether ``statements`` answer ``question`` (not a neighbouring one)."""
    user = RELEVANCE_JUDGE_USER.format(
        question=question.strip(), statements=" ".join(s.strip() for s in statements)
    )
    return [SystemMessage(RELEVANCE_JUDGE_SYSTEM), HumanMessage(user)]


#: Where a claim prompt's head ends (its section and question lines): with the ``"prefix"``
#: cache, claims judged with one section and question reuse the head's tokens too.
PASSAGE_LINE = "Passage: "


def cache_mode(value: bool | str) -> JudgePromptCache:
    """``value`` as a prompt-cache mode: a bool is ``"on"`` or ``"off"`` (the older setting)."""
    mode = judge_cache_from_bool(value) if isinstance(value, bool) else value
    if mode not in get_args(JudgePromptCache):
        raise ValueError(f"judge prompt cache {value!r}: expected 'off', 'prefix' or 'on'")
    return mode  # type: ignore[return-value]


class SupportJudge:
    """P(the passage states the claim), from a chat model.

    Args:
        model: A LangChain chat model (an OpenAI-compatible endpoint returns log-probabilities).
        cache_size: Verdicts kept.
        prompt_cache: A llama.cpp endpoint's prompt cache for the judge: ``"off"`` (every
            prompt afresh), ``"prefix"`` (the system message's and the section and question
            lines' tokens reused, each as computed once) or ``"on"`` (any cached prefix:
            faster, and a verdict then depends a little on the prompt judged before it);
            ``False``/``True`` mean ``"off"``/``"on"``.
            Other endpoints are asked as they are.
    """

    def __init__(
        self, model: Any, cache_size: int = 4096, prompt_cache: bool | str = False
    ) -> None:
        self.model = model
        self.cache_size = cache_size
        self.calls = 0
        mode = cache_mode(prompt_cache)
        llama = "cache_prompt" in (getattr(model, "extra_body", None) or {})
        extra = {"cache_prompt": False} if llama and mode == "off" else None
        base = configure_model(
            model, temperature=0.0, max_tokens=LABEL_MAX_TOKENS, extra_body=extra
        )
        self._model: Any = (
            FixedPrefixModel(base, wrap=logprob_model, split=PASSAGE_LINE)
            if llama and mode == "prefix"
            else logprob_model(base)
        )
        self._cache: dict[tuple[str, str, str, str], float] = {}

    def __call__(self, claim: str, passage: str, context: str = "", question: str = "") -> float:
        """P(yes) that ``passage`` (of the section ``context``) states ``claim``.

        With ``question``, the judge is told the claim answers it.
        """
        key = (claim, passage, context, question)
        return self._cached(key, lambda: judge_messages(claim, passage, context, question))

    def answers(self, question: str, statements: Sequence[str]) -> float:
        """P(yes) that ``statements`` answer ``question`` itself, not a neighbouring one."""
        key = ("\0answers", " ".join(statements), "", question)
        return self._cached(key, lambda: relevance_messages(question, statements))

    def _cached(
        self, key: tuple[str, str, str, str], messages: Callable[[], list[BaseMessage]]
    ) -> float:
        """P(yes) of the question ``messages()`` builds, asked once per ``key``."""
        if key not in self._cache:
            if len(self._cache) >= self.cache_size:
                self._cache.clear()
            self._cache[key] = self.p_yes(messages())
        return self._cache[key]

    def p_yes(self, messages: list[BaseMessage]) -> float:
        """P(yes) of the model's one-word reply to ``messages`` (any yes/no question)."""
        self.calls += 1
        reply = self._model.invoke(messages)
        try:
            scores = read_option_logprobs(reply, ["yes", "no"], endpoint=endpoint_of(self.model))
        except LogprobsUnavailableError:
            text = reply.content if isinstance(reply.content, str) else str(reply.content)
            return 1.0 if re.findall(r"[a-z]+", text.casefold())[:1] == ["yes"] else 0.0
        return 1.0 / (1.0 + math.exp(scores.logprobs["no"] - scores.logprobs["yes"]))
