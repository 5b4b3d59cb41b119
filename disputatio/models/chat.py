"""Chat models chosen by a config string.

============================  ================================================================
``local:<name>``              a GGUF model served by the embedded llama.cpp server
                              (``local:qwen2.5-coder-1.5b`` default, ``local:qwen2.5-coder-0.5b``)
``openai:<model>``            OpenAI (``OPENAI_API_KEY``)
``google_genai:<model>``      Gemini (``GOOGLE_API_KEY``)
``vllm:<model>@<base_url>``   any OpenAI-compatible server (vLLM, llama.cpp, TGI...);
                              ``VLLM_API_KEY`` if it needs one
``<provider>:<model>``        anything ``langchain.chat_models.init_chat_model`` knows
============================  ================================================================

Local models write tool calls as text; pair them with
:func:`disputatio.models.toolcalls.bind_tools_with_text_fallback`.

Generation parameters (temperature, max_tokens, stop sequences, repetition penalty, llama.cpp
slot) are applied the same way to a model built from a string (:func:`get_chat_model`) and to a
model object a caller passes in (:func:`configure_model`): a copy of the object with those
fields set, or a ``.bind`` when the class has no such field. The repetition penalty is sent
only to servers that accept it (llama.cpp ``repeat_penalty`` / vLLM ``repetition_penalty`` in
``extra_body``); hosted providers that would reject it do not get it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from disputatio.errors import ConfigError, ModelError
from disputatio.settings import Settings, get_settings

_NATIVE = ("local", "openai", "google_genai", "vllm")
_INIT_CHAT_MODEL_PROVIDERS = (
    "anthropic",
    "azure_openai",
    "bedrock",
    "cohere",
    "fireworks",
    "groq",
    "mistralai",
    "ollama",
    "together",
    "huggingface",
    "deepseek",
    "xai",
)


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model string.

    Attributes:
        provider: ``local``, ``openai``, ``google_genai``, ``vllm`` or an init_chat_model one.
        name: The model name.
        base_url: Server URL for ``vllm:``.
    """

    provider: str
    name: str
    base_url: str | None = None


def parse_model_string(spec: str) -> ModelSpec:
    """Parse and validate a chat model string.

    Raises:
        ConfigError: If the string is malformed or names an unknown provider or local model.
    """
    provider, sep, rest = spec.strip().partition(":")
    if not sep or not rest:
        raise ConfigError(
            f"unknown model string {spec!r}: expected provider:model, e.g. "
            "local:qwen2.5-coder-1.5b, openai:gpt-4o-mini, google_genai:gemini-2.5-flash, "
            "vllm:<model>@http://host:8000/v1"
        )
    if provider == "vllm":
        name, at, base_url = rest.rpartition("@")
        if not at or not name or not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"unknown model string {spec!r}: expected vllm:<model>@<base_url>")
        return ModelSpec(provider, name, base_url.rstrip("/"))
    if provider == "local":
        from disputatio.models.local import local_model

        local_model(rest)
    elif provider not in _NATIVE and provider not in _INIT_CHAT_MODEL_PROVIDERS:
        raise ConfigError(
            f"unknown model string {spec!r}: unknown provider {provider!r} "
            f"(known: {', '.join(_NATIVE + _INIT_CHAT_MODEL_PROVIDERS)})"
        )
    return ModelSpec(provider, rest)


def penalty_body(repetition_penalty: float | None, *, server: str) -> dict[str, Any]:
    """The ``extra_body`` keys of a repetition penalty for ``server`` (``local``/``vllm``).

    llama.cpp reads ``repeat_penalty``; vLLM reads ``repetition_penalty``. A ``vllm:`` string
    may point at either kind of server, so it gets both (each ignores the other's key).
    """
    if repetition_penalty is None:
        return {}
    if server == "local":
        return {"repeat_penalty": repetition_penalty}
    if server == "vllm":
        return {"repeat_penalty": repetition_penalty, "repetition_penalty": repetition_penalty}
    return {}


def _accepts_penalty(model: Any) -> bool:
    """Whether a model object talks to a server that takes ``repeat_penalty`` in its body."""
    if type(model).__name__ == "ChatOpenAI":
        return bool(getattr(model, "openai_api_base", None))  # self-hosted, not api.openai.com
    return "extra_body" in getattr(type(model), "model_fields", {})


def configure_model(
    model: Any,
    *,
    temperature: float | None = None,
    max_tokens: int | None = None,
    stop: list[str] | None = None,
    repetition_penalty: float | None = None,
    extra_body: dict[str, Any] | None = None,
) -> Any:
    """Apply generation parameters to a chat model object a caller passed in.

    Fields the class declares (``temperature``, ``max_tokens``, ``stop``, ``extra_body``) are
    set on a copy (``model_copy``), so ``bind_tools`` and ``with_structured_output`` keep them;
    parameters the class does not declare are bound with ``.bind``. ``None`` leaves a parameter
    as it is. The repetition penalty is skipped for models whose provider would reject it.

    Returns:
        The configured model (the input itself when nothing is to change).
    """
    body = dict(extra_body or {})
    if repetition_penalty is not None and _accepts_penalty(model):
        body.update(penalty_body(repetition_penalty, server="vllm"))
    wanted: dict[str, Any] = {
        k: v
        for k, v in (
            ("temperature", temperature),
            ("max_tokens", max_tokens),
            ("stop", stop),
        )
        if v is not None
    }
    fields = getattr(type(model), "model_fields", {})
    update = {k: v for k, v in wanted.items() if k in fields}
    bind = {k: v for k, v in wanted.items() if k not in fields}
    if body:
        if "extra_body" in fields:
            update["extra_body"] = {**(getattr(model, "extra_body", None) or {}), **body}
        else:
            bind["extra_body"] = body
    if update and hasattr(model, "model_copy"):
        model = model.model_copy(update=update)
    elif update:
        bind.update(update)
    if bind and hasattr(model, "bind"):
        model = model.bind(**bind)
    return model


def get_chat_model(
    spec: str | None = None,
    *,
    role: str | None = None,
    temperature: float | None = None,
    max_tokens: int | None = None,
    settings: Settings | None = None,
    stop: list[str] | None = None,
    repetition_penalty: float | None = None,
    slot: int | None = None,
    **kwargs: Any,
) -> BaseChatModel:
    """Build the chat model named by ``spec`` (or by the settings for ``role``).

    Args:
        spec: A model string; default: ``settings.chat_model_for(role)``.
        role: Agent role, used to pick a per-role model from settings.
        temperature: Sampling temperature (default: settings).
        max_tokens: Completion budget (default: settings).
        settings: Settings to use (default: process settings).
        stop: Stop sequences.
        repetition_penalty: Repetition penalty, sent only to ``local:`` and ``vllm:`` servers.
        slot: llama.cpp slot to pin this model's requests to (``local:`` only, when
            ``local_llm.slot_affinity``); its prompt prefix then stays cached there.
        **kwargs: Extra keyword arguments for the LangChain class.

    Returns:
        A LangChain chat model.

    Raises:
        ConfigError: If the model string is invalid.
        ModelError: If a local model cannot be prepared.
    """
    settings = settings or get_settings()
    parsed = parse_model_string(spec or settings.chat_model_for(role))
    common: dict[str, Any] = {
        "temperature": settings.models.temperature if temperature is None else temperature,
        "max_tokens": max_tokens or settings.models.max_tokens,
        **kwargs,
    }
    if stop:
        common["stop"] = list(stop)
    if parsed.provider in ("local", "vllm", "openai"):
        return _openai_compatible(parsed, settings, common, repetition_penalty, slot)
    if parsed.provider == "google_genai":
        from langchain_google_genai import ChatGoogleGenerativeAI

        if not (os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY")):
            raise ConfigError(f"model google_genai:{parsed.name} needs GOOGLE_API_KEY")
        return ChatGoogleGenerativeAI(
            model=parsed.name, max_retries=settings.models.max_retries, **common
        )
    return _init_chat_model(parsed, common)


def _openai_compatible(
    parsed: ModelSpec,
    settings: Settings,
    common: dict[str, Any],
    repetition_penalty: float | None,
    slot: int | None,
) -> BaseChatModel:
    """``ChatOpenAI`` for ``local:`` (llama.cpp, started here), ``vllm:`` and ``openai:``.

    Raises:
        ConfigError: If ``openai:`` has no ``OPENAI_API_KEY``.
        ModelError: If a local model cannot be prepared.
    """
    from langchain_openai import ChatOpenAI

    body = dict(common.pop("extra_body", None) or {})
    if parsed.provider in ("local", "vllm"):
        body.update(penalty_body(repetition_penalty, server=parsed.provider))
    clients: dict[str, Any] = {}
    if parsed.provider == "local":
        from disputatio.models.local import ensure_server, request_options
        from disputatio.models.local_handoff import http_clients

        base_url: str | None = ensure_server(parsed.name, settings)
        api_key = "local"
        body.update(request_options(settings, slot))
        # requests follow the server when its host process exits and another takes over
        sync_client, async_client = http_clients(parsed.name, settings, str(base_url))
        clients = {"http_client": sync_client, "http_async_client": async_client}
    elif parsed.provider == "vllm":
        base_url, api_key = parsed.base_url, os.environ.get("VLLM_API_KEY", "EMPTY")
    else:
        base_url, api_key = None, os.environ.get("OPENAI_API_KEY", "")
        if not api_key:
            raise ConfigError(f"model openai:{parsed.name} needs OPENAI_API_KEY")
    return ChatOpenAI(
        model=parsed.name,
        base_url=base_url,
        api_key=SecretStr(api_key),
        timeout=settings.models.timeout_s,
        max_retries=settings.models.max_retries,
        extra_body=body or None,
        **clients,
        **common,
    )


def _init_chat_model(parsed: ModelSpec, common: dict[str, Any]) -> BaseChatModel:
    """Any other provider, through ``langchain.chat_models.init_chat_model``.

    Raises:
        ConfigError: If ``langchain`` is not installed.
        ModelError: If the provider's integration is missing or rejects the arguments.
    """
    try:
        from langchain.chat_models import init_chat_model
    except ImportError:
        raise ConfigError(
            f"model {parsed.provider}:{parsed.name} needs the 'langchain' package and the "
            f"provider's integration (pip install langchain langchain-{parsed.provider})"
        ) from None
    try:
        return init_chat_model(f"{parsed.provider}:{parsed.name}", **common)
    except (ImportError, ValueError) as exc:
        raise ModelError(f"cannot build {parsed.provider}:{parsed.name}: {exc}") from exc
