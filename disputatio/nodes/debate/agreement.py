"""Agreement detection between worker answers.

Workers open with a one-line verdict (``Verdict: <short answer>``; an answer written with its
verdict line last is turned round first, :func:`lead_with_verdict`), and agreement compares
verdicts, not wording:

1. both verdicts are canonical (``yes``/``no``/``true``/``false`` or an option letter such as
   ``B.``): equal → 1.0, different → 0.0;
2. both answers have a verdict line: different numbers in them → 0.0 (``300 hours`` vs
   ``6 hours``); otherwise the overlap of their content words (``|A ∩ B| / min(|A|, |B|)``);
3. otherwise the whole answers are compared: ``lexical`` is difflib's ratio over the word
   sequences; ``embedding`` is the cosine of the settings' embedding model.

Answers are normalised first (citations, punctuation and case removed). The agreement of a
leaf is the lowest pairwise similarity: one materially different answer starts a debate.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Callable, Sequence

from langchain_core.embeddings import Embeddings

from disputatio.errors import ConfigError
from disputatio.parsing.answers import Options, parse_answer
from disputatio.settings import Settings
from disputatio.tools.answer_text import CITATION_RE, Parsed, parse_verdict_first, verdict_line

_WORD_RE = re.compile(r"[a-z0-9]+")
_NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)?")
_STOPWORDS = frozenset(
    "a an the of to in on and or is are was were be by for with it its as at from that this "
    "these those which who what when how not no yes".split()
)
_VERDICT_RE = re.compile(
    r"^\W*(?:(?:final\s+)?answer\s*(?:is)?\s*[:\-]?\s*)?"
    r"(?:(yes|no|true|false)\b|\(?([a-e])\)?(?:[.):]|\s*$))",
    re.I,
)


def normalise(text: str) -> str:
    """Lower-case words of ``text`` without citations or punctuation."""
    return " ".join(_WORD_RE.findall(CITATION_RE.sub(" ", text or "").lower()))


def lead_with_verdict(text: str) -> str:
    """``text`` with its verdict line first.

    An answer written support first (``verdict_last``), or with a preamble above its verdict
    line, gets that line moved to the top (the last one, when it restates its verdict), so
    whatever reads verdicts reads the first line. An answer already opening with one, or
    without any, is returned as it is.
    """
    lines = (text or "").splitlines()
    found = [i for i, line in enumerate(lines) if verdict_line(line) is not None]
    if not found or verdict_line(text) is not None:
        return text
    last = found[-1]
    rest = "\n".join(lines[:last] + lines[last + 1 :]).strip()
    return f"{lines[last].strip()}\n{rest}" if rest else lines[last].strip()


def named_option(text: str, options: Options) -> str | None:
    """The option an answer names, its verdict line first (:func:`parse_verdict_first`)."""

    def parse(reply: str) -> Parsed:
        parsed = parse_answer(reply, options)
        return parsed.choice, parsed.status, parsed.pattern

    return parse_verdict_first(text, parse)[0]


def verdict(text: str) -> str | None:
    """The canonical verdict an answer opens with (yes, no, true, false or a letter).

    Read from its ``Verdict:`` line when it has one.
    """
    line = verdict_line(text)
    match = _VERDICT_RE.match(CITATION_RE.sub(" ", line if line is not None else text or ""))
    if match is None:
        return None
    return (match.group(1) or match.group(2)).lower()


def verdict_similarity(a: str, b: str) -> float:
    """Similarity of two verdict lines: 0 when their numbers differ, else word overlap."""
    na = set(_NUMBER_RE.findall(CITATION_RE.sub(" ", a)))
    nb = set(_NUMBER_RE.findall(CITATION_RE.sub(" ", b)))
    if (na or nb) and na != nb:
        return 0.0
    if na:  # the same figures: a numeric verdict agrees whatever the wording
        return 1.0
    wa = {w for w in normalise(a).split() if w not in _STOPWORDS}
    wb = {w for w in normalise(b).split() if w not in _STOPWORDS}
    if not wa or not wb:
        return 1.0 if wa == wb else 0.0
    return len(wa & wb) / min(len(wa), len(wb))


def lexical_similarity(a: str, b: str) -> float:
    """Difflib ratio of the normalised word sequences (1.0 for two empty answers)."""
    wa, wb = normalise(a).split(), normalise(b).split()
    if not wa and not wb:
        return 1.0
    return difflib.SequenceMatcher(None, wa, wb, autojunk=False).ratio()


_EMBEDDERS: dict[str, Embeddings] = {}


def embedding_similarity(settings: Settings) -> Callable[[str, str], float]:
    """Cosine similarity of the settings' embedding model, as a similarity function.

    The model is loaded once per model string and process.
    """
    from disputatio.models import get_embeddings

    spec = settings.models.embeddings
    if spec not in _EMBEDDERS:
        _EMBEDDERS[spec] = get_embeddings(spec, settings=settings)
    embed = _EMBEDDERS[spec].embed_documents

    def similarity(a: str, b: str) -> float:
        va, vb = embed([normalise(a) or "-", normalise(b) or "-"])
        dot = sum(x * y for x, y in zip(va, vb, strict=True))
        na = sum(x * x for x in va) ** 0.5
        nb = sum(y * y for y in vb) ** 0.5
        return max(0.0, dot / (na * nb)) if na and nb else 0.0

    return similarity


def similarity_function(
    method: str | Callable[[str, str], float], settings: Settings
) -> Callable[[str, str], float]:
    """Resolve the context's ``agreement`` field into a similarity function.

    Raises:
        ConfigError: For an unknown method name.
    """
    if callable(method):
        return method
    if method == "lexical":
        return lexical_similarity
    if method == "embedding":
        return embedding_similarity(settings)
    raise ConfigError(f"debate: unknown agreement method {method!r} (lexical, embedding)")


def pair_similarity(a: str, b: str, similarity: Callable[[str, str], float]) -> float:
    """Verdicts decide when both answers open with one; else ``similarity``."""
    va, vb = verdict(a), verdict(b)
    if va is not None and vb is not None:
        return 1.0 if va == vb else 0.0
    la, lb = verdict_line(a), verdict_line(b)
    if la is not None and lb is not None:
        return verdict_similarity(la, lb)
    return float(similarity(a, b))


def agreement_score(answers: Sequence[str], similarity: Callable[[str, str], float]) -> float:
    """Lowest pairwise similarity of ``answers`` (1.0 for fewer than two)."""
    if len(answers) < 2:
        return 1.0
    return min(pair_similarity(a, b, similarity) for a, b in itertools.combinations(answers, 2))


def medoid(answers: Sequence[str], similarity: Callable[[str, str], float]) -> int:
    """Index of the answer most similar to all others (ties: the first)."""
    if len(answers) < 2:
        return 0
    totals = [
        sum(pair_similarity(a, b, similarity) for j, b in enumerate(answers) if j != i)
        for i, a in enumerate(answers)
    ]
    return max(range(len(answers)), key=lambda i: (totals[i], -i))
