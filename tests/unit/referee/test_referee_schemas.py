"""Output schemas are bounded (lengths reach the JSON schema) and fitted to the run."""

from __future__ import annotations

from disputatio.nodes.referee.advocate import advocate_schema
from disputatio.state.referee import (
    AdvocateDraft,
    Axis,
    Constraints,
    OptionSpec,
    Plan,
    PlannerDraft,
    capped,
)


def _plan(constraints: Constraints) -> Plan:
    axes = [Axis(name="latency"), Axis(name="cost")]
    return Plan(query="q", options=[OptionSpec(name="A")], axes=axes, constraints=constraints)


def test_long_model_output_is_cut_not_rejected() -> None:
    draft = AdvocateDraft.model_validate(
        {"summary": "x" * 1000, "claims": [{"axis": "a", "text": "t", "citations": ["S1"] * 9}]}
    )
    assert len(draft.summary) == 160 and len(draft.claims[0].citations) == 4
    props = PlannerDraft.model_json_schema()["properties"]
    assert props["options"]["maxItems"] == 6 and props["options"]["items"]["maxLength"] == 80


def test_prose_cut_at_its_bound_ends_on_a_whole_word_marked() -> None:
    """The local model stops at the bound mid-word ("… for diagnosing brucel")."""
    text = (
        "Blood culture is slower than serology but still a valuable tool for diagnosing "
        "brucellosis in many settings, "
    ) * 3
    draft = AdvocateDraft.model_validate({"summary": text[:160]})
    assert draft.summary.endswith("…") and len(draft.summary) <= 160
    assert text.startswith(draft.summary[:-1]) and text[len(draft.summary) - 1] == " "
    whole = "y" * 159 + "."
    assert AdvocateDraft.model_validate({"summary": whole}).summary == whole
    assert AdvocateDraft.model_validate({"summary": "short"}).summary == "short"


def test_advocate_schema_fits_the_plan() -> None:
    plain = advocate_schema(_plan(Constraints()))
    assert "constraints" not in plain.model_fields
    assert plain.model_json_schema()["properties"]["claims"]["maxItems"] == 2
    with_constraints = advocate_schema(_plan(Constraints(budget="low", avoid=["Java"])))
    props = with_constraints.model_json_schema()["properties"]
    assert props["constraints"]["maxItems"] == 2
    assert issubclass(with_constraints, AdvocateDraft)


def test_capped_schemas_are_cached_and_cut_lists() -> None:
    schema = capped(AdvocateDraft, claims=1)
    assert schema is capped(AdvocateDraft, claims=1)
    draft = schema.model_validate({"claims": [{"axis": "a", "text": "t"}] * 3})
    assert len(draft.claims) == 1
