"""Find the tool calls that small local models write as text instead of native tool calls.

Small models served by llama.cpp (e.g. Qwen2.5-Coder 0.5B/1.5B) often leave
``AIMessage.tool_calls`` empty and write the call into ``content`` instead, as any of::

    <tool_call>{"name": "retrieve", "arguments": {"query": "aspirin"}}</tool_call>
    ```json
    {"name": "retrieve", "parameters": {"query": "aspirin"}}
    ```
    {"name": "retrieve", "args": {"query": "aspirin"}}
    retrieve("aspirin")
    [retrieve_corpus_sections(query="aspirin", k=5), retrieve("dose")]

:func:`parse_tool_calls` turns such text into LangChain ``ToolCall`` dicts and
:func:`strip_tool_calls` removes their text. This module only reads text; the message and
runnable glue is in :mod:`disputatio.models.toolcalls`.

Heuristics against false positives: JSON must carry an arguments key (``arguments``,
``parameters``, ``args``, ``input``...) or name a known tool, unless it sits inside a
``<tool_call>`` tag; a python-style call counts only inside a tag or code fence, when it is
alone on its line (list brackets, commas and a short ``Action:`` label allowed), or, with
``tool_names`` given, when it names a known tool and passes at least one argument.
"""

from __future__ import annotations

import ast
import json
import logging
import re
import warnings
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import ToolCall
from langchain_core.messages.tool import tool_call
from langchain_core.utils.json import parse_partial_json

logger = logging.getLogger(__name__)

_TAG_RE = re.compile(
    r"<(tool_call|function_call)>(.*?)(?:</\1>|(?=<(?:tool_call|function_call)>)|\Z)",
    re.S | re.I,
)
_FENCE_RE = re.compile(r"```[ \t]*[\w+-]*[ \t]*\n(.*?)(?:```|\Z)", re.S)
_JSON_START_RE = re.compile(r"\{(?=\s*[\"'])|\[(?=\s*\{)")
_CALL_START_RE = re.compile(r"(?<![\w.])((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)\(")
_CALL_LINE_RESIDUE_RE = re.compile(r"\s*(?:[A-Za-z][\w ]{0,20}:)?[\s\[\],;`]*")
_NAME_KEYS = ("name", "tool", "tool_name", "function")
_ARG_KEYS = ("arguments", "parameters", "args", "input", "tool_input", "kwargs")
_JSON_NAMES = {"true": True, "false": False, "null": None}
_PAIRS = {"(": ")", "[": "]", "{": "}"}


@dataclass(frozen=True)
class _Ctx:
    tool_names: frozenset[str] | None
    params: Mapping[str, Sequence[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class _Found:
    start: int
    end: int
    name: str
    args: dict[str, Any]


class _JsonNames(ast.NodeTransformer):
    """Turn JSON's ``true``/``false``/``null`` names into Python constants."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in _JSON_NAMES:
            return ast.copy_location(ast.Constant(_JSON_NAMES[node.id]), node)
        return node


def _literal(node: ast.AST) -> Any:
    return ast.literal_eval(_JsonNames().visit(node))


def _ast_parse(src: str) -> ast.expr | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes such as "\/" in JSON strings
            return ast.parse(src.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _loads(src: str, *, partial: bool = False) -> Any:
    """Parse JSON leniently, or return None.

    Tries strict JSON, then Python literals (single quotes, trailing commas, true/false/null),
    then, with ``partial``, truncated JSON.
    """
    src = src.strip()
    if not src:
        return None
    try:
        return json.loads(src, strict=False)
    except (ValueError, RecursionError):
        pass
    node = _ast_parse(src)
    if node is not None:
        try:
            return _literal(node)
        except (ValueError, TypeError, SyntaxError, RecursionError):
            pass
    if partial and src[0] in "{[":
        try:
            return parse_partial_json(src, strict=False)
        except ValueError:
            logger.debug("unparseable tool-call payload: %.80r", src)
    return None


class _Brackets:
    """Find closing brackets in one text, skipping quoted strings.

    Every opener met outside a string while scanning gets its answer cached (a fresh scan from
    it would see exactly the same characters), so scanning all openers stays linear.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.known: dict[int, int | None] = {}

    def end(self, start: int) -> int | None:
        """Index just past the bracket closing ``text[start]``, or None if it never closes."""
        if start in self.known:
            return self.known[start]
        text, stack, i = self.text, list[tuple[int, str]](), start
        quote: str | None = None
        while i < len(text):
            char = text[i]
            if quote is not None:
                if char == "\\":
                    i += 1  # skip the escaped character
                elif char == quote:
                    quote = None
            elif char in "\"'":
                quote = char
            elif char in _PAIRS:
                stack.append((i, _PAIRS[char]))
            elif char in ")]}":
                if not stack or stack[-1][1] != char:
                    break
                self.known[stack.pop()[0]] = i + 1
                if not stack:
                    return i + 1
            i += 1
        self.known.update((opener, None) for opener, _ in stack)
        return None


def _bind(name: str, positional: Sequence[Any], keywords: Mapping[str, Any], ctx: _Ctx) -> _Found:
    """Name positional arguments after the tool's parameters (``__arg1``... when unknown)."""
    params = ctx.params.get(name, ())
    args = {
        (params[i] if i < len(params) else f"__arg{i + 1}"): value
        for i, value in enumerate(positional)
    }
    args.update(keywords)
    return _Found(0, 0, name, args)


def _from_json(obj: Any, ctx: _Ctx, *, strict: bool) -> _Found | None:
    """A call from a ``{"name": ..., "arguments": ...}``-like dict (OpenAI shape too)."""
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("function"), dict):
        obj = obj["function"]
    name = next((obj[k] for k in _NAME_KEYS if isinstance(obj.get(k), str)), "")
    name = name.strip().rsplit(".", 1)[-1]
    if not name.isidentifier():
        return None
    arg_key = next((k for k in _ARG_KEYS if k in obj), None)
    known = ctx.tool_names is not None and name in ctx.tool_names
    if strict and arg_key is None and not known:
        return None
    raw = obj[arg_key] if arg_key is not None else {}
    if isinstance(raw, str) and raw.strip()[:1] in ("{", "["):
        decoded = _loads(raw, partial=True)
        raw = decoded if isinstance(decoded, dict | list) else raw
    if raw is None:
        return _bind(name, (), {}, ctx)
    if isinstance(raw, dict):
        return _bind(name, (), {str(k): v for k, v in raw.items()}, ctx)
    return _bind(name, raw if isinstance(raw, list) else [raw], {}, ctx)


def _from_python(src: str, ctx: _Ctx) -> tuple[_Found, bool] | None:
    """A call from ``name(literal, key=literal)``; the flag says whether it has arguments."""
    node = _ast_parse(src)
    if not isinstance(node, ast.Call) or any(kw.arg is None for kw in node.keywords):
        return None
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    if not isinstance(name, str):
        return None
    try:
        positional = [_literal(arg) for arg in node.args]
        keywords = {str(kw.arg): _literal(kw.value) for kw in node.keywords}
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return None
    return _bind(name, positional, keywords, ctx), bool(positional or keywords)


def _mask(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def _scan_json(text: str, ctx: _Ctx, *, strict: bool) -> list[_Found]:
    found: list[_Found] = []
    pos = 0
    brackets = _Brackets(text)
    for match in _JSON_START_RE.finditer(text):
        start = match.start()
        end = brackets.end(start) if start >= pos else None
        if end is None:
            continue
        data = _loads(text[start:end])
        items = data if isinstance(data, list) else [data]
        calls = [c for c in (_from_json(item, ctx, strict=strict) for item in items) if c]
        if calls:
            found += [_Found(start, end, c.name, c.args) for c in calls]
            pos = end
    return found


def _line_extent(text: str, start: int, end: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    return line_start, len(text) if line_end < 0 else line_end + 1


def _scan_python(text: str, ctx: _Ctx, *, relaxed: bool) -> list[_Found]:
    candidates: list[tuple[int, int, _Found, bool]] = []
    brackets = _Brackets(text)
    for match in _CALL_START_RE.finditer(text):
        end = brackets.end(match.end() - 1)
        parsed = _from_python(text[match.start() : end], ctx) if end is not None else None
        if parsed is not None and end is not None:
            candidates.append((match.start(), end, *parsed))
    found: list[_Found] = []
    pos = 0
    for start, end, call, has_args in candidates:
        if start < pos:
            continue
        line_start, line_end = _line_extent(text, start, end)
        residue = text[line_start:line_end]
        for other_start, other_end, _, _ in candidates:
            if line_start <= other_start and other_end <= line_end:
                residue = _mask(residue, other_start - line_start, other_end - line_start)
        alone = _CALL_LINE_RESIDUE_RE.fullmatch(residue) is not None
        known = ctx.tool_names is not None and call.name in ctx.tool_names
        if relaxed or alone or (known and has_args):
            span = (line_start, line_end) if alone and not relaxed else (start, end)
            found.append(_Found(*span, call.name, call.args))
            pos = end
    return found


def _scan_region(text: str, ctx: _Ctx, *, strict: bool, relaxed: bool) -> list[_Found]:
    found = _scan_json(text, ctx, strict=strict)
    for call in found:
        text = _mask(text, call.start, call.end)
    return found + _scan_python(text, ctx, relaxed=relaxed)


def _payload_calls(body: str, ctx: _Ctx, *, strict: bool) -> list[_Found]:
    """Calls inside a ``<tool_call>`` tag or a code fence (a whole payload)."""
    data = _loads(body, partial=True)
    if isinstance(data, dict | list):
        items = data if isinstance(data, list) else [data]
        return [c for c in (_from_json(item, ctx, strict=strict) for item in items) if c]
    return _scan_region(body, ctx, strict=strict, relaxed=True)


def _find_calls(text: str, ctx: _Ctx) -> list[_Found]:
    found: list[_Found] = []
    masked = text
    for match in _TAG_RE.finditer(text):
        calls = _payload_calls(match.group(2), ctx, strict=False)
        found += [_Found(match.start(), match.end(), c.name, c.args) for c in calls]
        masked = _mask(masked, match.start(), match.end())
    for match in _FENCE_RE.finditer(masked):
        calls = _payload_calls(match.group(1), ctx, strict=True)
        found += [_Found(match.start(), match.end(), c.name, c.args) for c in calls]
        masked = _mask(masked, match.start(), match.end())
    found += _scan_region(masked, ctx, strict=True, relaxed=False)
    found.sort(key=lambda call: call.start)
    if ctx.tool_names is None:
        return found
    return [call for call in found if call.name in ctx.tool_names]


def _context(
    tool_names: Collection[str] | None, param_names: Mapping[str, Sequence[str]] | None
) -> _Ctx:
    if param_names is None and isinstance(tool_names, Mapping):
        param_names = tool_names
    names = None if tool_names is None else frozenset(tool_names)
    return _Ctx(names, dict(param_names or {}))


def parse_tool_calls(
    text: str,
    tool_names: Collection[str] | None = None,
    *,
    param_names: Mapping[str, Sequence[str]] | None = None,
) -> list[ToolCall]:
    """Extract the tool calls a model wrote as text.

    Args:
        text: The model's text output.
        tool_names: Names of the available tools; calls to other names are dropped and
            python-style calls to these names are also found inline in prose. ``None`` accepts
            any name. A mapping ``{tool_name: [param names in order]}`` also serves as
            ``param_names``.
        param_names: Parameter names of each tool in order, used to name positional
            arguments; positional arguments of unknown tools become ``__arg1``, ``__arg2``...

    Returns:
        ``ToolCall`` dicts in text order with ids ``call_0``, ``call_1``...; ``[]`` when the text
        holds no call.
    """
    if not isinstance(text, str) or not text.strip():
        return []
    calls = _find_calls(text, _context(tool_names, param_names))
    return [tool_call(name=c.name, args=c.args, id=f"call_{i}") for i, c in enumerate(calls)]


def strip_tool_calls(text: str, tool_names: Collection[str] | None = None) -> str:
    """Remove the text of the tool calls :func:`parse_tool_calls` finds.

    Args:
        text: The model's text output.
        tool_names: As in :func:`parse_tool_calls`; calls to other names are left in place.

    Returns:
        The remaining text, with runs of blank lines collapsed and outer whitespace stripped.
    """
    if not isinstance(text, str) or not text.strip():
        return text
    kept = ""
    pos = 0
    for call in [*_find_calls(text, _context(tool_names, None)), _Found(len(text), 0, "", {})]:
        piece = text[pos : call.start] if call.start > pos else ""
        kept += piece.lstrip(" \t") if kept.endswith((" ", "\t")) else piece
        pos = max(pos, call.end)
    return re.sub(r"\n[ \t]*\n(?:[ \t]*\n)+", "\n\n", kept).strip()
