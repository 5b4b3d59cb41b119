"""Evidence for the referee's agents: corpus (and web) search per query, and citation checks.

Small local models write tool calls as text and often badly, so agents do not call tools
themselves: the node searches on fixed queries (``"<option> <axis>"``, claim texts...) and
hands the sections to the model, which only has to cite their ids.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

from disputatio.nodes.referee.context import RefereeContext
from disputatio.retrievers.base import format_sections
from disputatio.state.referee import SourceRef
from disputatio.state.retrieval import Section
from disputatio.tools.retrieval import search_corpus
from disputatio.tools.web_search import results_to_sections

logger = logging.getLogger(__name__)

_BRACKET_RE = re.compile(r"\[([^\[\]]{1,80})\]")
_LABELS_RE = re.compile(r"\s*\[\s*S\d+(?:\s*,\s*S\d+)*\s*\]", re.I)
_STRIP = " \t\"'[]()<>"


def gather(
    ctx: RefereeContext, queries: Iterable[str], *, web: bool = False, first: Iterable[Section] = ()
) -> tuple[list[Section], list[str]]:
    """Search each query and interleave the hits (``first`` leads) up to ``ctx.max_sections``.

    Interleaving (best hit of every query, then the second best...) keeps every query, e.g.
    every axis, represented when the cap bites. Refused searches contribute nothing. A search
    that fails (or a web search that cannot be built) is noted, not raised: the agent goes on
    with the evidence it has.

    Returns:
        ``(sections, limitations)``: the sections, and one line per kind of search that failed.
    """
    limitations: list[str] = []

    def note(kind: str, exc: Exception) -> None:
        line = f"{kind} search failed ({_describe(exc)}); evidence from it is missing"
        if line not in limitations:
            limitations.append(line)
        logger.warning("%s", line)

    retriever = None
    try:
        retriever = ctx.get_retriever()
    except Exception as exc:
        note("corpus", exc)
    web_search = None
    if web:
        try:
            web_search = ctx.get_web_search()
        except Exception as exc:
            note("web", exc)
    lists: list[list[Section]] = [list(first)]
    for query in queries:
        if retriever is not None:
            try:
                result = search_corpus(retriever, query, k=ctx.k_per_query)
                lists.append([] if result.refused else list(result.sections))
            except Exception as exc:
                note("corpus", exc)
        if web_search is not None:
            try:
                lists.append(results_to_sections(web_search.search(query, k=ctx.web_k)))
            except Exception as exc:
                note("web", exc)
    found: dict[str, Section] = {}
    depth = max((len(x) for x in lists), default=0)
    for i in range(depth):
        for hits in lists:
            if i < len(hits) and len(found) < ctx.max_sections:
                found.setdefault(hits[i].id, hits[i])
    logger.debug("gathered %d sections for %d query lists", len(found), len(lists))
    return list(found.values()), limitations


def _describe(exc: BaseException) -> str:
    first = (str(exc).splitlines() or [""])[0][:160]
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def source_refs(sections: Iterable[Section], ids: Iterable[str]) -> list[SourceRef]:
    """The sections among ``sections`` whose id is in ``ids``, as citable sources (in id order)."""
    by_id = {s.id: s for s in sections}
    out: list[SourceRef] = []
    for sid in dict.fromkeys(ids):
        s = by_id.get(sid)
        if s is not None:
            out.append(
                SourceRef(
                    id=s.id,
                    source=str(s.source or ""),
                    title=str(s.title or ""),
                    quote=" ".join(s.text.split())[:200],
                )
            )
    return out


def labels(sections: list[Section]) -> list[str]:
    """Short labels ``S1``, ``S2``... shown instead of section ids.

    Small models copy short labels far more reliably than long hashes.
    """
    return [f"S{i + 1}" for i in range(len(sections))]


def citable(sections: list[Section]) -> dict[str, str]:
    """What an agent may cite, mapped to section ids: each label and each real id."""
    return {
        **{s.id: s.id for s in sections},
        **dict(zip(labels(sections), (s.id for s in sections), strict=True)),
    }


def render(sections: list[Section], ctx: RefereeContext) -> str:
    """Sections as ``<section id="S1">`` blocks, each cut to ``ctx.section_chars``."""
    text = format_sections(sections, max_chars=ctx.section_chars, labels=labels(sections))
    return text or "(no sections found)"


def strip_labels(text: str) -> str:
    """Remove ``[S1]``-style labels from a text (they only mean something to one agent)."""
    return _LABELS_RE.sub("", text).strip()


def clean_id(raw: str) -> str:
    """Strip brackets, quotes and an ``id=`` prefix from a cited id."""
    value = raw.strip(_STRIP)
    return value[3:].strip(_STRIP) if value.lower().startswith("id=") else value


def check_citations(
    cited: Iterable[str], text: str, allowed: dict[str, str]
) -> tuple[list[str], list[str]]:
    """Map cited labels/ids to the section ids the agent saw; report the others.

    Ids written in the text as ``[S1]`` count as cited too. Labels match case-insensitively.

    Args:
        cited: The citations the model listed.
        text: The claim text (bracketed ids in it count).
        allowed: :func:`citable` of the sections the agent saw.

    Returns:
        ``(valid, invalid)``: section ids, and cited strings that match nothing; each without
        duplicates, in order of appearance.
    """
    valid: list[str] = []
    invalid: list[str] = []
    for explicit, items in ((True, list(cited)), (False, _BRACKET_RE.findall(text))):
        for part in (p for raw in items for p in str(raw).split(",")):
            cid = clean_id(part)
            sid = allowed.get(cid) or allowed.get(cid.upper())
            if sid is not None:
                if sid not in valid:
                    valid.append(sid)
            elif explicit and cid and cid not in invalid:
                invalid.append(cid)
    return valid, invalid
