"""Tool calls written as text: tool schemas, AI messages, the parser runnable, bind_tools."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from langchain_core.language_models import LanguageModelInput
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool, tool

from disputatio.models.toolcalls import (
    TextToolCallParser,
    bind_tools_with_text_fallback,
    tool_parameter_names,
    with_text_tool_calls,
)


@tool
def retrieve(query: str) -> str:
    """Retrieve passages for a query.

    Args:
        query: What to look for.
    """
    return query


@tool
def retrieve_corpus_sections(query: str, k: int = 5) -> str:
    """Retrieve corpus sections.

    Args:
        query: What to look for.
        k: How many sections.
    """
    return f"{query}:{k}"


TOOLS = [retrieve, retrieve_corpus_sections]


# --- tool schemas ------------------------------------------------------------------------------


def test_tool_parameter_names_from_tools_dicts_and_functions() -> None:
    def search(topic: str, limit: int) -> str:
        """Search.

        Args:
            topic: Topic.
            limit: Limit.
        """
        return topic

    schema = {
        "name": "lookup",
        "description": "Look up.",
        "parameters": {"type": "object", "properties": {"term": {"type": "string"}}},
    }
    names = tool_parameter_names([retrieve_corpus_sections, schema, search])
    assert names == {
        "retrieve_corpus_sections": ["query", "k"],
        "lookup": ["term"],
        "search": ["topic", "limit"],
    }


def test_unreadable_tool_schema_is_logged_and_skipped(caplog: pytest.LogCaptureFixture) -> None:
    assert tool_parameter_names([{"no": "schema"}, retrieve]) == {"retrieve": ["query"]}
    assert "cannot read the schema" in caplog.text


# --- messages and runnables --------------------------------------------------------------------


def _text_message(
    content: Any = 'Let me check.\nretrieve_corpus_sections("aspirin", 2)',
) -> AIMessage:
    return AIMessage(content=content, id="msg-1")


def test_with_text_tool_calls_fills_a_copy_and_never_mutates() -> None:
    message = _text_message()
    before = copy.deepcopy(message)
    result = with_text_tool_calls(message, TOOLS)
    assert message == before
    assert message.tool_calls == []
    assert result is not message
    assert isinstance(result, AIMessage)
    assert [(c["name"], c["args"]) for c in result.tool_calls] == [
        ("retrieve_corpus_sections", {"query": "aspirin", "k": 2})
    ]
    assert result.content == "Let me check."
    assert result.id == message.id


def test_with_text_tool_calls_can_keep_the_content() -> None:
    message = _text_message()
    result = with_text_tool_calls(message, TOOLS, strip_content=False)
    assert result.content == message.content
    assert len(result.tool_calls) == 1


def test_native_tool_calls_are_kept() -> None:
    native = {"name": "retrieve", "args": {"query": "native"}, "id": "abc", "type": "tool_call"}
    message = AIMessage(content='retrieve("from text")', tool_calls=[native])
    result = with_text_tool_calls(message, TOOLS)
    assert result.tool_calls == [native]
    assert result.content == message.content


def test_tools_filter_and_none_or_empty_tools() -> None:
    message = _text_message('<tool_call>{"name": "other", "arguments": {"a": 1}}</tool_call>')
    assert with_text_tool_calls(message, TOOLS).tool_calls == []
    assert with_text_tool_calls(message, []).tool_calls == []
    assert [c["name"] for c in with_text_tool_calls(message, None).tool_calls] == ["other"]


def test_content_blocks_are_read_and_stripped() -> None:
    blocks: list[str | dict[str, Any]] = [
        {"type": "text", "text": 'Checking.\nretrieve("aspirin")'},
        {"type": "image_url", "image_url": {"url": "data:,"}},
    ]
    message = _text_message(blocks)
    before = copy.deepcopy(message)
    result = with_text_tool_calls(message, TOOLS)
    assert message == before
    assert [c["args"] for c in result.tool_calls] == [{"query": "aspirin"}]
    assert isinstance(result.content, list)
    assert result.content[0] == {"type": "text", "text": "Checking."}
    assert result.content[1] == blocks[1]


def test_non_ai_message_is_rejected() -> None:
    with pytest.raises(TypeError, match="AIMessage"):
        with_text_tool_calls(HumanMessage(content="hi"), TOOLS)  # type: ignore[arg-type]


def test_parser_runnable_invoke_and_ainvoke() -> None:
    parser = TextToolCallParser(TOOLS)
    message = _text_message()
    before = copy.deepcopy(message)
    result = parser.invoke(message)
    assert [c["args"] for c in result.tool_calls] == [{"query": "aspirin", "k": 2}]
    assert asyncio.run(parser.ainvoke(message)).tool_calls == result.tool_calls
    assert message == before
    assert parser.invoke(AIMessage(content="Just prose.")).tool_calls == []


class _FakeToolModel(GenericFakeChatModel):
    """A fake chat model whose bind_tools (like llama.cpp's) changes nothing."""

    bound: list[Any] = []  # noqa: RUF012 - pydantic field, replaced per instance

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        self.bound = list(tools)
        return self


def test_bind_tools_with_text_fallback_chain() -> None:
    reply = AIMessage(
        content='<tool_call>{"name": "retrieve", "arguments": ["aspirin"]}</tool_call>'
    )
    llm = _FakeToolModel(messages=iter([reply]))
    chain = bind_tools_with_text_fallback(llm, TOOLS)
    result = chain.invoke("What is the dose of aspirin?")
    assert llm.bound == TOOLS
    assert [(c["name"], c["args"]) for c in result.tool_calls] == [
        ("retrieve", {"query": "aspirin"})
    ]
    assert result.content == ""
