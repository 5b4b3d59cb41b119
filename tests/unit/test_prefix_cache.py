"""The judge's fixed-prefix prompt cache: a verdict depends on its prompt alone, and is cheaper.

A scripted llama.cpp server (:class:`FakeLlama`) keeps, per slot, the tokens it last evaluated
and the batch each was computed in, reuses the longest common prefix when ``cache_prompt`` is
on, reports the reused tokens as llama.cpp does (``cached_tokens``, LangChain's
``input_token_details.cache_read``), and gives a P(yes) that moves a little with those batches,
as llama.cpp's log-probabilities do.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from disputatio.models import prefix_cache
from disputatio.models.prefix_cache import PROBE, SENTINEL, FixedPrefixModel
from disputatio.testing import ScriptedChatModel
from disputatio.validators.judge import SupportJudge, judge_messages

CLAIM = "There are 4 wheelchair spaces at the Ropeworks Studio."
PASSAGE = "| Facility: Wheelchair spaces | Harcourt Stage: 6 | Ropeworks Studio: 4 |"
TITLE = "Access and facilities"
#: Prompts judged before the target: unrelated, one on its passage, one with its claim.
BEFORE = [
    ("The box office opens at 9:00 on Saturdays.", "The box office opens at 10:00.", "Box"),
    ("There are 6 wheelchair spaces at the Harcourt Stage.", PASSAGE, TITLE),
    (CLAIM, "Every Ropeworks Studio production has one relaxed performance.", "Access"),
]


@pytest.fixture(autouse=True)
def _fresh_slots() -> None:
    """Forget what earlier tests' judges learnt of their servers' slots.

    A scripted model has no endpoint address, so its slot record is keyed by the object's
    ``id``, which a later test's model may be given again once the first is collected: it would
    find the other server's prefixes (a test then passed or failed by the order it ran in).
    """
    prefix_cache._slots.clear()


def _tokens(messages: Sequence[BaseMessage]) -> list[str]:
    out: list[str] = []
    for m in messages:
        out += [f"<{m.type}>", *str(m.content).split(), "</>"]
    return [*out, "<ai>"]


def _lcp(a: list[str], b: list[str]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


class FakeLlama:
    """Two llama.cpp slots behind a scripted chat model (``model``).

    Args:
        report: Whether replies say how many prompt tokens were reused.
        meddle: Called with the server before a judge request is evaluated (another client's
            request taking the slot, for instance).
    """

    def __init__(self, report: bool = True, meddle: Callable[[FakeLlama], None] | None = None):
        self.report = report
        self.meddle = meddle
        self.slots: dict[int, tuple[list[str], list[tuple[int, int]]]] = {0: ([], []), 1: ([], [])}
        self.reused: list[int] = []
        self.model = ScriptedChatModel(
            script=[self._reply], repeat_last=True, extra_body={"cache_prompt": True}
        )

    def evaluate(self, tokens: list[str], cache: bool, slot: int) -> int:
        """Put ``tokens`` in ``slot``; return how many were reused."""
        held, batches = self.slots[slot]
        reused = min(_lcp(held, tokens), len(tokens) - 1) if cache else 0
        batches = batches[:reused] + [(reused, len(tokens))] * (len(tokens) - reused)
        self.slots[slot] = (tokens, batches)
        return reused

    def _reply(self, messages: list[BaseMessage]) -> AIMessage:
        body = self.model.received[-1]["extra_body"] or {}
        slot = int(body.get("id_slot", 1))
        tokens = _tokens(messages)
        if self.meddle and "Claim:" in str(messages[-1].content):
            self.meddle(self)
        reused = self.evaluate(tokens, bool(body.get("cache_prompt")), slot)
        self.reused.append(reused)
        # P(yes): the prompt's, moved a little by the batches its tokens were computed in
        key = repr((tokens, self.slots[slot][1])).encode()
        p = 0.5 + (zlib.crc32(repr(tokens).encode()) % 200) / 1000 + (zlib.crc32(key) % 9973) / 1e6
        top = [
            {"token": "yes", "logprob": math.log(p)},
            {"token": "no", "logprob": math.log(1 - p)},
        ]
        content = [{"token": "yes", "logprob": math.log(p), "top_logprobs": top}]
        usage: dict[str, Any] = {"input_tokens": len(tokens), "output_tokens": 1}
        usage["total_tokens"] = len(tokens) + 1
        if self.report:
            usage["input_token_details"] = {"cache_read": reused}
        return AIMessage(
            content="yes",
            response_metadata={"logprobs": {"content": content}},
            usage_metadata=usage,
        )


def _p_after(server: FakeLlama, mode: str, before: tuple[str, str, str] | None) -> float:
    """P(yes) of the target claim, with ``before`` judged first by the same judge."""
    judge = SupportJudge(server.model, prompt_cache=mode)
    if before is not None:
        judge(*before)
    return judge(CLAIM, PASSAGE, TITLE)


def test_the_fake_server_moves_a_verdict_with_the_prompt_before_when_any_prefix_is_reused() -> None:
    """The premise: with llama.cpp's own cache on, the judged claim before moves P(yes)."""
    server = FakeLlama()
    values = {_p_after(server, "on", before) for before in [None, *BEFORE]}
    assert len(values) > 1


@pytest.mark.parametrize("mode", ["prefix", "off"])
def test_a_verdict_does_not_depend_on_the_prompt_judged_before(mode: str) -> None:
    server = FakeLlama()
    values = [_p_after(server, mode, before) for before in [None, *BEFORE, None]]
    assert len(set(values)) == 1, values
    # and it is the same on a fresh server, whatever it was asked first
    assert _p_after(FakeLlama(), mode, BEFORE[1]) == values[0]


def _sent(server: FakeLlama) -> list[tuple[str, dict[str, Any]]]:
    """Each request's last message and llama.cpp fields, in order."""
    pairs = zip(server.model.prompts, server.model.received, strict=True)
    return [(str(p[-1].content), r["extra_body"]) for p, r in pairs]


def test_prefix_mode_reuses_exactly_the_system_message() -> None:
    server = FakeLlama()
    model = FixedPrefixModel(server.model)
    model.invoke(judge_messages(*BEFORE[1]))
    model.invoke(judge_messages(CLAIM, PASSAGE, TITLE))
    sent = _sent(server)
    # first: the warm prompt afresh, then the probe measuring the prefix against it
    assert sent[0] == (SENTINEL, {"cache_prompt": False, "id_slot": 0})
    assert sent[1] == (PROBE, {"cache_prompt": True, "id_slot": 0})
    prefix = server.reused[1]
    system_turn = _tokens(judge_messages(CLAIM, PASSAGE)[:1])[:-1]
    assert prefix == len(system_turn) + 1  # the system turn and the user's role marker
    # then each request after a warm prompt, reusing the prefix and nothing more
    asked = [i for i, (text, _) in enumerate(sent) if text not in (SENTINEL, PROBE)]
    assert len(asked) == 2
    for i in asked:
        assert sent[i - 1][0] in (SENTINEL, PROBE)
        assert sent[i][1] == {"cache_prompt": True, "id_slot": 0}
        assert server.reused[i] == prefix
    # the second claim is on the same passage: llama.cpp alone would have reused far more
    first, second = (_tokens(server.model.prompts[i]) for i in asked)
    assert _lcp(first, second) > prefix + 5


def test_claims_on_one_section_reuse_its_head_and_nothing_more() -> None:
    """The judge's head (its section line) is computed once after the system message."""
    server = FakeLlama()
    judge = SupportJudge(server.model, prompt_cache="prefix")
    judge(*BEFORE[1])
    judge(CLAIM, PASSAGE, TITLE)
    sent = _sent(server)
    prefix = server.reused[1]
    head = "Section: Access and facilities\n"
    asked = [i for i, (text, _) in enumerate(sent) if "Claim:" in text]
    assert len(asked) == 2
    for i in asked:
        assert sent[i - 1][0] in (head + SENTINEL, head + PROBE)  # the head's, just before
        assert server.reused[i] == prefix + len(head.split())
    assert _lcp(*(_tokens(server.model.prompts[i]) for i in asked)) > server.reused[asked[1]] + 5
    # the head was computed once, in one go right after the system message's prefix, then
    # probed: when measured, and before the second claim (the same prefix, the same print)
    built = [server.reused[i] for i, (text, _) in enumerate(sent) if text == head + SENTINEL]
    probed = [server.reused[i] for i, (text, _) in enumerate(sent) if text == head + PROBE]
    assert built == [prefix]
    assert probed == [server.reused[asked[0]]] * 2


def test_prefix_mode_asks_again_when_another_request_took_the_slot() -> None:
    """A request that reused more or less than the prefix is asked again after a fresh warm."""
    calm = _p_after(FakeLlama(), "prefix", None)
    meddled = {"n": 0}

    def take_the_slot(server: FakeLlama) -> None:
        if meddled["n"] == 0:  # once: another client's request lands in the judge's slot
            other = [SystemMessage("You answer questions."), HumanMessage("Hello")]
            server.evaluate(_tokens(other), cache=True, slot=0)
        meddled["n"] += 1

    server = FakeLlama(meddle=take_the_slot)
    judge = SupportJudge(server.model, prompt_cache="prefix")
    assert judge(CLAIM, PASSAGE, TITLE) == calm
    assert meddled["n"] == 2  # asked twice
    sent = _sent(server)
    first = next(i for i, (text, _) in enumerate(sent) if "Claim:" in text)
    # asked again after the system message's warm prompt evaluated afresh
    assert (SENTINEL, {"cache_prompt": False, "id_slot": 0}) in sent[first:]


def test_prefix_mode_keeps_the_model_s_own_slot() -> None:
    server = FakeLlama()
    server.model.extra_body = {"cache_prompt": True, "id_slot": 1}
    SupportJudge(server.model, prompt_cache="prefix")(CLAIM, PASSAGE, TITLE)
    assert {r["extra_body"]["id_slot"] for r in server.model.received} == {1}


def test_an_endpoint_that_does_not_report_reuse_is_asked_afresh() -> None:
    server = FakeLlama(report=False)
    p = SupportJudge(server.model, prompt_cache="prefix")(CLAIM, PASSAGE, TITLE)
    assert server.model.received[-1]["extra_body"]["cache_prompt"] is False
    assert server.reused[-1] == 0
    assert p == _p_after(FakeLlama(), "off", None)


def test_a_request_without_a_system_message_is_refused() -> None:
    with pytest.raises(ValueError, match="system message"):
        FixedPrefixModel(FakeLlama().model).invoke([])


def test_the_setting_takes_the_older_true_and_false() -> None:
    from disputatio.settings import Settings

    for given, mode in [(True, "on"), (False, "off"), ("true", "on"), ("prefix", "prefix")]:
        assert (
            Settings(grounding={"judge_prompt_cache": given}).grounding.judge_prompt_cache == mode
        )
    with pytest.raises(ValueError):
        Settings(grounding={"judge_prompt_cache": "sometimes"})


def test_a_warm_prompt_that_reused_part_of_the_prefix_is_evaluated_afresh() -> None:
    """The relevance judge's system message shares its opening words with the claim judge's."""
    calm = _p_after(FakeLlama(), "prefix", None)
    server = FakeLlama()
    judge = SupportJudge(server.model, prompt_cache="prefix")
    judge(*BEFORE[0])  # the claim judge's prefix is measured
    judge.answers("Is there step-free access?", ["The studio has step-free access."])
    assert judge(CLAIM, PASSAGE, TITLE) == calm
    warm = [
        i for i, p in enumerate(server.model.prompts) if str(p[-1].content) in (SENTINEL, PROBE)
    ]
    partial = [i for i in warm if 0 < server.reused[i] < server.reused[1]]
    assert partial, "the premise: a warm prompt reused only the shared opening words"
    assert server.model.received[partial[-1] + 1]["extra_body"]["cache_prompt"] is False


def test_a_prefix_another_client_computed_afresh_is_not_reused() -> None:
    """Its probe reuses as many tokens, but its fingerprint gives it away: rebuilt, not reused."""
    calm = FakeLlama()
    judge = SupportJudge(calm.model, prompt_cache="prefix")
    judge(*BEFORE[1])
    expected = judge(CLAIM, PASSAGE, TITLE)
    server = FakeLlama()
    judge = SupportJudge(server.model, prompt_cache="prefix")
    judge(*BEFORE[1])
    # another client judges a claim on the same section with the cache off, in the same slot
    other = judge_messages("The studio has 3 wheelchair spaces.", PASSAGE, TITLE)
    server.evaluate(_tokens(other), cache=False, slot=0)
    assert judge(CLAIM, PASSAGE, TITLE) == expected
    head = "Section: Access and facilities\n"
    builds = [p for p in server.model.prompts if str(p[-1].content) == head + SENTINEL]
    assert len(builds) == 2  # built again after the probe met the other client's prefix


def test_heads_forgotten_past_the_limit_are_measured_again() -> None:
    calm = _p_after(FakeLlama(), "prefix", BEFORE[1])
    server = FakeLlama()
    judge = SupportJudge(server.model, prompt_cache="prefix")
    judge._model.max_heads = 1  # the limit, made small
    judge(*BEFORE[1])
    judge(*BEFORE[0])  # another head: the first is forgotten
    assert judge(CLAIM, PASSAGE, TITLE) == calm
    head = "Section: Access and facilities\n"
    assert sum(str(p[-1].content) == head + SENTINEL for p in server.model.prompts) == 2


def test_every_claim_prompt_has_the_line_its_head_ends_at() -> None:
    """A claim prompt without ``Passage: `` would reuse the system message's prefix alone."""
    from disputatio.validators.judge import PASSAGE_LINE

    for question in ("", "How many wheelchair spaces?"):
        user = str(judge_messages(CLAIM, PASSAGE, TITLE, question)[1].content)
        assert user.count(PASSAGE_LINE) == 1 and not user.startswith(PASSAGE_LINE)
