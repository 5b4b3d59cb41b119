"""Calibration maths: Platt fit, labelled-file parsing, relevance matching."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from disputatio.errors import ConfigError
from disputatio.retrievers.calibration import fit_platt, is_relevant, load_examples
from disputatio.retrievers.relevance import platt
from disputatio.state.retrieval import Section


def test_platt_fit_recovers_a_known_logistic() -> None:
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 1, 4000)
    p_true = 1 / (1 + np.exp(-(10 * x - 6)))
    y = rng.uniform(0, 1, 4000) < p_true
    a, b = fit_platt(x.tolist(), y.tolist())
    assert a == pytest.approx(10, rel=0.15) and b == pytest.approx(-6, rel=0.15)
    # calibrated: among points scored ~0.5 about half are relevant
    scores = np.array([platt(v, (a, b)) for v in x])
    middle = (scores > 0.4) & (scores < 0.6)
    assert 0.35 < y[middle].mean() < 0.65


def test_platt_fit_needs_both_classes() -> None:
    with pytest.raises(ConfigError, match="relevant and non-relevant"):
        fit_platt([0.1, 0.9], [True, True])


def test_platt_is_monotone_and_bounded() -> None:
    values = [platt(x / 10, (12.0, -6.0)) for x in range(-20, 21)]
    assert values == sorted(values) and values[0] >= 0.0 and values[-1] <= 1.0
    assert platt(0.5, (12.0, -6.0)) == pytest.approx(0.5)
    assert platt(0.7, None) == 0.7
    assert not math.isnan(platt(-1e6, (12.0, -6.0)))


def test_load_examples_accepts_relevant_ids_and_relevant(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text(
        json.dumps({"query": "q1", "relevant_ids": ["a", "b"]})
        + "\n\n"
        + json.dumps({"query": "q2", "relevant": ["c"]})
        + "\n",
        encoding="utf-8",
    )
    assert load_examples(path) == [("q1", {"a", "b"}), ("q2", {"c"})]
    path.write_text(json.dumps({"query": "q", "relevant_ids": "a"}) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"labels\.jsonl:1"):
        load_examples(path)


def test_a_section_matches_by_id_document_or_file_label() -> None:
    section = Section(id="p1", document_id="d1", source="/corpus/bioasq-abc.txt", text="t")
    assert is_relevant(section, {"p1"}) and is_relevant(section, {"d1"})
    assert is_relevant(section, {"bioasq-abc"}) and not is_relevant(section, {"bioasq-xyz"})
