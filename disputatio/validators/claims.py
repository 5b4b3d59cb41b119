"""The claim checker: split an answer into claims, judge each against the sentence it cites.

:func:`check_answer` turns an answer and the sections its writer was shown into a
:class:`~disputatio.state.claims.ClaimReport`:

1. The answer is split into sentences (claims). Bracketed citations are read off each; an id
   that was not shown, or a bracketed label that is no id at all (``[CTD-41 Pressure
   Housing]``), is removed and counted as fabricated.
2. A sentence saying the documents do not answer is a ``not_found`` claim; a verdict line
   (``Answer: B``), a heading or a sentence with fewer than two content words states nothing
   to check (``factual`` false, no verdict).
3. Each factual claim is scored against every sentence (and pair of adjacent sentences) of
   the sections it cites by a :class:`~disputatio.validators.support.SupportChecker`. At the
   checker's threshold it is ``supported``, with the best sentence as its evidence span.
4. A claim its cited sections do not support, or that cites nothing, is attributed once to the
   best supporting sentence of any shown section (``attributed``: the system, not the writer,
   found the source — said so in ``reason``). Failing that it is ``unsupported`` or
   ``uncited`` and dropped from the answer (kept, flagged, with ``keep_unsupported``).
5. When no factual claim survives, the answer says that the documents do not answer.

:class:`~disputatio.validators.support_validator.SupportValidator` (``"support"``) runs it as a
validator.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from disputatio.state.claims import VERDICTS, Claim, ClaimReport, Evidence
from disputatio.validators.asides import referred_else
from disputatio.validators.base import ValidationContext, ValidationResult
from disputatio.validators.citations import LEAD_CITATIONS_RE, group_ids
from disputatio.validators.claim_kinds import (
    ANSWER_LABEL_RE,
    YESNO_VERDICT_RE,
    refuses,
    reported,
    short_answer,
    split_compound,
    without_label,
    without_pointers,
    without_shown_lead,
)
from disputatio.validators.contacts import EMAIL_RE
from disputatio.validators.echoes import unquote_question
from disputatio.validators.relevance import drop_off_question
from disputatio.validators.repeats import without_repeats
from disputatio.validators.sentences import (
    Span,
    split_sentences,
    stated_numbers,
)
from disputatio.validators.siblings import paragraph
from disputatio.validators.subjects import named_subjects
from disputatio.validators.support import LexicalSupport, SupportChecker, cosine
from disputatio.validators.verdicts import judge_piece
from disputatio.validators.windows import Windows
from disputatio.validators.yesno import drop_uncarried

#: The answer when no shown sentence supports any claim.
NOT_FOUND_ANSWER = "The documents do not answer this question."

_GROUP_RE = re.compile(r"\s*\[([^\[\]\n]{1,120})\](?!\()")
_SPACE_RE = re.compile(r"[ \t]{2,}")
_TAG_RE = re.compile(r"</?(?:section|sections|documents?|question|options|sub_answers?)\b[^>]*>")
_SPACE_PUNCT_RE = re.compile(r"[ \t]+([.,;:!?)])")


def _sentence_label(cid: str) -> str:
    """``S2.3`` (sentence 3 of section S2) → ``S2``; other ids unchanged."""
    match = re.fullmatch(r"([A-Za-z]+\d+)\.\d+", cid)
    return match.group(1) if match else cid


#: An address a writer may put in brackets: an email address or a web address (ac015, held-out
#: set 28); what it says is part of the claim, not a citation label.
_ADDRESS_RE = re.compile(rf"{EMAIL_RE.pattern}|(?:https?://|www\.)[^\s\]]+", re.I)


def _read_citations(
    sentence: str, shown: Mapping[str, Any], aliases: Mapping[str, str]
) -> tuple[str, list[str], list[str]]:
    """``(text without brackets, ids cited that were shown, fabricated labels)``."""
    cited: list[str] = []
    fabricated: list[str] = []

    def take(match: re.Match[str]) -> str:
        raw = match.group(1)
        ids = group_ids(raw)
        if ids is None:
            address = _ADDRESS_RE.search(raw)
            if address:  # "[email: hello@freewheel-coop.example]" states, it cites nothing
                return f" {address.group(0)}"
            if len(raw.split()) <= 8 and not refuses(raw):
                fabricated.append(raw.strip())
                return ""
            return match.group(0)
        for cid in ids:
            real = aliases.get(_sentence_label(cid), aliases.get(cid, cid))
            if real in shown:
                if real not in cited:
                    cited.append(real)
            elif cid not in fabricated:
                fabricated.append(cid)
        return ""

    text = _GROUP_RE.sub(take, sentence)
    if text != sentence:
        text = without_pointers(text)
    label = ANSWER_LABEL_RE.match(text)  # "Support: From the table in section, X"
    head = text[: label.end()] if label else ""
    text = head + without_shown_lead(text[len(head) :])
    text = _SPACE_PUNCT_RE.sub(r"\1", _SPACE_RE.sub(" ", text)).strip()
    return text, cited, fabricated


def _answer_sentences(answer: str) -> list[Span]:
    """The answer's sentences; a citation written after the full stop joins its sentence."""
    spans = split_sentences(answer)
    merged: list[Span] = []
    for span in spans:
        lead = LEAD_CITATIONS_RE.match(span.sentence)
        if lead and merged and answer[merged[-1].end : span.start].strip() == "":
            prev = merged[-1]
            merged[-1] = Span(
                prev.start, span.start + lead.end(), answer[prev.start : span.start + lead.end()]
            )
            rest = span.sentence[lead.end() :]
            if rest.strip():
                offset = span.start + lead.end() + (len(rest) - len(rest.lstrip()))
                merged.append(Span(offset, span.end, rest.strip()))
            continue
        merged.append(span)
    return merged


def check_answer(
    answer: str,
    sections: Mapping[str, Mapping[str, Any]],
    *,
    checker: SupportChecker | None = None,
    aliases: Mapping[str, str] | None = None,
    attribute: bool = True,
    keep_unsupported: bool = False,
    part: str | None = None,
    not_found_answer: str = NOT_FOUND_ANSWER,
    question: str | None = None,
    question_words: bool = False,
    quote_refused: bool = False,
) -> ClaimReport:
    """Judge every claim of ``answer`` against the sections its writer was shown.

    Args:
        answer: The answer, citing sections as ``[id]`` (or by alias, ``[S2]``/``[S2.3]``).
        sections: The shown sections, id → ``{text, title?, heading_path?, source?}``; only
            these may be cited or attributed.
        checker: The support checker (default :class:`LexicalSupport`).
        aliases: Label → section id for labels shown instead of ids (``S2`` → the id).
        attribute: Attach uncited or mis-cited claims to their best supporting shown sentence.
        keep_unsupported: Keep unsupported and uncited claims in the answer (flagged), instead
            of dropping them.
        part: The part of the question this answer is for (stored on each claim).
        not_found_answer: The answer when nothing is supported.
        question: The question answered: supported claims answering a neighbouring question
            instead are dropped (:func:`~disputatio.validators.relevance.drop_off_question`);
            a judged checker set to (``judge_question``) tells its judge.
        question_words: Also drop claims whose evidence replaces a word of the question
            (off by default: on three held-out sets it refused more answers than near misses).
        quote_refused: Show a claim's vetoed sentence instead (:func:`.verdicts.quoted`).

    Returns:
        The report; ``report.answer`` is the answer to show.
    """
    checker = checker or LexicalSupport()
    if question and hasattr(checker, "for_question"):  # a judge told the question, if set
        checker = checker.for_question(question)
    windows = Windows(sections)
    claims: list[Claim] = []
    fabricated: list[str] = []
    pieces: list[tuple[str, Claim]] = []
    last = 0
    before = ""  # the last piece that named something: what a later piece may lean on
    judge = functools.partial(
        judge_piece,
        windows=windows,
        checker=checker,
        attribute=attribute,
        shown=list(sections),
        keep_unsupported=keep_unsupported,
        part=part,
        quote_refused=quote_refused,
    )
    answer = _TAG_RE.sub("", answer or "")  # "</section>" copied from a prompt is no prose
    answer = unquote_question(answer, question or "")  # 'the question "…?" is no' (ah013)
    for span in _answer_sentences(answer):
        gap = answer[last : span.start]
        last = span.end
        text, cited, fake = _read_citations(span.sentence, sections, aliases or {})
        fabricated.extend(f for f in fake if f not in fabricated)
        for i, piece in enumerate(split_compound(reported(text))):
            judged = judge(piece, cited, before=before, continues=i > 0)
            before = piece if named_subjects(piece) else before
            for j, claim in enumerate(judged):
                claims.append(claim)
                pieces.append(("\n" if "\n" in gap and not i and not j else " ", claim))
    if question:
        _drop_off_question(question, claims, windows, checker, keep_unsupported, question_words)
    claims, pieces = without_repeats(claims, pieces)
    return _report(claims, pieces, fabricated, checker, not_found_answer, keep_unsupported)


def _drop_off_question(
    question: str,
    claims: list[Claim],
    windows: Windows,
    checker: SupportChecker,
    keep: bool,
    words: bool,
) -> None:
    """Drop the supported claims that do not answer ``question`` (:func:`drop_off_question`).

    First those whose sentences' pronouns stand for something else (:func:`referred_else`).
    """
    facts = [c for c in claims if c.factual and c.verdict == "supported" and not c.dropped]

    def heads(e: Evidence) -> str:
        return f"{windows.titles.get(e.section_id, '')} {windows.heading_at(e.section_id, e.start)}"

    referred_else(question, facts, keep, windows.referent, heads)
    drop_off_question(
        question,
        claims,
        windows.titles,
        keep=keep,
        similar=_similar(checker),
        words=words,
        read=windows.reading,
        around=windows.around,
        under=windows.under,
        block=lambda e: paragraph(windows.texts.get(e.section_id, ""), e.start, e.end),
        section=lambda e: windows.texts.get(e.section_id, ""),
    )


def _similar(checker: SupportChecker) -> Callable[[str, str], float] | None:
    """Word similarity in the checker's embedding space, when it has one (synonyms)."""
    embed = getattr(checker, "embed", None)
    if embed is None:
        return None
    return lambda a, b: cosine(*embed([a, b]))


def render_claim(claim: Claim) -> str:
    """The claim with its citations before the closing punctuation: ``text [id1, id2].``."""
    if not claim.citations:
        return claim.text
    body = claim.text.rstrip()
    end = len(body.rstrip(".!?:;"))
    return f"{body[:end]} [{', '.join(claim.citations)}]{body[end:]}"


def _report(
    claims: list[Claim],
    pieces: list[tuple[str, Claim]],
    fabricated: list[str],
    checker: SupportChecker,
    not_found_answer: str,
    keep_unsupported: bool = False,
) -> ClaimReport:
    _drop_bare_lead_ins([c for _, c in pieces])
    kept = [(sep, c) for sep, c in pieces if not c.dropped]
    facts = [c for _, c in kept if c.factual and c.verdict != "not_found"]
    refusals = [c for _, c in kept if c.verdict == "not_found"]
    # a yes/no verdict stands only on supported claims, and so does a short answer where
    # unsupported claims are dropped (kept, flagged, the answer keeps its short answer too)
    if not facts:
        for _, c in kept:
            # "Yes, …" and a labelled "Verdict: No, you cannot …" alike (set 19, c003, run 30)
            if not c.factual and YESNO_VERDICT_RE.match(without_label(c.text)):
                c.dropped, c.reason = True, "a yes/no verdict no supported claim carries"
            elif not c.factual and not keep_unsupported and short_answer(c.text):
                c.dropped, c.reason = True, "a short answer no supported claim carries"
        kept = [(sep, c) for sep, c in kept if not c.dropped]
    else:
        drop_uncarried([c for _, c in kept], facts, checker)
        if not keep_unsupported:
            _drop_unstated_short_answers([c for _, c in kept], facts)
        kept = [(sep, c) for sep, c in kept if not c.dropped]
    if not facts and not refusals:
        # nothing supported: say so, after any verdict line or heading that was kept
        gone = Claim(
            text=not_found_answer,
            verdict="not_found",
            reason="no shown sentence supports any claim",
            part=claims[0].part if claims else None,
        )
        claims.append(gone)
        kept.append(("\n" if kept else "", gone))
        refusals = [gone]
    text = "".join((sep if i else "") + render_claim(c) for i, (sep, c) in enumerate(kept))
    counts: dict[str, int] = {
        v: sum(1 for c in claims if c.factual and c.verdict == v) for v in VERDICTS
    }
    return ClaimReport(
        answer=text.strip(),
        claims=claims,
        grounded=all(c.verdict in ("supported", "not_found") for c in facts + refusals),
        not_found=not facts,
        fabricated_labels=fabricated,
        checker=checker.name,
        counts=counts,
    )


def _drop_bare_lead_ins(claims: Sequence[Claim]) -> None:
    """Set aside a sentence ending in a colon when every line after it was set aside.

    "To hire the petrol strimmer for 2 days, you will pay [id]:" stood alone above three
    dropped lines of a worked sum (ae030, held-out set 30): supported on its row, it answered
    nothing and read as a sentence cut short.
    """
    for i, claim in enumerate(claims):
        if claim.dropped or not claim.text.rstrip().endswith(":"):
            continue
        after = []
        for later in claims[i + 1 :]:
            if later.text.rstrip().endswith(":"):
                break
            after.append(later)
        if after and all(c.dropped for c in after):
            claim.dropped = True
            claim.reason = "a lead-in whose lines were all set aside"


def _drop_unstated_short_answers(kept: list[Claim], facts: list[Claim]) -> None:
    """Set aside a short answer stating a number that no kept claim or its sentence states.

    "Verdict: 20 GBP" above the one supported claim "If two members of the same household
    each buy a package …, each of them receives one free 60-minute lesson" (set 18's f016, the
    hierarchical debate, 2026-12-04: the bank-holiday charge the documents do not give) stood
    on a claim that does not carry it.
    """
    carried = {
        value
        for c in facts
        for text in (c.text, *(e.sentence for e in c.all_evidence))
        for value, _unit in stated_numbers(text)
    }
    for claim in kept:
        if claim.factual or not short_answer(claim.text):
            continue
        missing = [v for v, _unit in stated_numbers(claim.text) if v not in carried]
        if missing:
            claim.dropped = True
            claim.reason = f"a short answer whose number {missing[0]} no supported claim states"


def withdraw(
    report: ClaimReport, why: str, not_found_answer: str = NOT_FOUND_ANSWER
) -> ClaimReport:
    """``report`` as a refusal: every kept claim set aside for ``why``, the documents not found.

    The claims keep their verdicts (a supported claim is still supported); the answer says
    that the documents do not answer.
    """
    claims = [c.model_copy() for c in report.claims]
    for claim in claims:
        if not claim.dropped and claim.verdict != "not_found":
            claim.dropped, claim.reason = True, why
    claims = [c for c in claims if c.verdict != "not_found"]
    claims.append(Claim(text=not_found_answer, verdict="not_found", reason=why,
                        part=claims[0].part if claims else None))  # fmt: skip
    return report.model_copy(
        update={"answer": not_found_answer, "claims": claims, "grounded": True, "not_found": True}
    )


def shown_sections(context: ValidationContext) -> dict[str, dict[str, Any]]:
    """The sections the answering agents were shown.

    ``context.allowed_ids`` of ``context.sections``; all of them when it names no allowed id.
    """
    allowed = set(context.allowed_ids) if context.allowed_ids else set(context.sections)
    return {i: s for i, s in context.sections.items() if i in allowed}


def claims_of(checks: Sequence[ValidationResult | Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The claims judged by the ``support`` validator among ``checks`` (empty if it did not run)."""
    for check in checks:
        data = check.model_dump(mode="json") if isinstance(check, ValidationResult) else check
        if data.get("name") == "support" and "claims" in data.get("details", {}):
            return list(data["details"]["claims"])
    return []
