"""The judged claim checker: the chat model decides only claims the hybrid score leaves in doubt."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest
from fake_judges import RecordingJudge
from langchain_core.messages import AIMessage

from disputatio.state.claims import Claim
from disputatio.testing import FakeEmbeddings, ScriptedChatModel
from disputatio.validators.claims import check_answer
from disputatio.validators.judge import SupportJudge, judge_messages
from disputatio.validators.support import (
    HybridSupport,
    JudgedSupport,
    SupportScore,
    decide,
    default_checker,
)

EMBED = FakeEmbeddings().embed_documents
#: A paraphrase of its sentence that the hybrid score leaves in the grey zone.
CLAIM = "Passwords need at least 14 characters."
SENTENCE = "Passwords must be at least 14 characters long."


def lp_reply(dist: dict[str, float]) -> AIMessage:
    """A reply as an OpenAI-compatible endpoint returns it with ``logprobs=True``."""
    top = [{"token": t, "logprob": math.log(p)} for t, p in dist.items()]
    first = next(iter(dist))
    content = [{"token": first, "logprob": math.log(dist[first]), "top_logprobs": top}]
    return AIMessage(content=first, response_metadata={"logprobs": {"content": content}})


SECTIONS = {
    "pw": {"text": f"{SENTENCE} They are changed every year.", "title": "Passwords"},
    "vpn": {"text": "The VPN client must be updated monthly.", "title": "Remote access"},
}


def _check(claim: str, judge: RecordingJudge, **kw: float | None) -> Claim:
    checker = JudgedSupport(EMBED, judge, **kw)  # type: ignore[arg-type]
    return check_answer(f"{claim} [pw]", SECTIONS, checker=checker).claims[0]


def test_grey_claim_is_supported_when_the_judge_says_yes() -> None:
    hybrid = HybridSupport(EMBED).score_many(CLAIM, [SENTENCE], ["Passwords"])[0].score
    assert 0.5 <= hybrid < 0.83  # the premise: a grey-zone claim
    judge = RecordingJudge(0.9)
    claim = _check(CLAIM, judge)
    assert claim.verdict == "supported" and claim.evidence is not None
    assert claim.evidence.sentence == SENTENCE
    assert judge.asked == [(CLAIM, SENTENCE, judge.asked[0][2])]
    assert "Passwords" in judge.asked[0][2]  # the section's title comes with the sentence


def test_grey_claim_stays_unsupported_when_the_judge_says_no() -> None:
    assert _check(CLAIM, RecordingJudge(0.2)).verdict == "unsupported"


def test_supported_claim_is_vetoed_when_the_judge_says_no() -> None:
    judge = RecordingJudge(0.1)
    claim = _check(SENTENCE, judge, trust=None)  # the verbatim copy is judged too
    assert claim.verdict == "unsupported" and "judge" in claim.reason
    assert len(judge.asked) == 1
    unvetoed = RecordingJudge(0.1)
    assert _check(SENTENCE, unvetoed, veto=None).verdict == "supported"
    assert unvetoed.asked == []


def test_a_guard_is_never_overruled_by_the_judge() -> None:
    judge = RecordingJudge(1.0)
    claim = _check("Passwords need at least 12 characters.", judge)
    assert claim.verdict == "unsupported"
    assert judge.asked == []


def test_the_judge_is_asked_once_per_claim_over_all_sections() -> None:
    judge = RecordingJudge(0.9)
    checker = JudgedSupport(EMBED, judge)
    check_answer(f"{CLAIM} [pw] [vpn]", SECTIONS, checker=checker)
    assert [w for _, w, _ in judge.asked] == [SENTENCE]


def test_decide_asks_only_where_the_rule_needs_the_judge() -> None:
    assert decide(0.9, None, 0.83, 0.5, 0.5, None) is True
    assert decide(0.9, None, 0.83, 0.5, 0.5, 0.5) is None
    assert decide(0.9, 0.4, 0.83, 0.5, 0.5, 0.5) is False
    assert decide(0.6, None, 0.83, 0.5, 0.5, 0.5) is None
    assert decide(0.6, 0.7, 0.83, 0.5, 0.5, 0.5) is True
    assert decide(0.4, None, 0.83, 0.5, 0.5, 0.5) is False
    # a near-verbatim copy (score >= trust) is not judged; below it the veto still asks
    assert decide(0.99, None, 0.83, 0.5, 0.5, 0.5, trust=0.97) is True
    assert decide(0.9, None, 0.83, 0.5, 0.5, 0.5, trust=0.97) is None


def test_a_trusted_copy_is_not_judged_and_the_rest_still_is() -> None:
    """With ``trust``, a claim copying its sentence costs no judge call; a paraphrase does."""
    judge = RecordingJudge(0.1)
    trusting = JudgedSupport(EMBED, judge)  # trust 0.97 by default
    copied = check_answer(f"{SENTENCE} [pw]", SECTIONS, checker=trusting).claims[0]
    assert copied.verdict == "supported" and judge.asked == []
    untrusting = JudgedSupport(EMBED, judge, trust=None)
    vetoed = check_answer(f"{SENTENCE} [pw]", SECTIONS, checker=untrusting).claims[0]
    assert vetoed.verdict != "supported" and len(judge.asked) == 1


def test_judge_reads_p_yes_from_log_probabilities() -> None:
    model = ScriptedChatModel(script=[lp_reply({"yes": 0.8, "no": 0.2})])
    judge = SupportJudge(model)
    assert judge(CLAIM, SENTENCE, "IT security policy") == pytest.approx(0.8)
    sent = model.prompts[0][-1].content
    assert SENTENCE in sent and CLAIM in sent and "IT security policy" in sent
    assert model.received[0]["temperature"] == 0.0


def test_judge_asks_once_per_claim_and_passage() -> None:
    model = ScriptedChatModel(script=[lp_reply({"no": 0.7, "yes": 0.3})])
    judge = SupportJudge(model)
    assert judge(CLAIM, SENTENCE) == pytest.approx(0.3)
    assert judge(CLAIM, SENTENCE) == pytest.approx(0.3)
    assert model.calls == 1


def test_judge_without_log_probabilities_reads_the_first_word() -> None:
    model = ScriptedChatModel(script=["Yes.", "No, it does not.", "yes"])
    judge = SupportJudge(model)
    assert judge(CLAIM, SENTENCE) == 1.0
    assert judge("another claim", SENTENCE) == 0.0
    assert judge("a third claim", SENTENCE) == 1.0


def test_prompt_names_the_section_only_when_there_is_one() -> None:
    assert "Section:" not in str(judge_messages(CLAIM, SENTENCE)[-1].content)
    assert "Section: Passwords" in str(judge_messages(CLAIM, SENTENCE, "Passwords")[-1].content)


def test_default_checker_builds_the_judged_checker() -> None:
    checker = default_checker(EMBED, "judged", RecordingJudge(1.0))
    assert checker.name == "judged"
    with pytest.raises(ValueError, match="judge"):
        default_checker(EMBED, "judged")


def test_the_judge_never_lifts_sentences_of_two_sections_joined() -> None:
    asked: list[str] = []

    def joins_only(claim: str, window: str, context: str) -> float:
        asked.append(window)
        return 1.0 if window.count(".") >= 2 else 0.0  # yes to a join, no to one sentence

    checker = JudgedSupport(EMBED, joins_only)
    sections = {
        "a": {"text": "Passwords are changed every year."},
        "b": {"text": "The VPN client must be updated monthly."},
    }
    claim = "Passwords are changed yearly and VPN clients updated each month."
    judged = check_answer(f"{claim} [a] [b]", sections, checker=checker).claims[0]
    assert judged.verdict == "unsupported"
    assert all(w.count(".") < 2 for w in asked)  # the join was never put to it


class TiedChecker:
    """Hybrid-like scores set per window; the judge says yes to ``yes`` only."""

    name = "judged"
    threshold = 0.83
    grey = 0.5

    def __init__(self, scores: dict[str, float], yes: str) -> None:
        self.scores, self.yes = scores, yes
        self.asked: list[str] = []

    def score_many(
        self, claim: str, windows: Sequence[str], context: Sequence[str]
    ) -> list[SupportScore]:
        return [SupportScore(self.scores.get(w, 0.0)) for w in windows]

    def confirm(self, claim: str, window: str, context: str, score: SupportScore) -> SupportScore:
        self.asked.append(window)
        return SupportScore(0.9 if window == self.yes else score.score)


REPORT = {"inc": {"text": "Vessel: M/V Sjøstjerne\nAll shackles were inspected.", "title": "x"}}


def test_a_near_tie_is_judged_when_the_best_window_is_refused() -> None:
    checker = TiedChecker(
        {"All shackles were inspected.": 0.62, "Vessel: M/V Sjøstjerne": 0.616},
        yes="Vessel: M/V Sjøstjerne",
    )
    claim = check_answer("The incident happened on M/V Sjøstjerne.", REPORT, checker=checker)
    first = claim.claims[0]
    assert first.verdict == "supported" and first.evidence is not None
    assert first.evidence.sentence == "Vessel: M/V Sjøstjerne"
    assert checker.asked == ["All shackles were inspected.", "Vessel: M/V Sjøstjerne"]


def test_no_second_judge_call_beyond_the_margin_or_when_the_first_is_supported() -> None:
    far = TiedChecker(
        {"All shackles were inspected.": 0.70, "Vessel: M/V Sjøstjerne": 0.60},
        yes="Vessel: M/V Sjøstjerne",
    )
    report = check_answer("The incident happened on M/V Sjøstjerne.", REPORT, checker=far)
    assert report.claims[0].verdict != "supported" and len(far.asked) == 1
    first_yes = TiedChecker(
        {"All shackles were inspected.": 0.62, "Vessel: M/V Sjøstjerne": 0.616},
        yes="All shackles were inspected.",
    )
    check_answer("The shackles were inspected.", REPORT, checker=first_yes)
    assert first_yes.asked == ["All shackles were inspected."]


class QuestionJudge(RecordingJudge):
    """A judge that also records the question it was told (``""``: none)."""

    def __init__(self, p: float) -> None:
        super().__init__(p)
        self.questions: list[str] = []

    def __call__(self, claim: str, window: str, context: str, question: str = "") -> float:  # type: ignore[override]
        self.questions.append(question)
        return super().__call__(claim, window, context)


def test_the_judge_is_told_the_question_only_when_set() -> None:
    question = "How long must passwords be?"
    told, untold = QuestionJudge(0.9), QuestionJudge(0.9)
    for judge, flag in ((told, True), (untold, False)):
        checker = JudgedSupport(EMBED, judge, judge_question=flag)
        check_answer(f"{CLAIM} [pw]", SECTIONS, checker=checker, question=question)
    assert told.questions and set(told.questions) == {question}
    assert untold.questions and set(untold.questions) == {""}


def test_the_prompt_carries_the_question_when_told() -> None:
    with_q = judge_messages(CLAIM, SENTENCE, "Passwords", "How long must passwords be?")
    assert "Question: How long must passwords be?" in str(with_q[1].content)
    assert "Question:" not in str(judge_messages(CLAIM, SENTENCE, "Passwords")[1].content)


def test_the_setting_builds_a_checker_that_tells_its_judge() -> None:
    judge = QuestionJudge(0.9)
    told = default_checker(EMBED, "judged", judge, judge_question=True)
    untold = default_checker(EMBED, "judged", judge)
    assert told.for_question("Why?").question == "Why?"  # type: ignore[attr-defined]
    assert untold.for_question("Why?") is untold  # type: ignore[attr-defined]
    assert told.for_question("Why?") is not told  # a copy: the shared checker keeps no question
    assert told.question == ""  # type: ignore[attr-defined]


FERRY = {
    "acc": {
        "text": "Every bus has one wheelchair space. MF Ormøy has four wheelchair spaces.",
        "title": "Accessibility",
    }
}


def test_a_refused_pair_of_sentences_has_its_sentence_judged_alone() -> None:
    """p012: the judge refuses a pair a distracting sentence opens, and accepts its sentence."""
    pair = "Every bus has one wheelchair space. MF Ormøy has four wheelchair spaces."
    alone = "MF Ormøy has four wheelchair spaces."
    checker = TiedChecker(
        {pair: 0.66, alone: 0.60, "Every bus has one wheelchair space.": 0.3}, alone
    )
    report = check_answer("The ferry MF Ormøy has four wheelchair spaces.", FERRY, checker=checker)
    first = report.claims[0]
    assert first.verdict == "supported" and first.evidence is not None
    assert first.evidence.sentence == alone
    assert checker.asked == [pair, alone]
    # a sentence below the grey floor gets no second judge call
    low = TiedChecker({pair: 0.66, alone: 0.4}, alone)
    check_answer("The ferry MF Ormøy has four wheelchair spaces.", FERRY, checker=low)
    assert low.asked == [pair]


def test_judge_asks_a_llama_cpp_endpoint_to_evaluate_each_prompt_afresh() -> None:
    """A cached prompt prefix moves P(yes) a little: the judge's requests turn the cache off."""
    model = ScriptedChatModel(
        script=[lp_reply({"yes": 0.6, "no": 0.4})], extra_body={"cache_prompt": True, "id_slot": 1}
    )
    SupportJudge(model)(CLAIM, SENTENCE)
    assert model.received[0]["extra_body"] == {"cache_prompt": False, "id_slot": 1}
    cached = ScriptedChatModel(
        script=[lp_reply({"yes": 0.6, "no": 0.4})], extra_body={"cache_prompt": True}
    )
    SupportJudge(cached, prompt_cache=True)(CLAIM, SENTENCE)
    assert cached.received[0]["extra_body"] == {"cache_prompt": True}


def test_judge_leaves_an_endpoint_without_a_prompt_cache_as_it_is() -> None:
    """A hosted endpoint (no ``cache_prompt`` in its body) gets no llama.cpp field it rejects."""
    model = ScriptedChatModel(script=[lp_reply({"yes": 0.6, "no": 0.4})])
    SupportJudge(model)(CLAIM, SENTENCE)
    assert not (model.received[0]["extra_body"] or {}).get("cache_prompt")
    assert "cache_prompt" not in (model.received[0]["extra_body"] or {})


def test_the_grounding_setting_lets_the_runs_judge_reuse_its_cache() -> None:
    """``grounding.judge_prompt_cache`` reaches the judge the run context builds."""
    from types import SimpleNamespace

    from disputatio.nodes.rag.context import RagContext
    from disputatio.settings import Settings

    for cache in (False, True):
        model = ScriptedChatModel(
            script=[lp_reply({"yes": 0.6, "no": 0.4})], extra_body={"cache_prompt": True}
        )
        settings = Settings(grounding={"checker": "judged", "judge_prompt_cache": cache})
        retriever = SimpleNamespace(embeddings=SimpleNamespace(embed_documents=EMBED))
        ctx = RagContext(models={"claim_judge": model}, settings=settings, retriever=retriever)
        judge = ctx.support_checker().judge
        judge(CLAIM, SENTENCE)
        assert model.received[0]["extra_body"] == {"cache_prompt": cache}
