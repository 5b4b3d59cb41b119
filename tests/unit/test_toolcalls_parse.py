"""Tool calls written as text by small local models: parsing every format, and stripping."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from disputatio.models.toolcalls import parse_tool_calls, strip_tool_calls

PARAMS = {"retrieve": ["query"], "retrieve_corpus_sections": ["query", "k"]}


def _calls(text: str, names: Any = None, **kwargs: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["args"]) for c in parse_tool_calls(text, names, **kwargs)]


# --- formats ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>\n{"name": "retrieve", "arguments": {"query": "aspirin"}}\n</tool_call>',
        'Let me look.\n```json\n{"name": "retrieve", "parameters": {"query": "aspirin"}}\n```',
        '```\n{"name": "retrieve", "args": {"query": "aspirin"}}\n```',
        'I will call {"name": "retrieve", "arguments": {"query": "aspirin"}} now.',
        '{"type": "function", "function": {"name": "retrieve", '
        '"arguments": "{\\"query\\": \\"aspirin\\"}"}}',
        'retrieve(query="aspirin")',
        'retrieve("aspirin")',
        "Action: retrieve('aspirin')",
        'functions.retrieve(query="aspirin")',
        '```python\nretrieve("aspirin")\n```',
        '<tool_call>retrieve("aspirin")</tool_call>',
    ],
)
def test_every_format_gives_the_same_call(text: str) -> None:
    assert _calls(text, PARAMS) == [("retrieve", {"query": "aspirin"})]


def test_qwen_tag_with_keyword_and_int_arguments() -> None:
    text = (
        "<tool_call>\n"
        '{"name": "retrieve_corpus_sections", "arguments": {"query": "x", "k": 3}}\n'
        "</tool_call>"
    )
    assert _calls(text) == [("retrieve_corpus_sections", {"query": "x", "k": 3})]


def test_python_call_with_keywords() -> None:
    text = 'retrieve_corpus_sections(query="statins and myopathy", k=5)'
    assert _calls(text) == [("retrieve_corpus_sections", {"query": "statins and myopathy", "k": 5})]


def test_list_of_python_calls() -> None:
    text = '[retrieve("a"), retrieve_corpus_sections(query="b", k=2)]'
    assert _calls(text, PARAMS) == [
        ("retrieve", {"query": "a"}),
        ("retrieve_corpus_sections", {"query": "b", "k": 2}),
    ]


def test_json_list_of_calls() -> None:
    text = '[{"name": "retrieve", "arguments": {"query": "a"}}, {"name": "retrieve", "args": {}}]'
    assert _calls(text) == [("retrieve", {"query": "a"}), ("retrieve", {})]


def test_multiple_tags_keep_text_order_and_ids() -> None:
    text = (
        '<tool_call>{"name": "retrieve", "arguments": {"query": "one"}}</tool_call>\n'
        'then retrieve_corpus_sections(query="two", k=1)\n'
        '<tool_call>{"name": "retrieve", "arguments": {"query": "three"}}</tool_call>'
    )
    calls = parse_tool_calls(text, PARAMS)
    assert [c["args"]["query"] for c in calls] == ["one", "two", "three"]
    assert [c["id"] for c in calls] == ["call_0", "call_1", "call_2"]
    assert all(c["type"] == "tool_call" for c in calls)


def test_unterminated_tag_before_another_tag() -> None:
    text = (
        '<tool_call>{"name": "retrieve", "arguments": {"query": "a"}}\n'
        '<tool_call>{"name": "retrieve", "arguments": {"query": "b"}}</tool_call>'
    )
    assert _calls(text) == [("retrieve", {"query": "a"}), ("retrieve", {"query": "b"})]


# --- malformed JSON recovery -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "args"),
    [
        (
            '<tool_call>{"name": "retrieve", "arguments": {"query": "x",},}</tool_call>',
            {"query": "x"},
        ),
        (
            "<tool_call>{'name': 'retrieve', 'arguments': {'query': 'x'}}</tool_call>",
            {"query": "x"},
        ),
        (
            '<tool_call>{"name": "retrieve", "arguments": {"query": "x", "all": true, "n": null}}'
            "</tool_call>",
            {"query": "x", "all": True, "n": None},
        ),
        # Truncated output (max tokens reached): the open braces are closed for it.
        (
            '<tool_call>\n{"name": "retrieve", "arguments": {"query": "dose of asp',
            {"query": "dose of asp"},
        ),
        ('```json\n{"name": "retrieve", "arguments": {"query": "x"}', {"query": "x"}),
        ('{"name": "retrieve", "arguments": {"query": "line\nbreak"}}', {"query": "line\nbreak"}),
    ],
)
def test_malformed_json_is_recovered(text: str, args: dict[str, Any]) -> None:
    assert _calls(text) == [("retrieve", args)]


def test_garbage_inside_a_tag_gives_no_call() -> None:
    assert parse_tool_calls("<tool_call>not a call at all</tool_call>") == []


# --- positional arguments ----------------------------------------------------------------------


def test_positional_args_take_the_schema_parameter_names() -> None:
    text = 'retrieve_corpus_sections("aspirin", 3)'
    assert _calls(text, param_names=PARAMS) == [
        ("retrieve_corpus_sections", {"query": "aspirin", "k": 3})
    ]


def test_tool_names_mapping_doubles_as_param_names() -> None:
    assert _calls('retrieve("aspirin")', PARAMS) == [("retrieve", {"query": "aspirin"})]


def test_positional_args_without_schema_use_langchain_arg_names() -> None:
    assert _calls('lookup("aspirin", 2)') == [("lookup", {"__arg1": "aspirin", "__arg2": 2})]


def test_positional_and_keyword_mixed() -> None:
    text = 'retrieve_corpus_sections("aspirin", k=2)'
    assert _calls(text, PARAMS) == [("retrieve_corpus_sections", {"query": "aspirin", "k": 2})]


def test_non_dict_json_arguments_are_positional() -> None:
    text = '<tool_call>{"name": "retrieve", "arguments": "aspirin"}</tool_call>'
    assert _calls(text, PARAMS) == [("retrieve", {"query": "aspirin"})]


# --- unknown names and prose -------------------------------------------------------------------


def test_unknown_tool_names_are_ignored() -> None:
    text = (
        '<tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>\n'
        '<tool_call>{"name": "retrieve", "arguments": {"query": "x"}}</tool_call>'
    )
    assert _calls(text, ["retrieve"]) == [("retrieve", {"query": "x"})]
    assert [name for name, _ in _calls(text)] == ["delete_everything", "retrieve"]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "I will retrieve the relevant documents and then answer.",
        "To answer, retrieve (or look up) the guidelines first.",
        "Use retrieve() to fetch passages.",
        "The function f(x) = 2x is linear, and g(1, 2) is defined too.",
        'The patient record is {"name": "Jane", "age": 54}.',
        "Sets such as {1, 2, 3} and lists [1, 2] are not calls; f(a) neither.",
        "```python\ndef f(x):\n    return helper(x)\n```",
        "It's {the user's} choice; don't retrieve(anything odd.",
    ],
)
def test_prose_gives_no_calls(text: str) -> None:
    assert parse_tool_calls(text) == []
    assert parse_tool_calls(text, PARAMS) == []
    assert strip_tool_calls(text) == text.strip()


def test_inline_call_counts_only_for_known_tools() -> None:
    text = 'First I call retrieve("aspirin") and then I answer.'
    assert parse_tool_calls(text) == []
    assert _calls(text, PARAMS) == [("retrieve", {"query": "aspirin"})]


def test_json_without_arguments_key_needs_a_known_name() -> None:
    text = 'Calling {"name": "retrieve"} now'
    assert parse_tool_calls(text) == []
    assert _calls(text, ["retrieve"]) == [("retrieve", {})]


def test_non_string_text_gives_no_calls() -> None:
    assert parse_tool_calls(None) == []  # type: ignore[arg-type]


# --- strip_tool_calls --------------------------------------------------------------------------


def test_strip_removes_every_call_and_keeps_prose() -> None:
    text = (
        "I need evidence.\n\n"
        '<tool_call>{"name": "retrieve", "arguments": {"query": "a"}}</tool_call>\n\n\n'
        '```json\n{"name": "retrieve", "arguments": {"query": "b"}}\n```\n'
        '[retrieve("c"), retrieve("d")]\n'
        "Then I will answer."
    )
    assert strip_tool_calls(text) == "I need evidence.\n\nThen I will answer."


def test_strip_inline_call_joins_the_sentence() -> None:
    text = 'I call {"name": "retrieve", "arguments": {"query": "x"}} now.'
    assert strip_tool_calls(text) == "I call now."


def test_strip_keeps_calls_to_unknown_tools() -> None:
    text = '<tool_call>{"name": "other", "arguments": {}}</tool_call>'
    assert strip_tool_calls(text, ["retrieve"]) == text
    assert strip_tool_calls(text) == ""


# --- properties --------------------------------------------------------------------------------


@given(st.text())
def test_parse_never_raises_on_arbitrary_text(text: str) -> None:
    calls = parse_tool_calls(text)
    assert all(re.fullmatch(r"call_\d+", c["id"] or "") for c in calls)
    assert isinstance(strip_tool_calls(text), str)


@given(query=st.text(), k=st.integers(-(10**6), 10**6))
def test_tag_and_python_calls_round_trip(query: str, k: int) -> None:
    assume("_call>" not in query)
    args = {"query": query, "k": k}
    tagged = f"<tool_call>{json.dumps({'name': 'retrieve_corpus_sections', 'arguments': args})}"
    assert _calls(tagged + "</tool_call>", PARAMS) == [("retrieve_corpus_sections", args)]
    python = f"retrieve_corpus_sections({query!r}, {k})"
    assert _calls(python, PARAMS) == [("retrieve_corpus_sections", args)]


@pytest.mark.parametrize(
    "text", ["{" * 5000, "f(" * 3000, "[{" * 3000, "[" * 5000 + "]" * 5000, '{"a": ' * 2000]
)
def test_pathological_brackets_give_no_calls(text: str) -> None:
    # Bracket matching is cached per text, so these stay linear (pytest-timeout guards it).
    assert parse_tool_calls(text) == []
