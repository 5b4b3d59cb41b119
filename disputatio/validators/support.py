"""Support checkers: does this sentence of a section support this claim?

A checker scores a claim against a candidate evidence window (one sentence, or two adjacent
ones) in [0, 1]; the claim checker (:mod:`disputatio.validators.claims`) calls it supported
when the score reaches the checker's ``threshold``. Two checkers ship:

* :class:`LexicalSupport` (``"lexical"``): hard guards, then word coverage. The guards reject
  what similarity scores miss — the hard negatives of a claim that copies its sentence but
  changes one thing: every number of the claim must be in the window with the same unit; the
  claim and the window must agree on negation; every name of the claim (``Oslo``, ``CTD-40``)
  must be in the window or the section's title and headings. The score is the share of the
  claim's content words (stemmed) found there.
* :class:`HybridSupport` (``"hybrid"``): the same guards, and the mean of the word coverage and
  the cosine similarity of the claim and the window in the embedding model's space, which
  credits paraphrases that share few words.
* :class:`JudgedSupport` (``"judged"``, the default): the hybrid score, then a chat model's
  yes/no verdict, read from log-probabilities (:mod:`disputatio.validators.judge`), on the
  claim's best window when it is in the grey zone below the threshold (it may support it) or
  above it (it may veto it). The judge is asked about one window per claim and never overrules
  a guard.

Thresholds and the choice between them come from the labelled claim/passage pairs in
``disputatio/data/grounding/claims.jsonl`` (``benchmarks/claim_checker.py``; figures in
``docs/grounding.md``).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from typing import NamedTuple, Protocol, Self, runtime_checkable

from disputatio.validators.days import in_month_terms
from disputatio.validators.durations import in_duration_terms
from disputatio.validators.guards import coverage, guard
from disputatio.validators.opposites import denied_words, without_denials
from disputatio.validators.ranges import given_numbers, in_window_terms
from disputatio.validators.tables import question_words
from disputatio.validators.totals import without_total


class SupportScore(NamedTuple):
    """A checker's score for one claim and one window, with the reason when it is 0."""

    score: float
    reason: str = ""


@runtime_checkable
class SupportChecker(Protocol):
    """Scores how well evidence windows support a claim.

    Attributes:
        name: Name shown in reports.
        threshold: Score from which a claim counts as supported.
    """

    name: str
    threshold: float

    def score_many(
        self, claim: str, windows: Sequence[str], context: Sequence[str]
    ) -> list[SupportScore]:
        """Score ``claim`` against each window (``context[i]``: title/headings of window i)."""
        ...


class LexicalSupport:
    """Guards, then the share of the claim's content words in the window.

    Args:
        threshold: Coverage from which a claim is supported (0.80: fitted for F0.5 on the
            calibration pairs, docs/grounding.md).
    """

    name = "lexical"

    def __init__(self, threshold: float = 0.8) -> None:
        self.threshold = threshold
        #: The numbers of the question the claims answer (:meth:`for_question`).
        self.given: frozenset[tuple[str, str | None]] = frozenset()
        #: The question's words that may name a table row (:func:`.tables.question_words`).
        self.topic: frozenset[str] = frozenset()
        #: The words the question negates, which a claim may echo (:func:`.denied_words`).
        self.denied: frozenset[str] = frozenset()

    def for_question(self, question: str) -> Self:
        """This checker for the claims of an answer to ``question``.

        A copy (sharing its caches) that lets a claim restate a number the question states
        where a range of the window holds it (``given`` of :func:`guard`; the asker's age as
        years too: :func:`~disputatio.validators.ranges.given_numbers`), and lets the
        question name a table row the claim takes a figure from (``topic``), and lets a claim
        echo the asker's own negated condition ("who doesn't ring": ``denied``).
        """
        question = question or ""
        given, topic = given_numbers(question), question_words(question)
        denied = denied_words(question)
        if (given, topic, denied) == (self.given, self.topic, self.denied):
            return self
        told = copy.copy(self)
        told.given, told.topic, told.denied = given, topic, denied
        return told

    def in_terms(self, claim: str, window: str) -> str:
        """``claim`` said in ``window``'s terms, for a claim the guards let stand on it.

        The asker's "14 guests" as the window's "over 10 and up to 16", a total as its sum
        (the guards checked it: ap024), "January" as "November to February", "a year" as "12
        months": what is scored and judged is what the window can state.
        """
        asked = in_window_terms(claim, window, self.given) if self.given else claim
        asked = without_total(asked, window, self.given)
        asked = in_month_terms(asked, window)
        return in_duration_terms(asked, window)

    def score_many(
        self, claim: str, windows: Sequence[str], context: Sequence[str]
    ) -> list[SupportScore]:
        """Score ``claim`` against each window (its words in the window's terms)."""
        return [score for score, _ in self._scored(claim, windows, context)]

    def _scored(
        self, claim: str, windows: Sequence[str], context: Sequence[str]
    ) -> list[tuple[SupportScore, str]]:
        """Each window's lexical score, with the claim in its terms (the claim where guarded)."""
        out = []
        for window, ctx in zip(windows, context, strict=True):
            # the asker's own "who doesn't ring", echoed, does not negate the claim
            unasked = without_denials(claim, window, self.denied) if self.denied else claim
            reason = guard(unasked, window, ctx, self.given, self.topic)
            if reason:
                out.append((SupportScore(0.0, reason), claim))
                continue
            said = self.in_terms(claim, window)
            out.append((SupportScore(coverage(said, window, ctx)), said))
        return out


Embed = Callable[[list[str]], list[list[float]]]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0 when either is all zeros)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


class HybridSupport(LexicalSupport):
    """Guards, then the mean of word coverage and embedding cosine.

    Only windows that pass the guards and share some words with the claim are embedded, and
    embeddings are cached by text, so a debate that checks many claims against the same
    sections embeds each sentence once.

    Args:
        embed: Texts → vectors (e.g. ``Embeddings.embed_documents``).
        threshold: Score from which a claim is supported (0.83: fitted for F0.5 on the
            calibration pairs, docs/grounding.md).
        min_coverage: Windows below this coverage are not embedded (scored by coverage alone).
        cache_size: Texts whose vectors are kept.
    """

    name = "hybrid"

    def __init__(
        self,
        embed: Embed,
        threshold: float = 0.83,
        min_coverage: float = 0.25,
        cache_size: int = 4096,
    ) -> None:
        super().__init__(threshold)
        self.embed = embed
        self.min_coverage = min_coverage
        self.cache_size = cache_size
        self._vectors: dict[str, tuple[float, ...]] = {}

    def _prime(self, texts: list[str]) -> None:
        """Embed, in one batch, the texts whose vectors are not cached yet."""
        fresh = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if not fresh:
            return
        if len(self._vectors) + len(fresh) > self.cache_size:
            self._vectors.clear()
        for text, vec in zip(fresh, self.embed(fresh), strict=True):
            self._vectors[text] = tuple(vec)

    def score_many(
        self, claim: str, windows: Sequence[str], context: Sequence[str]
    ) -> list[SupportScore]:
        """Score ``claim`` against each window."""
        scored = self._scored(claim, windows, context)
        lexical = [score for score, _ in scored]
        near = [i for i, s in enumerate(lexical) if not s.reason and s.score >= self.min_coverage]
        if not near:
            return lexical
        self._prime([*(scored[i][1] for i in near), *(windows[i] for i in near)])
        out = list(lexical)
        for i in near:
            cos = max(0.0, cosine(self._vectors[scored[i][1]], self._vectors[windows[i]]))
            out[i] = SupportScore((lexical[i].score + cos) / 2)
        return out


#: ``(claim, window, context) -> P(the window states the claim)``.
Judge = Callable[[str, str, str], float]


class JudgedSupport(HybridSupport):
    """The hybrid score, then a judge's verdict on the claim's best window.

    :meth:`score_many` is the hybrid checker's. The claim checker then hands the best window of
    a claim (over every section it looks at) to :meth:`confirm`, which asks ``judge`` once:

    * a window that passed the guards with a hybrid score in the grey zone ``[grey,
      threshold)`` is supported when P(yes) >= ``judge_threshold``;
    * a window the hybrid score supports is vetoed when P(yes) < ``veto`` (``None``: never
      asked), unless its score reaches ``trust`` (a near-verbatim copy: not asked).

    A window a guard rejected is never judged: the judge never overrules a guard. Defaults are
    chosen on the calibration pairs (F0.5), measured on the test pairs (docs/grounding.md).

    Args:
        embed: Texts → vectors.
        judge: The judge (:class:`disputatio.validators.judge.SupportJudge`).
        threshold: Hybrid score from which a window supports a claim before the judge.
        grey: Lowest hybrid score that is judged.
        judge_threshold: P(yes) from which a grey window is supported.
        veto: P(yes) below which a supported window is not (None: supported windows are not
            judged).
        trust: Hybrid score from which a supported window is not judged (None: every
            supported window is, when ``veto`` is set). 0.97: on the calibration pairs it
            ties F0.5 with 28% fewer judge calls (docs/grounding.md).
        judge_question: Tell the judge the question a claim answers, where the claim checker
            knows it (:meth:`for_question`; ``grounding.judge_question``).
    """

    name = "judged"

    def __init__(
        self,
        embed: Embed,
        judge: Judge,
        threshold: float = 0.83,
        grey: float = 0.5,
        judge_threshold: float = 0.5,
        veto: float | None = 0.5,
        trust: float | None = 0.97,
        judge_question: bool = False,
    ) -> None:
        super().__init__(embed, threshold)
        self.judge = judge
        self.grey = grey
        self.judge_threshold = judge_threshold
        self.veto = veto
        self.trust = trust
        self.judge_question = judge_question
        self.question = ""  # the question of the claims being checked (for_question)

    def for_question(self, question: str) -> Self:
        """This checker for the claims of an answer to ``question``.

        The lexical checker's copy (the question's numbers); with ``judge_question`` set,
        its judge is told the question too.
        """
        told = super().for_question(question)
        if not self.judge_question or not question:
            return told
        told = copy.copy(told) if told is self else told
        told.question = question
        return told

    def confirm(self, claim: str, window: str, context: str, score: SupportScore) -> SupportScore:
        """The final score of ``claim``'s best ``window``, after the judge where it is asked."""
        rule = (self.threshold, self.grey, self.judge_threshold, self.veto)
        asks = decide(score.score, None, *rule, trust=self.trust)
        if score.reason or asks is not None:
            return score
        asked = self.in_terms(claim, window)
        p = (
            self.judge(asked, window, context, self.question)  # type: ignore[call-arg]
            if self.question
            else self.judge(asked, window, context)
        )
        supported = decide(score.score, p, *rule, trust=self.trust)
        if supported:
            lift = (p - self.judge_threshold) / max(1.0 - self.judge_threshold, 1e-9)
            return SupportScore(max(score.score, self.threshold + (1.0 - self.threshold) * lift))
        if score.score >= self.threshold:
            return SupportScore(
                score.score * p, f"the judge finds the sentence does not state it (P={p:.2f})"
            )
        return score

    def carries(self, claim: str, sentences: Sequence[str]) -> float:
        """P(``sentences``, read together as one passage, state ``claim``): the judge's.

        A yes/no verdict's statement no one sentence states may be the conclusion of the
        supported claims after it (:mod:`disputatio.validators.yesno`).
        """
        passage = " ".join(dict.fromkeys(" ".join(s.split()) for s in sentences if s.strip()))
        if self.question:
            return float(self.judge(claim, passage, "", self.question))  # type: ignore[call-arg]
        return float(self.judge(claim, passage, ""))


def decide(
    score: float,
    p: float | None,
    threshold: float,
    grey: float,
    judge_threshold: float,
    veto: float | None,
    *,
    trust: float | None = None,
) -> bool | None:
    """The judged checker's rule: is a window of hybrid ``score`` and judge's ``p`` supporting?

    Returns:
        True or False; None when the rule needs the judge and ``p`` is None (ask it).
    """
    if score >= threshold:
        if veto is None or (trust is not None and score >= trust):
            return True
        return None if p is None else p >= veto
    if score < grey:
        return False
    return None if p is None else p >= judge_threshold


def default_checker(
    embed: Embed | None = None,
    kind: str = "lexical",
    judge: Judge | None = None,
    judge_question: bool = False,
) -> SupportChecker:
    """The checker named ``kind``.

    Args:
        embed: Texts → vectors (``"hybrid"`` and ``"judged"``).
        kind: ``"lexical"``, ``"hybrid"`` or ``"judged"``.
        judge: The judge of ``"judged"``.
        judge_question: ``"judged"``: tell the judge the question a claim answers.

    Raises:
        ValueError: ``kind`` is unknown, or what it needs is missing.
    """
    if kind == "judged":
        if embed is None or judge is None:
            raise ValueError("the judged support checker needs an embedding function and a judge")
        return JudgedSupport(embed, judge, judge_question=judge_question)
    if kind == "hybrid":
        if embed is None:
            raise ValueError("the hybrid support checker needs an embedding function")
        return HybridSupport(embed)
    if kind == "lexical":
        return LexicalSupport()
    raise ValueError(f"unknown support checker {kind!r} (known: lexical, hybrid, judged)")
