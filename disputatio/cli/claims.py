"""Claims of a final answer in the terminal, and the JSON object scripts read.

Every answering command (``query``, ``ask``, ``referee``, ``rdc run``) shows its answer claim
by claim: a verdict mark, the claim with its citations, and for a supported claim the sentence
that supports it with its source. Dropped claims (unsupported or uncited, left out of the
answer) are listed apart, struck through. One summary line says how many factual claims are
supported; nothing else on the screen implies that the answer was verified.

With ``--json`` the commands print :func:`verdict_json`: the object ``GET /debate/{id}/verdict``
answers (:func:`disputatio.api.schemas.verdict_body`), so scripts read claims, not boxes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from disputatio.validators.claim_kinds import without_label

#: Verdict → (mark, style, word). ``None`` is a claim that states nothing to check.
MARKS: dict[str | None, tuple[str, str, str]] = {
    "supported": ("✓", "green", "supported"),
    "unsupported": ("✗", "red", "unsupported"),
    "uncited": ("?", "yellow", "uncited"),
    "not_found": ("∅", "cyan", "not found"),
    None: ("·", "dim", "not a factual claim"),
}
#: Characters of a supporting sentence shown under its claim.
EVIDENCE_CHARS = 160
#: Verdicts of factual claims that were judged against a sentence.
_JUDGED = ("supported", "unsupported", "uncited")


#: A MedRAG answer's option marker (``\\boxed{A}``), before or after the claim's text.
_BOXED_RE = re.compile(r"\s*\\boxed\{[^{}\n]{0,40}\}\s*")


def shown_text(claim: Mapping[str, Any]) -> str:
    """The claim's text as shown: without a leading ``Verdict:`` / ``Support:`` label.

    A MedRAG answer's option marker (boxed A) goes too.

    The writers head their answer "Verdict: …" and their list "Support:"; the label is the
    answer's layout, not part of the claim (the JSON keeps the text as judged).
    """
    text = _BOXED_RE.sub(" ", str(claim.get("text") or "")).strip()
    return without_label(text)


def is_bare_label(claim: Mapping[str, Any]) -> bool:
    """A piece that is only a label ("Support:"), which states nothing and is not shown."""
    return claim.get("verdict") is None and not shown_text(claim).strip(" .:")


def _short(value: Any, width: int) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _cited(claim: Mapping[str, Any]) -> str:
    """The claim's shown text with its citations before the closing punctuation."""
    text = shown_text(claim).rstrip()
    ids = [str(c) for c in claim.get("citations") or []]
    if not ids:
        return text
    end = len(text.rstrip(".!?:;"))
    return f"{text[:end]} [{', '.join(ids)}]{text[end:]}"


def source_index(values: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """Section id → its section (or citation) dict, from a result's sections and citations."""
    found: dict[str, Mapping[str, Any]] = {}
    sections = values.get("sections") or {}
    items = sections.values() if isinstance(sections, Mapping) else sections
    for item in list(items) + list(values.get("citations") or []):
        if isinstance(item, Mapping) and item.get("id") is not None:
            found.setdefault(str(item["id"]), item)
    return found


def _where(section_id: str, sources: Mapping[str, Mapping[str, Any]]) -> str:
    sec = sources.get(section_id) or {}
    name = Path(str(sec.get("source") or "")).name
    page = f" p.{sec['page']}" if sec.get("page") not in (None, "") else ""
    return f"{name}{page}" if name else f"[{section_id}]"


def claim_lines(
    claim: Mapping[str, Any], sources: Mapping[str, Mapping[str, Any]] | None = None
) -> list[Text]:
    """One claim as terminal lines: mark, text and citations; its evidence or reason below.

    Model text goes in as plain text: ``[section-id]`` citations are never rich markup.
    """
    sources = sources or {}
    verdict = claim.get("verdict")
    mark, style, word = MARKS.get(verdict, MARKS[None])
    dropped = bool(claim.get("dropped"))
    line = Text(f" {mark} ", style=f"bold {style}")
    line.append(_cited(claim), style="dim strike" if dropped else "")
    if claim.get("attributed"):
        line.append(" (attributed)", style="italic")
    lines = [line]
    evidence = [claim.get("evidence") or {}, *(claim.get("more_evidence") or [])]
    if verdict == "supported" and evidence[0].get("sentence"):
        for item in evidence:
            sentence = _short(item.get("sentence") or "", EVIDENCE_CHARS)
            where = _where(str(item.get("section_id") or ""), sources)
            lines.append(Text(f"     “{sentence}” — {where}", style="dim"))
    elif verdict in ("unsupported", "uncited") or (dropped and claim.get("reason")):
        lines.append(Text(f"     {word}: {claim.get('reason') or ''}".rstrip(": "), style="dim"))
    return lines


def support_line(claims: Sequence[Mapping[str, Any]]) -> str:
    """How many factual claims are supported, e.g. ``support: 3 of 4 claims supported; 1 dropped``.

    Claims that state nothing to check are not counted; an answer that only says the documents
    do not answer says so; no claims at all means the answer was not checked.
    """
    judged = [c for c in claims if c.get("factual", True) and c.get("verdict") in _JUDGED]
    if not judged:
        if any(c.get("verdict") == "not_found" for c in claims):
            return "support: the documents do not answer (no factual claim is made)"
        return "support: not checked (no claims were judged)"
    supported = sum(1 for c in judged if c.get("verdict") == "supported")
    noun = "claim" if len(judged) == 1 else "claims"
    line = f"support: {supported} of {len(judged)} {noun} supported"
    dropped = sum(1 for c in claims if c.get("dropped"))
    attributed = sum(1 for c in judged if c.get("attributed"))
    kept = sum(1 for c in judged if c.get("verdict") != "supported" and not c.get("dropped"))
    if dropped:
        line += f"; {dropped} dropped"
    if kept:
        line += f"; {kept} kept unsupported"
    if attributed:
        line += f"; {attributed} attributed by the checker"
    return line


def render_claims(
    claims: Sequence[Mapping[str, Any]],
    console: Console,
    *,
    sources: Mapping[str, Mapping[str, Any]] | None = None,
    title: str = "answer, claim by claim",
    dropped_title: str = "dropped (not in the answer):",
) -> None:
    """Print the claims (kept ones, then the dropped ones) and the support line.

    Claims answering several parts of the question (sub-questions, a referee's option and
    axis) are shown under one heading per part, parts in the order they first come and
    claims that name no part last; within a part, in the answer's order.
    """
    console.rule(title)
    parts = len({c.get("part") for c in claims}) > 1
    kept = [c for c in claims if not c.get("dropped")]
    dropped = [c for c in claims if c.get("dropped")]
    _print_claims(kept, console, sources, parts)
    if dropped:
        console.print(Text(dropped_title, style="dim"))
        _print_claims(dropped, console, sources, parts)
    console.print(Text(support_line(claims), style="bold"))


def render_case_claims(values: Mapping[str, Any], console: Console, title: str) -> None:
    """Print a debate case's claims (referee, RDC), each judged against its sections, if any."""
    if values.get("claims"):
        render_claims(
            values["claims"],
            console,
            sources=source_index(values),
            title=title,
            dropped_title="not supported by the sections they cite:",
        )


def _print_claims(
    claims: Sequence[Mapping[str, Any]],
    console: Console,
    sources: Mapping[str, Mapping[str, Any]] | None,
    parts: bool,
) -> None:
    claims = [c for c in claims if not is_bare_label(c)]
    if parts:  # each part's claims together, parts in the order they first come
        first: dict[Any, int] = {}
        for i, claim in enumerate(claims):
            first.setdefault(claim.get("part"), i)
        first[None] = len(claims)  # claims naming no part last: "(whole question)"
        claims = sorted(claims, key=lambda c: first[c.get("part")])
    last: Any = object()
    for claim in claims:
        if parts and claim.get("part") != last:
            last = claim.get("part")
            console.print(Text(f"  {last or '(whole question)'}", style="bold dim"))
        for line in claim_lines(claim, sources):
            console.print(line)


def plain(value: Any) -> Any:
    """``value`` with pydantic models dumped, for JSON."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def verdict_json(protocol: str, case_id: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """The verdict of a finished run in the shape of ``GET /debate/{id}/verdict``."""
    from disputatio.api.schemas import verdict_body

    return verdict_body(protocol, case_id, plain(dict(values)))


def echo_json(value: Any) -> None:
    """Print one JSON object on stdout (nothing else goes there with ``--json``)."""
    typer.echo(json.dumps(value, indent=2, ensure_ascii=False, default=str))
