"""What kind of sentence an answer's sentence is, before any evidence is looked at.

The claim checker (:mod:`disputatio.validators.claims`) judges only *factual* sentences. This
module tells the others apart from the text alone: a sentence saying the documents do not
answer (:func:`refuses`), one pointing at the documents (:func:`is_pointer`), one answer of a
debate disputing another (:func:`disputes`), a verdict line (``Answer: B``, ``Yes, …``), a
heading or a question (:func:`is_factual`); :func:`mark_unchecked` gives each its verdict. It
also gives the split of a sentence joining independent facts into one claim per fact
(:func:`~disputatio.validators.compound.split_compound`, re-exported).
"""

from __future__ import annotations

import re

from disputatio.state.claims import Claim
from disputatio.validators.compound import lacks_subject as lacks_subject  # re-exported
from disputatio.validators.compound import split_compound as split_compound  # re-exported
from disputatio.validators.pointers import points_at_a_place
from disputatio.validators.pointers import without_pointers as without_pointers  # re-exported
from disputatio.validators.pointers import without_shown_lead as without_shown_lead  # re-exported
from disputatio.validators.sentences import (
    content_words,
    negations,
    numbers_with_units,
    stated_numbers,
)

#: A sentence saying the documents do not answer ("not found", "the sections do not say"):
#: a verb that only a text does, negated.
REFUSAL_RE = re.compile(
    r"\b(?:(?:do|does|did|could|can)\s*(?:not|n't)|cannot|no)\b[^.]{0,60}?\b(?:mention|say|"
    r"state|specify|answer|describe|discuss|detail)|\bnot (?:found|mentioned|specified|stated)\b|"
    r"\bno (?:information|mention|data|details|answer|section)\b|"
    r"NO_SUITABLE_CONTEXT|\binsufficient (?:information|evidence)\b|"
    r"\bnone of the (?:provided |given |shown )?(?:sections|documents|passages|sources)\b",
    re.I,
)
#: A negated verb a text does and a thing in the world does too ("is not provided", "does not
#: cover", "does not contain"): a refusal only about what the answerer was given
#: (:data:`_GIVEN_RE`). "No lunch is provided." and "The club does not cover operations." are
#: claims (they were passed unchecked as refusals until 2026-12-04).
_MAYBE_REFUSAL_RE = re.compile(
    r"\b(?:(?:do|does|did|could|can)\s*(?:not|n't)|cannot|no)\b[^.]{0,60}?\b(?:contain|provide|"
    r"include|information|address|give|list|cover|found|support)|\bnot (?:provided|covered|"
    r"available|given|listed|included)\b",
    re.I,
)
_GIVEN_RE = re.compile(
    r"\b(?:documents?|sections?|texts?|passages?|context|sources?|excerpts?|information|data|"
    r"details)\b",
    re.I,
)


def refuses(text: str) -> bool:
    """Whether ``text`` says the documents do not answer (not a negative claim about the world)."""
    if REFUSAL_RE.search(text):
        return True
    return bool(_MAYBE_REFUSAL_RE.search(text) and _GIVEN_RE.search(text))


_VERDICT_RE = re.compile(
    r"^\W*(?:final\s+)?(?:answer|verdict|option|choice|recommendation)\W*(?:is\b)?\s*[:=\-]"
    r"|^\W*(?:final\s+)?(?:answer|verdict|option|choice)\W*(?:is\b)?\s*\(?[A-Ja-j]\)?\W*$"
    r"|^\s*(?:yes|no|maybe)\s*[.!]?\s*$"
    r"|^\s*(?:yes|no|maybe)\s*[,:;]",
    re.I,
)
#: An answer's own label before its text ("Verdict: …", "Support:"): its layout, not its claim.
ANSWER_LABEL_RE = re.compile(r"^\W*(?:final\s+)?(?:verdict|answer|support|evidence)\s*:\s*", re.I)


def without_label(text: str) -> str:
    """``text`` without the answer's own label before it ("Verdict: X" → "X")."""
    return ANSWER_LABEL_RE.sub("", text, count=1)


#: "Yes, the protein is secreted.": a yes/no verdict restating the question. Not a claim here;
#: its statement is judged, or carried by the supported claims after it (:mod:`.yesno`).
YESNO_VERDICT_RE = re.compile(r"^\s*(?:yes|no|maybe)\s*[,:;]\s*\S", re.I)
#: "This information is found in the section about the CTD-40 spares.": a sentence pointing at
#: the documents states nothing about the world (a judge may still find it "supported").
POINTER_RE = re.compile(
    r"^\W*(?:this|that|it|these|the (?:(?:relevant|requested|needed)\s+)?(?:answer|information|"
    r"details?))(?:\s+(?:information|"
    r"answer|detail|fact)s?)?\s+(?:is|are|can be|was|were)\s+(?:\w+ly\s+|also\s+)?(?:found|stated|"
    r"mentioned|given|described|specified|explained|listed|shown|provided|detailed|covered|"
    r"written)\b(?!\s+that\b)",
    re.I,
)
#: "The section [S1] provides information on the collection of bulky items." (u033): about a
#: section, not the world — unless it goes on to state something ("…, including the
#: requirement that the last 10 passwords cannot be reused": h029), see :func:`is_pointer`.
ABOUT_SECTION_RE = re.compile(
    r"^\W*the\s+(?:section|text|passage|document|context|source)s?(?:\s*\[[^\]]*\])*\s+"
    r"(?:provides?|contains?|gives?|offers?|includes?|has)\s+(?:some\s+|the\s+|more\s+)?"
    r"(?:information|details?)\b",
    re.I,
)
#: Another answer of the debate, as a summary names it ("the latest answer", "worker 1's").
_ANSWER_SUBJECT = (
    r"the\s+(?:(?:latest|last|previous|first|second|other|final|current)\s+)?"
    r"(?:answers?|responses?)|worker\s*\d*(?:'s\s+answer)?"
)
#: "States that Q fever is caused by …", "Additionally, the sections and mention that …", "The
#: latest answer supports the claim that …": the documents (or another answer) reported, not
#: the world; what follows "that" is the claim (:func:`reported`).
#: A section named by its label: "section S4", "the text in section ae42…".
_SECTION_NAMED = r"(?:the\s+(?:text|passage)\s+in\s+)?sections?\s+[\w.\-]+"
_REPORTED_RE = re.compile(
    r"^\W*(?:(?:additionally|also|moreover|furthermore|finally),?\s+)?"
    r"(?:in\s+(?:the\s+)?sections?\s+[\w.\-]+\s*,?\s+)?"
    r"(?:(?:it|this|they|this\s+information|the\s+(?:sections?|texts?|passages?|documents?|"
    r"sources?|context)|" + _SECTION_NAMED + "|" + _ANSWER_SUBJECT + r")(?:\s+and)?\s+)?"
    r"(?:also\s+|\w+ly\s+)?"  # "clearly", "explicitly", "directly"
    r"(?:(?:states?|shows?|says?|mentions?|notes?|confirms?|explains?|indicates?|reports?)|"
    r"supports?\s+the\s+(?:answer|claim|statement|conclusion))\s+that\s+",
    re.I,
)
#: "describes how blood cultures are used …": a subjectless verb about the documents, stating
#: nothing of its own.
_DESCRIBES_RE = re.compile(
    # "The text discusses the booking and cancellation of the Candle Making workshop." (an024,
    # held-out set 39: it was kept, supported by a sentence about Friends' course prices)
    r"^\W*(?:it\s+|this\s+|the\s+(?:provided\s+|given\s+)?(?:sections?|text|passages?|"
    r"documents?|context|sources?)(?:\s*\[[^\]]*\])*\s+)?(?:also\s+|only\s+)?"
    r"(?:describes?|explains?|discusses?|"
    r"outlines?|covers?|details?|lists?)\s+(?:how|what|why|when|where|which|the)\b"
    # "…, including the requirement for a named co-worker" goes on to state it (ae019)
    r"(?!.*\b(?:that|including|such\s+as|namely)\b)(?!.*:)",
    re.I,
)


#: "The latest answer contradicts the claim that Q fever is caused by …" (``make demo``): one
#: answer disputing another, a move of the debate; what follows "that" is what it denies.
_DISPUTES_RE = re.compile(
    r"^\W*(?:(?:additionally|also|however|but),?\s+)?(?:(?:it|this|they|"
    + _ANSWER_SUBJECT
    + r")\s+)?(?:also\s+)?(?:contradicts?|disputes?|refutes?|rejects?|denies|challenges?|"
    r"questions?|doubts?)\s+the\s+(?:claim|answer|statement|idea|view|conclusion)\s+that\b",
    re.I,
)


def disputes(text: str) -> bool:
    """Whether ``text`` is one answer disputing another's claim (no claim about the world).

    Checked as it stands it would be judged on the claim it denies, and shown as supported
    when the documents state that claim.
    """
    return _DISPUTES_RE.match(text) is not None


#: "This is specified in the section on liquids, which states that "Liquids … 100 ml each."":
#: a pointer at the documents that goes on to quote them (v023, held-out set 9).
_QUOTED_TAIL_RE = re.compile(
    r",?\s*(?:which|that|where\s+it)\s+(?:states?|says|reads?|mentions?|notes?)"
    r"(?:\s+that)?\s*[:,]?\s*[\"“](?P<quote>[^\"”]{12,})[\"”]?\s*\.?\s*$",
    re.I,
)

#: "<what> is explicitly stated in the "Pick-up" section: "<quote>"": the quote is the claim
#: (set 18's f016, the hierarchical debate, 2026-12-04: the whole was checked, and dropped).
_SAID_IN_RE = re.compile(
    r"\b(?:is|are|was|were)\s+(?:\w+ly\s+)?(?:stated|mentioned|given|specified|described|"
    r"listed|written|shown|found|provided|explained)\b"
    r"(?:[^\"“”:\n]|[\"“][^\"“”:\n]{1,60}[\"”]){0,120}?:\s*[\"“]"  # a quoted section name
    r"(?P<quote>[^\"”]{12,})[\"”]?\s*\.?\s*$",
    re.I,
)


def reported(text: str) -> str:
    """``text`` without a lead reporting the documents ("States that X" → "X"), if it has one.

    The 1.5B lists its support as "States that Q fever is caused by *Coxiella burnetii*";
    the claim to check and show is what the documents are said to state. A pointer at the
    documents that quotes them ("This is specified in …, which states that "X"", "X is stated
    in the … section: "Y"") is the quote.
    """
    if text.count('"') == 1 and text.rstrip(" .").endswith('"'):  # a quote's last sentence
        text = text.rstrip(" .")[:-1].rstrip()
    quoted = _QUOTED_TAIL_RE.search(text)
    if not (quoted and (POINTER_RE.match(text) or ABOUT_SECTION_RE.match(text))):
        quoted = _SAID_IN_RE.search(text)
    if quoted:
        quote = quoted.group("quote").strip()
        if len(quote.split()) >= 3:
            return quote[0].upper() + quote[1:]
    m = _REPORTED_RE.match(text)
    rest = text[m.end() :].strip() if m else ""
    if rest[:1] in "\"“'":  # states that "X." — the quoted sentence
        rest = rest[1:].replace("”", "").replace('"', "").strip()
    if len(rest.split()) < 3:
        return text
    return rest[0].upper() + rest[1:]


#: A sentence opening with the question asked, quoted: 'The question "How often …?" …'.
_ASKED_RE = re.compile(r"^\W*the\s+question\s*[\"“'‘][^\"”\n]{1,300}\?\s*[\"”'’]", re.I)
#: What such a sentence says of the documents and nothing else ("is answered in the section [S1]
#: of the provided text"; run 10's k015 and m015 drafts).
_META_RE = re.compile(
    r"\s*(?:is|can\s+be)\s+(?:\w+ly\s+)?(?:answered|addressed|covered|found)"
    r"(?:\s+(?:in|by|from|within|of|the|this|that|provided|given|relevant|section|sections|text|"
    r"passage|passages|document|documents|context|sources?)\b|\s*\[[^\[\]\n]{1,300}\])*\s*[.:]?\s*",
    re.I,
)
_STATES_ON_RE = re.compile(r"\b(?:including|such as|that|which|namely|e\.g\.)\b|:", re.I)


def is_pointer(text: str) -> bool:
    """Whether ``text`` points at the documents and states nothing of its own.

    "This information is found in …" and "describes how …" always; "The section provides
    information on …" when it states no number and does not go on ("including …", "that …",
    a colon); "<what> is stated in <a place in the text>" (:func:`.pointers.points_at_a_place`).
    An answer's own label ("Support: [id] describes how …") does not hide it.
    """
    text = without_label(text)
    if POINTER_RE.match(text) or _DESCRIBES_RE.match(text) or points_at_a_place(text):
        return True
    asked = _ASKED_RE.match(text)
    if asked and _META_RE.fullmatch(text[asked.end() :]):
        return True  # 'The question "How often …?" is answered in the section [S1].'
    about = ABOUT_SECTION_RE.match(text)
    if about is None:
        return False
    rest = text[about.end() :]
    return not stated_numbers(rest) and not _STATES_ON_RE.search(rest)


def is_factual(text: str) -> bool:
    """Whether ``text`` states something to check (not a verdict line, heading or question).

    A verdict line is not judged when it names an option, a yes/no or a short answer
    ("Verdict: B", "Answer: 300 hours"); one that makes a statement ("Verdict: Brucellosis is
    diagnosed by blood cultures") is a claim like any other. A lead-in to a list ("… are
    diagnosed in the following ways [s1]:") is not: the lines after it state the facts.
    """
    if text.lstrip().startswith("#") or text.rstrip(" \t\"'\u201d\u2019\u00bb)]*").endswith("?"):
        return False
    if _LEAD_IN_RE.search(text) and "," not in text and not stated_numbers(text):
        return False  # "… in the following ways:": the lines after it state the facts
    if _LIST_HEAD_RE.match(text) and not stated_numbers(text):
        return False  # "Focal complications:" (make demo, 2026-12-04): a list's heading
    if YESNO_VERDICT_RE.match(text):  # a conclusion: it stands on the claims after it
        return False
    head = _VERDICT_RE.match(text)
    if head:
        rest = text[head.end() :].strip(" *.:")
        if _OPTION_RE.match(rest) or len(content_words(rest)) < 3:
            return False
    said = len(content_words(text))
    if said == 1 and (negations(text) or _THERE_IS_RE.match(text)) and not refuses(text):
        return True  # "There is no lift up to it." (set 20's t003): one word, and a fact
    return said >= 2 or bool(numbers_with_units(text))


#: A sentence saying something exists: "There is no lift up to it.", "There are lockers.".
_THERE_IS_RE = re.compile(r"^\W*there\s+(?:is|are|was|were)\b", re.I)


#: A list's heading copied from the documents: at most four words before its colon.
_LIST_HEAD_RE = re.compile(r"^\W*(?:[\w'’-]+\s+){0,3}[\w'’-]+\s*(?:\[[^\[\]\n]{1,300}\]\s*)*:\s*$")
#: A lead-in to a list ("… in the following ways [s1]:", "… as follows:", "… include:"). With
#: no comma and no number it states nothing of its own; one that does ("Q fever, caused by
#: C. burnetii, spreads as follows:") is judged like any claim.
_LEAD_IN_RE = re.compile(
    r"\b(?:the\s+following(?:\s+\w+){0,3}|as\s+follows|these(?:\s+\w+){0,2}|are|is|"
    r"include|includes|including)\s*(?:\[[^\[\]\n]{1,300}\]\s*)*:\s*(?:\[[^\[\]\n]{1,300}\]\s*)*$",
    re.I,
)
#: An option's letter ("B", "(c)", "D Brucella …") or a bare yes/no ("No.", "Yes, it is"), but
#: not a statement opening with a word like one ("A deposit of 50 GBP …", "No lunch is …").
_OPTION_RE = re.compile(
    r"^\(?[A-Ja-j]\)?(?:[.):]|\s*$|\s+(?-i:(?=[A-Z(\-–—])))"
    r"|^(?:yes|no|maybe)\b(?!\s+(?-i:[a-z]))",
    re.I,
)


def short_answer(text: str) -> bool:
    """Whether ``text`` is a verdict line giving a short answer of its own.

    "Answer: 300 hours", "Verdict: No lunch is provided" — not an option's letter or a bare
    yes/no. It is not judged (:func:`is_factual`): it stands only on the supported claims after
    it, and goes when none is kept.
    """
    head = _VERDICT_RE.match(text)
    if head is None or YESNO_VERDICT_RE.match(text):  # "Yes, …": a yes/no verdict
        return False
    rest = text[head.end() :].strip(" *.:")
    return bool(content_words(rest) or numbers_with_units(rest)) and not _OPTION_RE.match(rest)


def mark_unchecked(claim: Claim) -> bool:
    """Mark a piece that is no claim to judge (refusal, debate move, pointer, no statement).

    Returns:
        Whether ``claim`` was marked (else it is a factual claim for the checker).
    """
    piece = claim.text
    if refuses(piece):  # what it cites is no evidence of anything
        claim.verdict, claim.reason = "not_found", "says the documents do not answer"
        claim.citations = []
    elif disputes(piece):  # a debate move, not a claim: not shown
        claim.verdict, claim.factual, claim.dropped = None, False, True
        claim.reason = "disputes another answer, states nothing of the documents"
    elif is_pointer(piece):  # cites a section, says nothing: not shown
        claim.verdict, claim.factual, claim.dropped = None, False, True
        claim.reason = "points at the documents, states nothing"
    elif not is_factual(piece):
        claim.verdict, claim.factual, claim.reason = None, False, "states nothing to check"
        claim.citations = []  # unchecked: what states nothing cites nothing
    else:
        return False
    return True
