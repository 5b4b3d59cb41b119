r"""Parse multiple-choice and yes/no/maybe answers out of free-form model output (MedRAG style).

Rules, highest priority first (the first rule with any match decides, and within it the
LAST match wins, because models often restate their answer):

1. ``boxed``: ``\boxed{X}``, also ``\boxed{\text{X}}``;
2. ``answer_choice``: ``Answer Choice: X``, also MedRAG's JSON ``"answer_choice": "X"``;
3. ``correct_answer``: ``The correct answer is X`` (also ``is: X``, ``is (X)``,
   ``is option X``; ``right``/``best`` for ``correct``; ``option``/``choice`` for ``answer``);
4. ``final_answer``: ``Final answer: X``;
5. ``therefore``: ``Therefore, X``, ``Therefore the answer is X`` (also ``thus``/``hence``,
   and ``so the answer is X``);
6. ``answer_is``: a plain ``the answer is X`` or a line starting ``Answer: X``;
7. ``lone_letter``: a line holding nothing but an option letter (or a non-letter label such
   as ``yes``), e.g. ``(B)`` or ``**C.**``;
8. ``only_option_named``: the reply names the text of exactly one option (whole words, at
   least 4 characters) and no other — small models often answer "Brucella melitensis is the
   most common cause..." without any answer line;
9. ``leading_label``: for word labels (``yes``/``no``/``maybe``) only, the reply's first word
   is a label — "Yes, metformin lowers..." is the commonest small-model answer to a yes/no
   question that skips the answer line.

``X`` is an option letter, or the option's text ("The correct answer is Metformin"), or a
non-letter label ("yes"). A letter must end where a word would (``A.``, ``(A)``, ``A because``)
so that prose such as "Therefore, a patient" or "Therefore, I think" is not read as a choice.
Boxes and ``Answer Choice:`` are answer slots: whatever they hold that is not an option makes
the result ``INVALID_CHOICE``; in the prose rules only a letter that is not an option does.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

AnswerStatus: TypeAlias = Literal["OK", "PARSE_FAILED", "INVALID_CHOICE", "ERROR"]
Options: TypeAlias = Mapping[str, str] | Sequence[str]
_Candidate: TypeAlias = tuple[str | None, str]  # (option label or None if invalid, raw text)

_BOUNDARY = (
    r"(?=\s*$|\s*(?:\.(?![A-Za-z]\.)|[,;:!?)\]}\"]|'(?!\w))|\s*[-–—]"
    r"|\s+(?:because|as|since|which|is|was|would|seems)\b)"
)
_LETTER_RE = re.compile(r"([A-Za-z])" + _BOUNDARY)
_LEAD_RE = re.compile(r"[\s(\[\"'`:]*(?:(?:option|choice)\b\s*[:\-]?\s*)?[(\[\"']*", re.I)
_ERROR_RE = re.compile(r"\s*(?:ERROR\b|(?i:\[error\]|error\s*:))")
# \boxed{...} with up to two levels of nested braces (possessive: no backtracking blow-up).
_BOXED_RE = re.compile(r"\\boxed\s*\{((?:[^{}]++|\{(?:[^{}]++|\{[^{}]*+\})*+\})*+)\}")
_TEX_WRAPPER_RE = re.compile(r"\\(?:text|textbf|textit|mathrm|mathbf|rm|bf)\s*\{([^{}]*)\}")
_MAX_FRAGMENT = 500  # chars read after a rule's prefix: longer than any option text
_LONE_STRIP = " \t*_()[].:`\"'"
_ANSWER_TAIL = r"(?:the\s+(?:final\s+|correct\s+|best\s+)?answer\s+(?:is|would\s+be)\s*[:：]?\s*)"
_PROSE_RULES: tuple[tuple[str, re.Pattern[str], bool], ...] = (
    ("answer_choice", re.compile(r"answer[\s_-]*choice[\"']?\s*[:=：]\s*", re.I), True),
    (
        "correct_answer",
        re.compile(
            r"\b(?:correct|right|best)\s+(?:answer|option|choice)(?:\s+choice)?"
            r"(?:\s+(?:here|to\s+this\s+question|for\s+this\s+question))?"
            r"\s*(?:is|would\s+be|should\s+be|will\s+be)?\s*[:：]?\s*",
            re.I,
        ),
        False,
    ),
    ("final_answer", re.compile(r"\bfinal\s+answer\s*(?:is|would\s+be)?\s*[:：]?\s*", re.I), False),
    (
        "therefore",
        re.compile(
            rf"\b(?:(?:therefore|thus|hence)\b,?\s*{_ANSWER_TAIL}?|so,?\s+{_ANSWER_TAIL})", re.I
        ),
        False,
    ),
    (
        "answer_is",
        re.compile(
            r"\banswer\s+(?:is|would\s+be)\s*[:：]?\s*|^[ \t]*answer\s*[:：]\s*", re.I | re.M
        ),
        False,
    ),
)


@dataclass(frozen=True, slots=True)
class ParsedAnswer:
    """The outcome of :func:`parse_answer`.

    Attributes:
        choice: The normalised option label (uppercase letter for multiple choice, lowercase
            for labels such as ``yes``/``no``/``maybe``) when ``status`` is ``"OK"``, else None.
        status: ``"OK"``; ``"PARSE_FAILED"`` (no rule matched); ``"INVALID_CHOICE"`` (a rule
            matched something that is not an option, e.g. ``F`` with options A-D); ``"ERROR"``
            (the input is not a string or is an error marker such as ``"ERROR: timeout"``).
        pattern: The name of the rule that decided (see the module docstring), or None.
        raw: What the rule captured (e.g. ``"F"`` for an invalid choice), or None.
    """

    choice: str | None
    status: AnswerStatus
    pattern: str | None = None
    raw: str | None = None

    @property
    def ok(self) -> bool:
        """Whether a valid option was found."""
        return self.status == "OK"


@dataclass(frozen=True)
class _OptionSet:
    letters: Mapping[str, str]  # uppercase letter -> label
    phrases: tuple[tuple[str, str], ...]  # (casefolded phrase, label), longest phrase first
    labels: frozenset[str]


def _norm(text: str) -> str:
    return " ".join(text.casefold().split()).rstrip(".")


def _label(key: str) -> str:
    key = key.strip()
    return key.upper() if len(key) == 1 and key.isalpha() else key.casefold()


def _option_set(options: Options) -> _OptionSet:
    if isinstance(options, str):
        raise TypeError("options must be a mapping or a sequence of labels, not a string")
    if isinstance(options, Mapping):
        pairs = [(_label(str(k)), str(v)) for k, v in options.items()]
    else:
        pairs = [(_label(str(k)), "") for k in options]
    if not pairs or any(not label for label, _ in pairs):
        raise ValueError("options must be a non-empty collection of non-empty labels")
    labels = [label for label, _ in pairs]
    letters = {label: label for label in labels if len(label) == 1 and label.isupper()}
    if not letters:  # e.g. ["yes", "no", "maybe"]: "A" means the first option
        letters = dict(zip(string.ascii_uppercase, labels, strict=False))
    phrases = {_norm(label): label for label in labels if label not in letters}
    phrases.update({_norm(text): label for label, text in pairs if _norm(text)})
    ordered = tuple(sorted(phrases.items(), key=lambda item: -len(item[0])))
    return _OptionSet(letters, ordered, frozenset(labels))


def _interpret(fragment: str, opts: _OptionSet, *, slot: bool) -> _Candidate | None:
    """Read an option out of the text that follows a rule's prefix (or fills a slot)."""
    lead = _LEAD_RE.match(fragment)
    rest = fragment[lead.end() if lead else 0 :]
    letter = _LETTER_RE.match(rest)
    if letter:
        raw = letter.group(1).upper()
        return opts.letters.get(raw), raw
    folded = " ".join(rest.casefold().split())
    for phrase, label in opts.phrases:
        if folded.startswith(phrase) and re.match(_BOUNDARY, folded[len(phrase) :]):
            return label, rest[: len(phrase)]
    raw = rest.strip().rstrip(".")
    return (None, raw) if slot and raw else None


def _boxed(text: str, opts: _OptionSet) -> Iterator[_Candidate]:
    for match in _BOXED_RE.finditer(text):
        content = match.group(1)
        for _ in range(3):  # \boxed{\textbf{\text{A}}}
            content = _TEX_WRAPPER_RE.sub(r"\1", content)
        found = _interpret(content.replace("$", ""), opts, slot=True)
        if found:
            yield found


def _prose(text: str, opts: _OptionSet, rule: re.Pattern[str], slot: bool) -> Iterator[_Candidate]:
    for match in rule.finditer(text):
        line_end = text.find("\n", match.end())
        line_end = line_end if line_end >= 0 else len(text)
        fragment = text[match.end() : min(line_end, match.end() + _MAX_FRAGMENT)]
        found = _interpret(fragment, opts, slot=slot)
        if found:
            yield found


def _lone_lines(text: str, opts: _OptionSet) -> Iterator[_Candidate]:
    for line in text.splitlines():
        token = line.strip(_LONE_STRIP)
        if len(token) == 1 and token.isalpha():
            yield opts.letters.get(token.upper()), token.upper()
        elif token and token.casefold() in opts.labels:
            yield token.casefold(), token


def _result(pattern: str, candidate: _Candidate) -> ParsedAnswer:
    label, raw = candidate
    if label is None:
        return ParsedAnswer(None, "INVALID_CHOICE", pattern, raw)
    return ParsedAnswer(label, "OK", pattern, raw)


def parse_answer(text: str | None, options: Options) -> ParsedAnswer:
    """Parse the chosen option out of a model's answer.

    Args:
        text: The model output. None or a non-string gives ``status="ERROR"``, as does text
            starting with an error marker (``ERROR``, ``[error]``, ``error:``).
        options: ``{"A": "text", ...}`` for multiple choice, or labels such as
            ``["yes", "no", "maybe"]`` (for which a letter answer maps by position: A -> yes).

    Returns:
        A :class:`ParsedAnswer`; see the module docstring for the rules and their priority.

    Raises:
        ValueError: ``options`` is empty or has an empty label.
        TypeError: ``options`` is a string.
    """
    opts = _option_set(options)
    if not isinstance(text, str):
        return ParsedAnswer(None, "ERROR", None, None)
    if _ERROR_RE.match(text):
        return ParsedAnswer(None, "ERROR", None, text.strip().splitlines()[0])
    text = text.replace("*", "")  # markdown bold: "**Answer Choice:** A"
    found = list(_boxed(text, opts))
    if found:
        return _result("boxed", found[-1])
    for name, rule, slot in _PROSE_RULES:
        found = list(_prose(text, opts, rule, slot))
        if found:
            return _result(name, found[-1])
    found = list(_lone_lines(text, opts))
    if found:
        return _result("lone_letter", found[-1])
    named = _named_options(text, options)
    if len(named) == 1:
        label, raw = named[0]
        return ParsedAnswer(label, "OK", "only_option_named", raw)
    leading = _leading_label(text, opts)
    if leading:
        return ParsedAnswer(leading, "OK", "leading_label", leading)
    return ParsedAnswer(None, "PARSE_FAILED", None, None)


def _leading_label(text: str, opts: _OptionSet) -> str | None:
    """The reply's first word when it is a word label (``yes``/``no``/``maybe``)."""
    words = [label for label in opts.labels if len(label) > 1]
    if not words:
        return None
    first = re.match(r"[\s\W_]*([A-Za-z]+)", text)
    word = first.group(1).casefold() if first else ""
    return word if word in words else None


def _named_options(text: str, options: Options) -> list[tuple[str, str]]:
    """Options whose text the reply names as whole words (longest texts matched first)."""
    if not isinstance(options, Mapping):
        return []
    folded = " ".join(text.casefold().split())
    found: list[tuple[str, str]] = []
    for key, value in sorted(options.items(), key=lambda kv: -len(str(kv[1]))):
        phrase = " ".join(str(value).casefold().split()).rstrip(".")
        if len(phrase) < 4:
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(phrase)}(?!\w)")
        if pattern.search(folded):
            found.append((_label(str(key)), str(value)))
            folded = pattern.sub(" ", folded)
    return found


def majority_vote(answers: Sequence[str | None]) -> str | None:
    """Return the most frequent answer, ignoring None and empty strings.

    Answers are compared as given (normalise them first, e.g. with :func:`parse_answer`).
    Ties go to the tied answer whose first occurrence comes earliest.

    Args:
        answers: One answer per sample; None for samples that failed to parse.

    Returns:
        The winning answer, or None when there is no non-empty answer.
    """
    counts = Counter(answer for answer in answers if answer)
    # Counter.most_common orders equal counts by first occurrence (guaranteed since 3.7).
    return counts.most_common(1)[0][0] if counts else None
