"""Claims of a final answer and the verdict on each: the shape every surface shows.

An answer is a list of claims (its sentences). Each claim carries the section ids it cites and
a verdict from the claim checker (:mod:`disputatio.validators.claims`):

* ``supported`` — a sentence of a cited section supports it; ``evidence`` holds that
  sentence with its character span in the section's text;
* ``unsupported`` — it cites sections, but no sentence of them supports it;
* ``uncited`` — it cites nothing and no shown sentence supports it;
* ``not_found`` — it says the documents do not answer (a refusal), or it stands for a part of
  the question that no shown sentence answers.

Claims that state nothing checkable (a verdict line such as "Answer: B", a heading) are kept
with ``factual`` false and are not judged.

This module imports nothing else from disputatio.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from pydantic import BaseModel, Field

Verdict: TypeAlias = Literal["supported", "unsupported", "uncited", "not_found"]

#: Every verdict, in the order surfaces list them.
VERDICTS: tuple[Verdict, ...] = ("supported", "unsupported", "uncited", "not_found")


class Evidence(BaseModel):
    """The sentence behind a supported claim.

    Attributes:
        section_id: The section the sentence is in.
        start: Offset of the sentence's first character in the section's text.
        end: Offset just past its last character (``text[start:end]`` is the sentence).
        sentence: The sentence itself.
        score: The checker's support score in [0, 1].
    """

    section_id: str
    start: int
    end: int
    sentence: str
    score: float


class Claim(BaseModel):
    """One sentence of an answer with its citations and verdict.

    Attributes:
        text: The claim as shown (citations removed).
        citations: Section ids it cites after checking (an attributed or repaired claim cites
            the section of its evidence).
        verdict: See the module docstring; None for a claim that is not factual.
        factual: Whether the claim states something checkable (False for verdict lines,
            headings, refusals).
        evidence: The supporting sentence when ``verdict`` is ``supported``.
        more_evidence: Sentences of other cited sections, when the claim rests on several
            sections together.
        attributed: The writer cited nothing (or the wrong section) and the checker attached
            the section of the best supporting sentence.
        dropped: Left out of the final answer (unsupported or uncited).
        reason: Why the verdict is what it is, for people.
        part: The part of the question the claim answers (a sub-question's node id in a
            debate), when known.
    """

    text: str
    citations: list[str] = Field(default_factory=list)
    verdict: Verdict | None = "uncited"
    factual: bool = True
    evidence: Evidence | None = None
    more_evidence: list[Evidence] = Field(default_factory=list)
    attributed: bool = False
    dropped: bool = False
    reason: str = ""
    part: str | None = None

    @property
    def all_evidence(self) -> list[Evidence]:
        """``evidence`` and ``more_evidence``: every sentence the claim rests on."""
        return [e for e in (self.evidence, *self.more_evidence) if e is not None]


class ClaimReport(BaseModel):
    """The checked answer.

    Attributes:
        answer: The answer as shown to users: supported claims with their ``[id]`` citations,
            or a statement that the documents do not answer.
        claims: Every claim, in the order written (dropped ones included, marked).
        grounded: True when every factual claim kept in ``answer`` is supported.
        not_found: True when no factual claim is supported: the documents do not answer.
        fabricated_labels: Bracketed labels that were no shown section (removed, counted).
        checker: Name of the support checker that judged the claims.
        counts: Claims per verdict.
    """

    answer: str
    claims: list[Claim] = Field(default_factory=list)
    grounded: bool = False
    not_found: bool = False
    fabricated_labels: list[str] = Field(default_factory=list)
    checker: str = ""
    counts: dict[str, int] = Field(default_factory=dict)
