"""Whether a piece of text has a verb, by the part-of-speech tagger of the shipped spaCy pipeline.

The claim splitter (:func:`~disputatio.validators.compound.split_compound`) asks it before
it cuts a list's last item from its sentence: "Q fever belongs in the differential diagnosis …,
together with brucellosis, another livestock-associated infection, and non-infectious
conditions such as adult-onset Still's disease" is one claim, not two, since its last part has
no verb (``make demo``, 2026-12-04: "Non-infectious conditions such as adult-onset Still's
disease." was shown as a supported claim stating nothing). Words alone do not tell: "weeks" in
"every 6 weeks in Åsen" ends like "costs".

The tagger loads once per process (1–3 s here), and only when a sentence has such a list;
the parser, NER and lemmatizer are left out.
"""

from __future__ import annotations

import threading
from typing import Any

from disputatio.errors import ModelError

_LOCK = threading.Lock()
_TAGGER: list[Any] = []
_VERB_TAGS = frozenset({"VERB", "AUX"})
_NOT_FOR_TAGGING = ("parser", "ner", "lemmatizer")


def _tagger() -> Any:
    """The shipped spaCy pipeline with only its tagger (loaded on first use)."""
    with _LOCK:
        if not _TAGGER:
            from disputatio.ingest.spacy_entities import DEFAULT_SPACY_MODEL  # not at CLI start
            from disputatio.ingest.spacy_import import import_spacy

            spacy = import_spacy(without_torch=True)
            try:
                _TAGGER.append(spacy.load(DEFAULT_SPACY_MODEL, exclude=list(_NOT_FOR_TAGGING)))
            except (OSError, ImportError, ValueError) as exc:
                raise ModelError(f"cannot load spaCy model {DEFAULT_SPACY_MODEL!r}: {exc}") from exc
        return _TAGGER[0]


def tagged(text: str) -> Any:
    """``text`` tagged (a spaCy ``Doc``: each token's ``pos_`` and Penn ``tag_``)."""
    return _tagger()(text)


def has_verb(text: str) -> bool:
    """Whether ``text`` has a word tagged as a verb or an auxiliary.

    >>> has_verb("and every 6 weeks in Åsen")
    False
    """
    return any(token.pos_ in _VERB_TAGS for token in _tagger()(text))
