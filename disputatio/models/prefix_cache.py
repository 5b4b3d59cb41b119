"""Reuse only fixed prompt prefixes from a llama.cpp server's KV cache: fast and reproducible.

llama.cpp's ``cache_prompt`` reuses the KV cache of the longest prefix a slot (or its
host-memory prompt cache) already holds. The reused part and the new suffix are computed in
other batch shapes than the whole prompt, so a reply's log-probabilities depend on where the
split fell and on the batch the reused part was first computed in: on the prompts asked before
(docs/grounding.md, "The judge's verdict does not depend on the claim judged before it").

:class:`FixedPrefixModel` fixes both, so a reply is a function of its prompt alone:

- **Where the split falls.** A prompt's *prefix* is its system message's turn (up to the user's
  text), or, with ``split``, that and the user text before ``split`` (the *head*: for the
  claim judge, the section and question lines before ``"Passage: "``). Before each request a
  *warm* prompt, the prefix and a one-token user text (:data:`SENTINEL` or :data:`PROBE`), is
  sent with the cache on: it leaves the slot holding the prefix and that token, so the request
  after it reuses exactly the prefix and evaluates the rest in one go. Every request goes to one
  slot (``id_slot``: the model's own, else 0), so no other slot's longer match is taken.
- **How the prefix is computed.** The system message's turn is computed afresh (``cache_prompt``
  off) as the first warm prompt; a head is computed in one go right after it. A probe (the prefix
  and :data:`PROBE`) then reuses exactly the prefix: the number of tokens it reused (the reply's
  ``usage_metadata["input_token_details"]["cache_read"]``, llama.cpp's ``cached_tokens``) is the
  prefix's length, and its reply's log-probability the prefix's *fingerprint*.
- **Checked before each use.** The warm prompt before a request is that probe again: it must
  reuse the whole prefix and give the same fingerprint, else the prefix is computed again as
  above (a client that asked the same prefix with the cache off, or a slot that held another
  prompt, leaves a prefix computed another way, with another fingerprint). A request whose
  ``cache_read`` is not the prefix's length (another request took the slot in between) is asked
  again after the prefix is rebuilt, at most :attr:`FixedPrefixModel.attempts` times; the last
  reply is returned with a warning when none matched.

What it saves on the claim judge (docs/grounding.md, "A fixed-prefix cache"): run 42's 42 drafts
re-checked in 104 s against 143 s with every prompt afresh (and 70 s with llama.cpp's own cache,
whose verdicts move with the prompts before). An endpoint whose replies carry no ``cache_read``
is asked afresh every time. A request decoded in the same batch as another slot's can still
move a log-probability a little, in every mode.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from disputatio.models.chat import configure_model

logger = logging.getLogger(__name__)

#: The warm prompt's user message: one token no real prompt opens its user turn with.
SENTINEL = "\u00a7"
#: The probe's user message, another token: a probe measures a prefix's length and fingerprint.
PROBE = "\u00b6"


def cache_read(reply: Any) -> int | None:
    """Prompt tokens ``reply``'s request reused from the server's cache, or None if not said."""
    usage = getattr(reply, "usage_metadata", None) or {}
    value = (usage.get("input_token_details") or {}).get("cache_read")
    return int(value) if isinstance(value, int | float) else None


@dataclass
class _Slot:
    """What this process knows of one llama.cpp slot: its prefixes, and a lock for using it."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    #: Tokens of each system message's prefix (None: the endpoint reports no reuse).
    prefix: dict[str, int | None] = field(default_factory=dict)
    #: Tokens of each (system message, head) prefix; 0 where the head cannot be one.
    heads: dict[tuple[str, str], int] = field(default_factory=dict)
    #: Each (system message, head) prefix's fingerprint: its probe's reply log-probability.
    prints: dict[tuple[str, str], float | None] = field(default_factory=dict)


_slots: dict[tuple[str, int], _Slot] = {}
_slots_lock = threading.Lock()


def _slot(base: Any, slot: int) -> _Slot:
    """The process-wide record of ``slot`` on ``base``'s endpoint (one per server and slot).

    Every judge of a process asking one server shares it, so a prefix is measured once per
    process and a warm prompt and the request after it are never split by another judge.
    """
    url = getattr(base, "openai_api_base", None) or f"{type(base).__name__}@{id(base)}"
    key = (f"{url}|{getattr(base, 'model_name', '')}", slot)
    with _slots_lock:
        return _slots.setdefault(key, _Slot())


def fingerprint(reply: Any) -> float | None:
    """The log-probability of ``reply``'s first token, or None when the endpoint gave none."""
    content = ((getattr(reply, "response_metadata", None) or {}).get("logprobs") or {}).get(
        "content"
    )
    value = content[0].get("logprob") if content else None
    return float(value) if isinstance(value, int | float) else None


class FixedPrefixModel:
    """A llama.cpp chat model whose requests reuse exactly their fixed prefixes' KV cache.

    Args:
        base: The chat model, configured for the requests (temperature, reply length); its
            ``extra_body`` (llama.cpp fields) is kept, and its ``id_slot`` (else 0) pins every
            request to one slot.
        wrap: Applied to each configured copy of ``base`` that answers requests (e.g. binding
            ``logprobs``); the warm prompts are asked without it.
        attempts: How many times a request is asked before its reply is taken as it came.
        split: Where a second prefix ends in the user message: its text before the first
            ``split`` (the *head*, e.g. the judge's section and question lines before
            ``"Passage: "``). Prompts with one head reuse it too, computed once after the
            system message's prefix; None (or a user message without it) reuses the system
            message's prefix alone.
    """

    #: Heads remembered per slot before the record is cleared.
    max_heads = 4096

    def __init__(
        self,
        base: Any,
        wrap: Callable[[Any], Any] = lambda m: m,
        attempts: int = 3,
        split: str | None = None,
    ) -> None:
        self.attempts = attempts
        self.split = split
        slot_id = int((getattr(base, "extra_body", None) or {}).get("id_slot", 0))
        pinned = {"id_slot": slot_id}
        self.model = wrap(configure_model(base, extra_body={"cache_prompt": True, **pinned}))
        self._afresh_model = wrap(
            configure_model(base, extra_body={"cache_prompt": False, **pinned})
        )
        self._warm = {
            afresh: configure_model(
                base,
                temperature=0.0,
                max_tokens=1,
                extra_body={"cache_prompt": not afresh, **pinned},
            ).bind(logprobs=True, top_logprobs=1)
            for afresh in (False, True)
        }
        self._slot = _slot(base, slot_id)

    def invoke(self, messages: Sequence[BaseMessage]) -> Any:
        """``model``'s reply to ``messages``, split after its prefix (see the module)."""
        system = messages[0] if messages else None
        if not isinstance(system, SystemMessage):
            raise ValueError("a fixed-prefix request opens with a system message")
        with self._slot.lock:
            prefix = self._prefix_of(system)
            if prefix is None:  # the endpoint does not say what it reused: nothing is reused
                return self._afresh_model.invoke(list(messages))
            head = self._head(messages)
            reply, target = None, prefix
            for attempt in range(self.attempts):
                target = self._prepare(system, head, prefix, afresh=attempt > 0)
                reply = self.model.invoke(list(messages))
                if cache_read(reply) == target:
                    return reply
            logger.warning(
                "a fixed-prefix request reused %s tokens, not its prefix's %d, %d times: "
                "another request is using its slot",
                cache_read(reply),
                target,
                self.attempts,
            )
            return reply

    def _head(self, messages: Sequence[BaseMessage]) -> str | None:
        """The user message's text before ``split``, or None."""
        if not self.split or len(messages) < 2 or not isinstance(messages[1], HumanMessage):
            return None
        text = str(messages[1].content)
        at = text.find(self.split)
        return text[:at] if at > 0 else None

    def _prepare(self, system: SystemMessage, head: str | None, prefix: int, afresh: bool) -> int:
        """Leave the slot holding the request's prefix; return the prefix's length in tokens.

        The prefix is the system message's, or with ``head`` the system message's and the
        head's: the head's tokens computed in one go right after the system message's prefix,
        then reused by the prompts with the same head.
        """
        key = (str(system.content), head or "")
        known = self._slot.heads.get(key) if head is not None else 0
        if head is None or known == 0:
            self._warm_up(system, prefix, afresh)
            return prefix
        if known is not None and not afresh and self._reused(system, head, known):
            return known
        self._warm_up(system, prefix, afresh)
        if cache_read(self._ask_warm(system, head + SENTINEL, afresh=False)) != prefix:
            self._warm_up(system, prefix, afresh=False)  # not computed after the prefix alone
            return prefix
        if known is None:
            known = self._measure(system, head, prefix)
            if len(self._slot.heads) >= self.max_heads:
                self._slot.heads.clear()
                for stale in [k for k in self._slot.prints if k[1]]:  # the heads' prints
                    del self._slot.prints[stale]
            self._slot.heads[key] = known
            if known == 0:
                self._warm_up(system, prefix, afresh=False)
                return prefix
        return known

    def _prefix_of(self, system: SystemMessage) -> int | None:
        """The system message's prefix length in tokens, measured the first time it is seen."""
        key = str(system.content)
        known = self._slot.prefix
        if key not in known:
            self._ask_warm(system, SENTINEL, afresh=True)
            known[key] = self._measure(system, "", 0) or None
            if known[key] is None:
                logger.warning("the endpoint reports no reused prompt tokens: asking afresh")
        return known[key]

    def _measure(self, system: SystemMessage, head: str, built: int) -> int:
        """The length of the prefix the slot holds, built after ``built`` tokens (0: none).

        The slot holds the system message's turn, ``head`` and the sentinel, the head's tokens
        computed after the first ``built`` ones; a probe with the same head reuses exactly the
        prefix. Its reply's log-probability is the prefix's fingerprint: a later probe that
        reuses a prefix computed another way (by a client asking with the cache off, say)
        gets another.
        """
        reply = self._ask_warm(system, head + PROBE, afresh=False)
        reused = cache_read(reply) or 0
        if reused <= built:
            return 0
        self._slot.prints[(str(system.content), head)] = fingerprint(reply)
        return reused

    def _reused(self, system: SystemMessage, head: str, length: int) -> bool:
        """Whether a probe reuses the ``length``-token prefix of ``head`` as first computed."""
        reply = self._ask_warm(system, head + PROBE, afresh=False)
        reused = cache_read(reply)
        if reused is None or reused < length:
            return False
        return fingerprint(reply) == self._slot.prints.get((str(system.content), head))

    def _warm_up(self, system: SystemMessage, prefix: int, afresh: bool) -> None:
        """Leave the slot holding the system message's prefix, as first computed."""
        if not afresh and self._reused(system, "", prefix):
            return
        self._ask_warm(system, SENTINEL, afresh=True)

    def _ask_warm(self, system: SystemMessage, user: str, afresh: bool) -> Any:
        return self._warm[afresh].invoke([system, HumanMessage(user)])
