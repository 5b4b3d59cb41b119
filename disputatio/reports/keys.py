"""Markdown for the referee's rendering keys (``_Table{…}``, ``_Poll{…}``, ``_Score{…}``).

The key grammar and parser live in :mod:`disputatio.state.referee_keys`; this module turns a
text carrying keys into Markdown: a table key becomes a Markdown table, a poll key a table with
bars, a score key one line of ``option score/10``. Text around the keys is kept as is.
"""

from __future__ import annotations

from disputatio.state.referee_keys import (
    KeySyntaxError,
    PollKey,
    ScoreKey,
    TableKey,
    split_keys,
)

#: Width in characters of the longest bar of a poll.
BAR_WIDTH = 20


def _cell(value: object) -> str:
    return " ".join(str(value).split()).replace("|", "\\|")


def _num(value: float) -> str:
    return f"{value:g}" if float(value).is_integer() else f"{value:.2f}"


def key_markdown(key: ScoreKey | PollKey | TableKey) -> str:
    """One key as Markdown."""
    if isinstance(key, ScoreKey):
        parts = " · ".join(f"{_cell(v.name)} {_num(v.value)}/10" for v in key.values)
        return f"**{_cell(key.axis)}**: {parts}"
    if isinstance(key, PollKey):
        top = max((v.value for v in key.values), default=0.0) or 1.0
        rows = [
            f"| {_cell(v.name)} | {_num(v.value)} | "
            f"{'█' * max(round(BAR_WIDTH * v.value / top), 0) if v.value > 0 else ''} |"
            for v in key.values
        ]
        return "\n".join([f"| option | {_cell(key.title)} | |", "| :--- | ---: | :--- |", *rows])
    width = max(len(r) for r in key.rows)
    grid = [r + [""] * (width - len(r)) for r in key.rows]
    lines = ["| " + " | ".join(_cell(c) for c in grid[0]) + " |"]
    lines.append("| " + " | ".join([":---"] + ["---:"] * (width - 1)) + " |")
    lines += ["| " + " | ".join(_cell(c) for c in r) + " |" for r in grid[1:]]
    return "\n".join(lines)


def keys_markdown(text: str) -> str:
    """``text`` with every key replaced by its Markdown (blank lines around block keys).

    A malformed key is left as text (with a note) rather than failing the report.
    """
    try:
        segments = split_keys(text)
    except KeySyntaxError as exc:
        return f"{text}\n\n> note: rendering keys not parsed ({exc})"
    out: list[str] = []
    for seg in segments:
        if isinstance(seg, str):
            out.append(seg)
        elif isinstance(seg, ScoreKey):
            out.append(key_markdown(seg))
        else:
            out.append("\n" + key_markdown(seg) + "\n")
    return "".join(out)
