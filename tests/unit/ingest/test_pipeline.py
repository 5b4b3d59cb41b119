"""The three steps together: extract a file, chunk it, extract entities from the children."""

from __future__ import annotations

from pathlib import Path

from builders import make_pdf

from disputatio.ingest import chunk_document, extract, sha256_file
from disputatio.ingest.spacy_entities import SpacyEntityExtractor


def test_pdf_to_chunks_to_entities(tmp_path: Path, spacy_extractor: SpacyEntityExtractor) -> None:
    path = make_pdf(
        tmp_path / "curie.pdf",
        [
            [("Biography", 20), ("Marie Curie worked at the University of Paris.", 11)],
            [("Legacy", 20), ("The Curie Institute in Paris honours Marie Curie.", 11)],
        ],
    )
    doc = extract(path)
    key = sha256_file(path)
    parents = chunk_document(doc, doc_key=key)
    children = [c for p in parents for c in p.children]
    assert children
    assert {c.page for c in children} <= {1, 2}
    assert children[0].heading_path == ("Biography",)
    graph = spacy_extractor.extract(children)
    chunk_ids = {c.id for c in children}
    assert "marie curie" in {e.key for e in graph.entities}
    assert {m.chunk_id for m in graph.mentions} <= chunk_ids
    assert {r.evidence_chunk_id for r in graph.relations} <= chunk_ids
    assert graph.linked() == graph  # every mention and relation hangs on a found entity
