"""The runtime context every agent graph uses to get its models and its retriever.

Graphs declare a subclass of :class:`AgentContext` as their ``context_schema``. Nodes never
build models or retrievers themselves: they ask the context, so callers (and tests) inject
their own::

    graph.invoke(inputs, context=MedragContext(
        models={"agent1": ScriptedChatModel(script=[...]), "agent2": ...},
        retriever=my_retriever,
    ))

Lookup order for a chat model: ``models[agent]`` → ``models[role]`` → ``model`` → the settings'
model for ``role``. A value in ``models`` may be a chat model object or a model string; the
generation parameters a node asks for (temperature, max_tokens, stop sequences, repetition
penalty) are applied to both (:func:`disputatio.models.chat.configure_model` for objects).

Nodes get their context with :func:`context_of` (``context_of(runtime, MedragContext)``), the
one getter of every graph: a run given no context gets the class's defaults.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, TypeVar

from langchain_core.language_models import BaseChatModel

from disputatio.retrievers.base import CorpusRetriever
from disputatio.settings import Settings, get_settings
from disputatio.validators.support import SupportChecker, default_checker

if TYPE_CHECKING:
    from langgraph.runtime import Runtime

C = TypeVar("C")
T = TypeVar("T")


@dataclass
class AgentContext:
    """Run settings shared by the agent graphs.

    Attributes:
        model: Chat model string for every agent (default: per-role settings).
        models: Per-agent or per-role chat models (objects or model strings).
        retriever: The corpus retriever (default: the Postgres funnel of the settings).
        settings: Settings object (default: process settings).
        tenant: Tenant to search (default: settings).
        collection: Collection to search (default: all collections of the tenant).
    """

    model: str | None = None
    models: dict[str, Any] = field(default_factory=dict)
    retriever: Any = None
    settings: Any = None
    tenant: str | None = None
    collection: str | None = None

    def get_settings(self) -> Settings:
        """The settings in force for this run."""
        return self.settings if isinstance(self.settings, Settings) else get_settings()

    def chat_model(
        self,
        agent: str,
        *,
        role: str | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        stop: list[str] | None = None,
        repetition_penalty: float | None = None,
        slot: int | None = None,
    ) -> BaseChatModel:
        """Return the chat model for ``agent`` (see the module docstring for the lookup).

        Args:
            agent: Agent name (first lookup key).
            role: Agent role (second lookup key, and the settings' per-role model).
            temperature: Sampling temperature to apply (None: the model's own).
            max_tokens: Completion budget to apply.
            stop: Stop sequences to apply.
            repetition_penalty: Repetition penalty, for servers that accept one.
            slot: llama.cpp slot for this agent (``local:`` models; prefix-cache affinity).
        """
        from disputatio.models.chat import configure_model, get_chat_model

        params: dict[str, Any] = {
            "temperature": temperature,
            "max_tokens": max_tokens,
            "stop": stop,
            "repetition_penalty": repetition_penalty,
        }
        for key in (agent, role):
            if key is not None and key in self.models:
                value = self.models[key]
                if isinstance(value, str):
                    return get_chat_model(value, settings=self.get_settings(), slot=slot, **params)
                return configure_model(value, **params)
        return get_chat_model(
            self.model, role=role or agent, settings=self.get_settings(), slot=slot, **params
        )

    def is_local_model(self, agent: str, role: str | None = None) -> bool:
        """Whether ``agent`` runs on the embedded llama.cpp server (a ``local:`` string)."""
        for key in (agent, role):
            if key is not None and key in self.models:
                value = self.models[key]
                return isinstance(value, str) and value.startswith("local:")
        spec = self.model or self.get_settings().chat_model_for(role or agent)
        return spec.startswith("local:")

    def support_checker(self) -> SupportChecker:
        """The claim checker of the settings' ``[grounding]`` section.

        The ``hybrid`` and ``judged`` checkers embed with the retriever's embedding model, or
        the settings'; the ``judged`` checker's judge is the chat model of ``claim_judge``.
        """
        cfg = self.get_settings().grounding
        embed = None
        judge = None
        if cfg.checker == "judged":
            from disputatio.validators.judge import SupportJudge

            judge = SupportJudge(
                self.chat_model("claim_judge", role="claim_judge"),
                prompt_cache=cfg.judge_prompt_cache,
            )
        if cfg.checker in ("hybrid", "judged"):
            model = getattr(self.retriever, "embeddings", None)
            if model is None:
                from disputatio.models.embeddings import get_embeddings

                model = get_embeddings(settings=self.get_settings())
            embed = model.embed_documents
        checker = default_checker(embed, cfg.checker, judge, cfg.judge_question)
        if cfg.threshold is not None:
            checker.threshold = cfg.threshold
        return checker

    def get_retriever(self) -> CorpusRetriever:
        """Return the injected retriever, or the default Postgres funnel."""
        if self.retriever is not None:
            return self.retriever
        from disputatio.retrievers import default_retriever

        return default_retriever(
            self.get_settings(), tenant=self.tenant, collection=self.collection
        )


def given_or(value: T | None, default: T) -> T:
    """A context field's value unless it was left at None (``0`` and ``False`` are kept)."""
    return default if value is None else value


def context_of(runtime: Runtime[Any] | None, schema: type[C]) -> C:
    """The run's context as ``schema``: the one way every node gets its context.

    Args:
        runtime: The node's LangGraph runtime (None when a node is called directly).
        schema: The graph's context class (its ``context_schema``); its defaults serve a run
            given no context.

    Returns:
        The runtime's context when it is a ``schema``; ``schema()`` when there is none; a
        plain :class:`AgentContext` widened into ``schema`` (its models, retriever, settings and
        scope kept, the rest default) when ``schema`` is an :class:`AgentContext` subclass.

    Raises:
        TypeError: The context is of another class (a run would otherwise silently lose it).
    """
    ctx = runtime.context if runtime is not None else None
    if isinstance(ctx, schema):
        return ctx
    if ctx is None:
        return schema()
    if isinstance(ctx, AgentContext) and issubclass(schema, AgentContext):
        shared = {f.name: getattr(ctx, f.name) for f in fields(AgentContext)}
        return schema(**shared)
    raise TypeError(f"context must be a {schema.__name__}, got {type(ctx).__name__}")
