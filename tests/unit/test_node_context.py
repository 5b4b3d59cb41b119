"""One getter for every graph's run context, and the debate's knobs declared once (settings)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from disputatio.errors import ConfigError
from disputatio.nodes.context import AgentContext, context_of
from disputatio.nodes.debate.context import DebateContext, resolve_config
from disputatio.nodes.ingest.context import IngestContext
from disputatio.nodes.medrag.context import MedragContext
from disputatio.nodes.medrag.context import resolve as resolve_medrag
from disputatio.nodes.rdc.context import RdcContext
from disputatio.nodes.referee.context import RefereeContext
from disputatio.settings import load_settings

SCHEMAS = [DebateContext, MedragContext, RefereeContext, RdcContext, IngestContext]


def runtime(context: Any) -> Any:
    return SimpleNamespace(context=context)


@pytest.mark.parametrize("schema", SCHEMAS)
def test_a_run_without_context_gets_the_defaults(schema: type[Any]) -> None:
    assert context_of(None, schema) == schema()
    assert context_of(runtime(None), schema) == schema()


@pytest.mark.parametrize("schema", SCHEMAS)
def test_the_runs_own_context_is_returned_as_it_is(schema: type[Any]) -> None:
    given = schema()
    assert context_of(runtime(given), schema) is given


@pytest.mark.parametrize("schema", [DebateContext, MedragContext, RefereeContext, RdcContext])
def test_a_plain_agent_context_keeps_its_models_and_scope(schema: type[Any]) -> None:
    plain = AgentContext(models={"agent1": "fake:x"}, tenant="acme", collection="papers")
    widened = context_of(runtime(plain), schema)
    assert isinstance(widened, schema)
    assert (widened.models, widened.tenant, widened.collection) == (plain.models, "acme", "papers")


def test_a_context_of_another_graph_is_refused() -> None:
    with pytest.raises(TypeError, match="MedragContext"):
        context_of(runtime(IngestContext()), MedragContext)


def test_the_depth_range_is_the_settings_one() -> None:
    settings = load_settings(debate={"max_depth": 3})
    top = type(settings.debate).model_fields["max_depth"].metadata
    highest = next(m.le for m in top if hasattr(m, "le"))
    ok = DebateContext(settings=settings, model="fake:x", max_depth=highest)
    assert resolve_config(ok).max_depth == highest
    with pytest.raises(ConfigError, match="max_depth"):
        resolve_config(DebateContext(settings=settings, model="fake:x", max_depth=highest + 1))
    assert resolve_config(DebateContext(settings=settings, model="fake:x")).max_depth == 3


def test_a_field_set_to_zero_or_false_overrides_the_settings() -> None:
    settings = load_settings()
    medrag = resolve_medrag(MedragContext(settings=settings, repetition_penalty=0.0))
    assert medrag.repetition_penalty == 0.0
    assert resolve_medrag(MedragContext(settings=settings)).k == settings.medrag.k
    rdc = RdcContext(settings=settings, memory=False, max_risk=0.0).config()
    assert rdc.memory is False and rdc.max_risk == 0.0
    assert RdcContext(settings=settings).config().memory == settings.rdc.memory
