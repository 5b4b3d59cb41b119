"""The knowledge base: HPO parsing, documents, and the once-only ingestion marker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from disputatio.eval import medkb
from disputatio.eval.question import Question
from disputatio.settings import load_settings

OBO = """format-version: 1.2

[Term]
id: HP:0000001
name: All

[Term]
id: HP:0000003
name: Multicystic kidney dysplasia
def: "Multiple cysts of varying size in the kidney." [HPO:curators]
synonym: "Multicystic kidneys" EXACT []

[Term]
id: HP:0000004
name: Old term
def: "Gone." []
is_obsolete: true

[Typedef]
id: part_of
def: "not a term" []
"""


def test_hpo_terms_keep_defined_current_terms_only(tmp_path: Path) -> None:
    path = tmp_path / "hp.obo"
    path.write_text(OBO, encoding="utf-8")
    assert list(medkb.hpo_terms(path)) == [
        {
            "id": "HP:0000003",
            "name": "Multicystic kidney dysplasia",
            "definition": "Multiple cysts of varying size in the kidney.",
            "synonyms": ["Multicystic kidneys"],
        }
    ]


@pytest.fixture
def fake_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    obo = tmp_path / "hp.obo"
    obo.write_text(OBO, encoding="utf-8")
    sets = {
        "bioasq": [
            Question("b1", "bioasq", "?", ["yes", "no"], "yes", ("snippet one", "snippet two")),
            Question("b2", "bioasq", "?", ["yes", "no"], "no", ("snippet one",)),
        ],
        "pubmedqa": [Question("pubmedqa_qa:7", "pubmedqa", "?", ["yes", "no"], "yes", ("abs",))],
    }
    monkeypatch.setattr(medkb, "load_all", lambda name: sets[name])
    monkeypatch.setattr(medkb, "hpo_obo_path", lambda: obo)


@pytest.mark.usefixtures("fake_sources")
def test_documents_are_unique_per_source_and_limited() -> None:
    docs = dict(medkb.kb_documents())
    assert sorted(p.split("/")[0] for p in docs) == ["bioasq", "bioasq", "hpo", "pubmedqa"]
    assert "pubmedqa/pubmedqa_qa_7.md" in docs
    assert docs["hpo/HP_0000003.md"].startswith("# Multicystic kidney dysplasia (HP:0000003)")
    assert len(dict(medkb.kb_documents(limit=1))) == 3


@pytest.mark.usefixtures("fake_sources")
def test_the_knowledge_base_is_ingested_once(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path / "home")
    calls: list[tuple[Path, str]] = []

    def ingest(folder: Path, tenant: str, _settings: Any) -> dict[str, Any]:
        calls.append((folder, tenant))
        return {"files": 4, "new": 4, "failed": 0}

    first = medkb.ensure_kb(settings, "kbt", ingest=ingest)
    second = medkb.ensure_kb(settings, "kbt", ingest=ingest)
    assert len(calls) == 1 and first["fingerprint"] == second["fingerprint"]
    assert first["documents"] == 4 and calls[0][1] == "kbt"
    medkb.ensure_kb(settings, "other", ingest=ingest)  # another tenant: ingested there too
    assert len(calls) == 2
