r"""Custom rendering keys of the Tech Referee: ``_Table{…}``, ``_Poll{…}``, ``_Score{…}``.

The referee's output text (``Ruling.rendered``) carries these keys inline; a page or a report
replaces each key by a widget (a table, a bar poll, a score row) and shows the rest as text.
This module is pure (no imports of ours): the key grammar, a renderer, a parser and a JSON form.

Grammar (whitespace is kept as written; a key never spans a line in the referee's text)::

    key     := "_Table{" row (";" row)* "}"          first row = header
             | "_Poll{" title ":" pair ("," pair)* "}"
             | "_Score{" axis ":" pair ("," pair)* "}"
    row     := cell ("|" cell)*
    pair    := name "=" number
    number  := "-"? digits ("." digits)? (("e"|"E") ("+"|"-")? digits)?   (Python float repr)
    cell, title, axis, name := any characters, where each of  \ { } | ; : , =  is written
                               with a backslash before it (``C++`` needs none; ``a\,b`` does)

Examples::

    _Score{latency:pgvector=6,FAISS=9}
    _Poll{weighted score:pgvector=6.82,FAISS=7.64}
    _Table{Axis|Weight|pgvector|FAISS;latency|8|6|9;operations|3|9|4}

JSON form (``key.model_dump()``, also ``keys_json(text)``), one object per key, discriminated
by ``type``::

    {"type": "score", "axis": "latency", "values": [{"name": "pgvector", "value": 6.0}, ...]}
    {"type": "poll", "title": "weighted score", "values": [{"name": ..., "value": ...}, ...]}
    {"type": "table", "rows": [["Axis", "Weight", ...], ["latency", "8", ...]]}

Round trip (tested as a property): ``parse_keys(render_key(k)) == [k]`` for every key whose
numbers are finite, and ``render_text(split_keys(t)) == t`` for every text ``t``.
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

#: Characters escaped with a backslash inside a key.
SPECIAL = "\\{}|;:,="
_NUMBER_RE = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_OPEN_RE = re.compile(r"_(Table|Poll|Score)\{")


class KeyValue(BaseModel):
    """One ``name=value`` pair of a poll or a score key."""

    name: str
    value: float


class ScoreKey(BaseModel):
    """``_Score{axis:opt=N,…}``: every option's score (1-10) on one axis."""

    type: Literal["score"] = "score"
    axis: str
    values: list[KeyValue] = Field(min_length=1)


class PollKey(BaseModel):
    """``_Poll{title:opt=X,…}``: one number per option (the referee: weighted scores)."""

    type: Literal["poll"] = "poll"
    title: str
    values: list[KeyValue] = Field(min_length=1)


class TableKey(BaseModel):
    """``_Table{h1|h2;c1|c2}``: a table whose first row is the header."""

    type: Literal["table"] = "table"
    rows: list[Annotated[list[str], Field(min_length=1)]] = Field(min_length=1)


RenderKey = Annotated[ScoreKey | PollKey | TableKey, Field(discriminator="type")]


class KeySyntaxError(ValueError):
    """A key starts (``_Score{``…) but does not follow the grammar."""


def escape(text: str) -> str:
    """Backslash every special character of ``text``."""
    return "".join("\\" + ch if ch in SPECIAL else ch for ch in text)


def _number(value: float) -> str:
    if not math.isfinite(value):
        raise ValueError(f"a key holds finite numbers only, not {value!r}")
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


def _pairs(values: list[KeyValue]) -> str:
    return ",".join(f"{escape(v.name)}={_number(v.value)}" for v in values)


def render_key(key: ScoreKey | PollKey | TableKey) -> str:
    """The key's text form (see the module grammar)."""
    if isinstance(key, ScoreKey):
        return f"_Score{{{escape(key.axis)}:{_pairs(key.values)}}}"
    if isinstance(key, PollKey):
        return f"_Poll{{{escape(key.title)}:{_pairs(key.values)}}}"
    return "_Table{" + ";".join("|".join(escape(c) for c in row) for row in key.rows) + "}"


def _scan(text: str, start: int) -> tuple[list[list[tuple[str, str]]], int]:
    """Read a key body from ``start`` (just after ``{``) to its ``}``.

    Returns the body as rows (split at ``;``) of cells (split at ``|`` and ``,``); each
    cell is ``(separator_before, unescaped_text)`` with ``:`` and ``=`` kept as cells of their
    own, and the index after the closing brace.
    """
    rows: list[list[tuple[str, str]]] = [[]]
    buf: list[str] = []
    sep = ""
    i = start
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            if i + 1 >= len(text):
                break
            buf.append(text[i + 1])
            i += 2
            continue
        if ch == "{":
            raise KeySyntaxError(f"unescaped '{{' inside a key at {i}")
        if ch in "}|;,:=":
            rows[-1].append((sep, "".join(buf)))
            buf, sep = [], ch
            if ch == "}":
                return rows, i + 1
            if ch == ";":
                rows.append([])
                sep = ""
        else:
            buf.append(ch)
        i += 1
    raise KeySyntaxError(f"key opened at {start - 1} is never closed")


def _parse_pairs(kind: str, cells: list[tuple[str, str]]) -> tuple[str, list[KeyValue]]:
    if len(cells) < 3 or cells[1][0] != ":":
        raise KeySyntaxError(f"_{kind} needs 'label:name=value,…'")
    label = cells[0][1]
    values = []
    rest = cells[1:]
    if len(rest) % 2:
        raise KeySyntaxError(f"_{kind}: every name needs '=value'")
    for j in range(0, len(rest), 2):
        (sep_name, name), (sep_value, value) = rest[j], rest[j + 1]
        if sep_name != (":" if j == 0 else ",") or sep_value != "=":
            raise KeySyntaxError(f"_{kind}: expected 'name=value' pairs separated by ','")
        if not _NUMBER_RE.fullmatch(value):
            raise KeySyntaxError(f"_{kind}: {value!r} is not a number")
        values.append(KeyValue(name=name, value=float(value)))
    return label, values


def _build(kind: str, rows: list[list[tuple[str, str]]]) -> ScoreKey | PollKey | TableKey:
    if kind == "Table":
        out = []
        for row in rows:
            if any(sep in ",:=" and sep for sep, _ in row):
                raise KeySyntaxError("_Table cells are separated by '|' (escape ',', ':', '=')")
            out.append([cell for _, cell in row])
        return TableKey(rows=out)
    if len(rows) != 1:
        raise KeySyntaxError(f"_{kind} has no ';' (escape it)")
    label, values = _parse_pairs(kind, rows[0])
    if kind == "Score":
        return ScoreKey(axis=label, values=values)
    return PollKey(title=label, values=values)


def split_keys(text: str) -> list[str | ScoreKey | PollKey | TableKey]:
    """Split ``text`` into plain-text segments and parsed keys, in order.

    Raises:
        KeySyntaxError: A key is opened but malformed.
    """
    out: list[str | ScoreKey | PollKey | TableKey] = []
    pos = 0
    for m in _OPEN_RE.finditer(text):
        if m.start() < pos:
            continue
        rows, end = _scan(text, m.end())
        if m.start() > pos:
            out.append(text[pos : m.start()])
        out.append(_build(m.group(1), rows))
        pos = end
    if pos < len(text):
        out.append(text[pos:])
    return out


def parse_keys(text: str) -> list[ScoreKey | PollKey | TableKey]:
    """Every key in ``text``, in order (see :func:`split_keys`)."""
    return [s for s in split_keys(text) if not isinstance(s, str)]


def render_text(segments: list[str | ScoreKey | PollKey | TableKey]) -> str:
    """Join segments back into text (the inverse of :func:`split_keys`)."""
    return "".join(s if isinstance(s, str) else render_key(s) for s in segments)


def keys_json(text: str) -> list[dict[str, Any]]:
    """The keys of ``text`` in their JSON form."""
    return [k.model_dump(mode="json") for k in parse_keys(text)]
