"""Recover tool calls that small local models write as text instead of native tool calls.

Small models served by llama.cpp often leave ``AIMessage.tool_calls`` empty and write the call
into ``content`` instead (the formats and the parser are in
:mod:`disputatio.models.toolcall_parsing`, whose :func:`parse_tool_calls` and
:func:`strip_tool_calls` are re-exported here).

:func:`with_text_tool_calls` fills a message's ``tool_calls`` from its text, and
:class:`TextToolCallParser` does the same as a runnable, so that
``llm.bind_tools(tools) | TextToolCallParser(tools)`` behaves like a native tool caller;
:func:`bind_tools_with_text_fallback` builds that chain.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeAlias

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage
from langchain_core.runnables import Runnable, RunnableLambda
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from disputatio.models.toolcall_parsing import parse_tool_calls, strip_tool_calls

__all__ = [
    "TextToolCallParser",
    "ToolLike",
    "bind_tools_with_text_fallback",
    "parse_tool_calls",
    "strip_tool_calls",
    "tool_parameter_names",
    "with_text_tool_calls",
]

logger = logging.getLogger(__name__)

ToolLike: TypeAlias = BaseTool | dict[str, Any] | Callable[..., Any]
"""Anything ``bind_tools`` accepts that has a name and a parameter schema."""


def tool_parameter_names(tools: Sequence[ToolLike]) -> dict[str, list[str]]:
    """Map each tool's name to its parameter names, in schema order.

    Args:
        tools: Tools as accepted by ``bind_tools`` (``BaseTool``, OpenAI/JSON-schema dicts,
            typed functions).

    Returns:
        ``{tool_name: [param, ...]}``; tools whose schema cannot be read are logged and skipped.
    """
    names: dict[str, list[str]] = {}
    for tool in tools:
        try:
            spec = convert_to_openai_tool(tool)
        except (ValueError, TypeError, KeyError) as exc:
            logger.warning("cannot read the schema of tool %r: %s", tool, exc)
            continue
        function = spec.get("function", spec)
        if isinstance(function.get("name"), str):
            properties = (function.get("parameters") or {}).get("properties") or {}
            names[function["name"]] = list(properties)
    return names


def _text_of(content: str | list[str | dict[Any, Any]]) -> str:
    if isinstance(content, str):
        return content
    parts = [p if isinstance(p, str) else p.get("text", "") for p in content]
    return "\n".join(p for p in parts if isinstance(p, str))


def _strip_content(
    content: str | list[str | dict[Any, Any]], names: Collection[str] | None
) -> str | list[str | dict[Any, Any]]:
    if isinstance(content, str):
        return strip_tool_calls(content, names)
    return [
        strip_tool_calls(p, names)
        if isinstance(p, str)
        else ({**p, "text": strip_tool_calls(p["text"], names)} if p.get("type") == "text" else p)
        for p in content
    ]


def _fill(message: AIMessage, params: Mapping[str, Sequence[str]] | None, strip: bool) -> AIMessage:
    if not isinstance(message, AIMessage):
        raise TypeError(f"expected an AIMessage, got {type(message).__name__}")
    names = None if params is None else list(params)
    calls = [] if message.tool_calls else parse_tool_calls(_text_of(message.content), params)
    if not calls:
        return message.model_copy(deep=True)
    update: dict[str, Any] = {"tool_calls": calls}
    if strip:
        update["content"] = _strip_content(message.content, names)
    logger.debug("recovered %d tool call(s) from message text", len(calls))
    return message.model_copy(update=update, deep=True)


def with_text_tool_calls(
    message: AIMessage, tools: Sequence[ToolLike] | None = None, *, strip_content: bool = True
) -> AIMessage:
    """Return a copy of ``message`` whose ``tool_calls`` are filled from its text.

    The input is never mutated. Native tool calls, when present, are kept as they are.

    Args:
        message: The model's reply.
        tools: The tools bound to the model: only calls to these are kept, and their schemas
            name positional arguments. ``None`` accepts any tool name; ``[]`` accepts none.
        strip_content: Remove the recovered calls' text from the copy's ``content``.

    Returns:
        A new ``AIMessage`` (same class as ``message``).

    Raises:
        TypeError: ``message`` is not an ``AIMessage``.
    """
    params = None if tools is None else tool_parameter_names(tools)
    return _fill(message, params, strip_content)


class TextToolCallParser(RunnableLambda[AIMessage, AIMessage]):
    """Runnable that fills ``AIMessage.tool_calls`` from the text when they are empty.

    Use it after a model whose server does not return native tool calls::

        chain = llm.bind_tools(tools) | TextToolCallParser(tools)

    Args:
        tools: As in :func:`with_text_tool_calls`; read once, at construction.
        strip_content: Remove the recovered calls' text from the message content.
    """

    def __init__(
        self, tools: Sequence[ToolLike] | None = None, *, strip_content: bool = True
    ) -> None:
        params = None if tools is None else tool_parameter_names(tools)

        def parse(message: AIMessage) -> AIMessage:
            return _fill(message, params, strip_content)

        super().__init__(parse, name="TextToolCallParser")


def bind_tools_with_text_fallback(
    llm: BaseChatModel, tools: Sequence[ToolLike], *, strip_content: bool = True, **kwargs: Any
) -> Runnable[LanguageModelInput, AIMessage]:
    """Bind ``tools`` to ``llm`` and recover tool calls the model writes as text.

    Args:
        llm: The chat model.
        tools: The tools to bind.
        strip_content: Remove the recovered calls' text from the message content.
        **kwargs: Passed on to ``llm.bind_tools`` (e.g. ``tool_choice``).

    Returns:
        ``llm.bind_tools(tools, **kwargs) | TextToolCallParser(tools)``.
    """
    bound = llm.bind_tools(tools, **kwargs)
    return bound | TextToolCallParser(tools, strip_content=strip_content)
