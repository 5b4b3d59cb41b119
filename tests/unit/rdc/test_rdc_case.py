"""The CASE schema, the bundled rare-disease case and the specialist defaults."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from disputatio.argumentation import rare_disease_case
from disputatio.errors import ConfigError
from disputatio.nodes.rdc.analysis import differential, labelling
from disputatio.nodes.rdc.case import (
    load_case,
    read_case_file,
    resolve_specialists,
    seed_graph,
)
from disputatio.settings import Settings
from disputatio.state.rdc import Case

from .builders import case_data


def test_bundled_case_reproduces_the_engine_worked_example(case: Case) -> None:
    _, posterior = differential(seed_graph(case), 1.0)
    # fever, arthralgia and hepatosplenomegaly carry the same LR for every hypothesis, so the
    # posterior is the engine example's (goat cheese, ferritin, second-hand rash)
    assert posterior == pytest.approx(rare_disease_case().posteriors(), abs=1e-12)
    # nothing attacks the seeded evidence: all of it is IN
    labels = labelling(seed_graph(case))
    assert {labels[e.id].value for e in case.evidence} == {"in"}


def test_seeded_tests_carry_their_eig(case: Case) -> None:
    graph = seed_graph(case)
    powers = {n.id: n.discriminative_power for n in graph.nodes if n.kind.value == "test"}
    assert set(powers) == {"t1_brucella", "t2_coxiella", "t3_marrow"}
    assert all(p is not None and p > 0 for p in powers.values())
    # every hypothesis is backed by evidence and every test has a discriminative power
    assert graph.check_invariants() == []


@pytest.mark.parametrize(
    ("patch", "needle"),
    [
        ({"hypotheses": [{"id": "a", "prior": 0.5}, {"id": "b", "prior": 0.4}]}, "sum to 1"),
        ({"gold": "lupus"}, "gold"),
        (
            {"tests": [{"id": "t", "likelihoods": {"pos": {"brucellosis": 1.0}}}]},
            "every hypothesis",
        ),
        ({"unknown_field": 1}, "unknown_field"),
    ],
)
def test_invalid_cases_raise_one_line_config_errors(patch: dict[str, Any], needle: str) -> None:
    with pytest.raises(ConfigError) as err:
        load_case({**case_data(), **patch})
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_read_case_file_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        read_case_file(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(ConfigError, match="not JSON"):
        read_case_file(bad)
    good = tmp_path / "case.json"
    good.write_text(json.dumps(case_data()))
    assert read_case_file(good).id == "rare-disease-fuo"


def test_specialists_come_from_names_then_case_then_domain(case: Case) -> None:
    medical = [s.name for s in resolve_specialists(case)]
    assert medical[:2] == ["infectious", "autoimmune"] and len(medical) == 8
    assert "data_quality" in medical
    picked = resolve_specialists(case, ["epidemiology", "botanist"])
    assert picked[0].focus.startswith("epidemiology") and picked[1].focus == ""
    assert [s.name for s in resolve_specialists(case, limit=2)] == medical[:2]
    custom = case.model_copy(update={"domain": "law", "specialists": []})
    assert [s.name for s in resolve_specialists(custom)] == [
        "domain_expert",
        "methodologist",
        "data_quality",
    ]
    with pytest.raises(ConfigError):
        resolve_specialists(case, limit=0)


def test_fitted_reliabilities_scale_the_quality_of_a_sources_findings(case: Case) -> None:
    from disputatio.nodes.rdc.case import seed_graph

    data = case.model_dump(mode="json")
    data["evidence"][0]["source"] = "second_hand"
    data["evidence"][0]["quality"] = 0.8
    amended = Case.model_validate(data)
    g = seed_graph(amended, reliabilities={"second_hand": 0.5})
    assert g.node(data["evidence"][0]["id"]).quality == pytest.approx(0.4)
    assert g.node(data["evidence"][1]["id"]).quality == data["evidence"][1]["quality"]


def test_a_run_without_an_injected_ledger_writes_to_postgres(unit_settings: Settings) -> None:
    from disputatio.nodes.rdc.context import RdcContext, default_memory_ledger
    from disputatio.storage.ledger import PostgresLedger

    # what the LangGraph server does: a context with no ledger object
    assert isinstance(RdcContext(settings=unit_settings).get_ledger(), PostgresLedger)
    memory = unit_settings.model_copy(
        update={"rdc": unit_settings.rdc.model_copy(update={"ledger": "memory"})}
    )
    assert RdcContext(settings=memory).get_ledger() is default_memory_ledger()
