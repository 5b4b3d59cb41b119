"""The retriever interface every agent uses, and how sections are shown to a model.

Any object with a ``search`` method of this shape is a :class:`CorpusRetriever`: the Postgres
funnel, the in-process funnel, or a test double. Agents receive one through their runtime
context and never build it themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol, runtime_checkable
from xml.sax.saxutils import quoteattr

from disputatio.state.retrieval import RetrievalResult, Section


@dataclass(frozen=True)
class RetrievalFilters:
    """Scope of a search; every channel honours it.

    Attributes:
        tenant: Tenant to search (``None`` = the retriever's default scope's tenant, see
            :func:`in_scope`).
        collections: Collections to search (``None`` = all of the tenant).
        tags: Only documents carrying all of these tags (``None`` = no tag filter).
        language: Language of the query, an ISO 639-1 code or a text-search configuration
            name (:mod:`disputatio.retrievers.languages`): the Postgres lexical channel analyses
            the query with that language's configuration only (``None`` = with every
            configuration the tenant's documents were indexed with). Not a filter: documents
            of every language stay searchable. The in-process funnel does not stem and
            ignores it.
    """

    tenant: str | None = None
    collections: tuple[str, ...] | None = None
    tags: tuple[str, ...] | None = None
    language: str | None = None


def in_scope(filters: RetrievalFilters | None, default: RetrievalFilters) -> RetrievalFilters:
    """The scope of one search: ``filters`` or ``default``, in ``default``'s tenant by default.

    A retriever resolves its default scope's tenant once, when it is built; its searches go
    through here, so a search naming no tenant (``filters`` None, or without a tenant) runs in
    that tenant, never in every tenant.
    """
    scope = filters or default
    return scope if scope.tenant is not None else replace(scope, tenant=default.tenant)


@runtime_checkable
class CorpusRetriever(Protocol):
    """Search a corpus and return cited sections (or a refusal)."""

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        threshold: float | None = None,
        filters: RetrievalFilters | None = None,
    ) -> RetrievalResult:
        """Return up to ``k`` sections for ``query``.

        Args:
            query: The question or search text.
            k: Sections wanted (default: the retriever's setting).
            threshold: Refusal threshold on the best rerank score (default: setting).
            filters: Tenant/collection/tag scope.
        """
        ...


def format_sections(
    sections: list[Section], max_chars: int | None = None, labels: list[str] | None = None
) -> str:
    """Render sections for a prompt as XML-tagged blocks agents can cite by id.

    Args:
        sections: Sections to show, best first.
        max_chars: Show at most this many characters of each section: its head, or, when the
            section's best matched child lies beyond them, the part around that child
            (:func:`excerpt`).
        labels: Short ids to show instead of the section ids (e.g. ``S1``, ``S2``: small
            models copy short labels far more reliably than 24-character hashes).

    Returns:
        ``<section id="..." source="..." page="...">text</section>`` blocks, one per line group.
    """
    blocks = []
    for i, s in enumerate(sections):
        text = s.text if max_chars is None else excerpt(s, max_chars)
        shown = labels[i] if labels else s.id
        attrs = f"id={quoteattr(shown)} source={quoteattr(s.source.rsplit('/', 1)[-1])}"
        if s.page is not None:
            attrs += f' page="{s.page}"'
        if s.heading_path:
            attrs += f" heading={quoteattr(' / '.join(s.heading_path))}"
        body = text.replace("</section>", "</ section>")  # raw text reads best; keep tags intact
        blocks.append(f"<section {attrs}>\n{body}\n</section>")
    return "\n".join(blocks)


def excerpt(section: Section, max_chars: int) -> str:
    """At most ``max_chars`` characters of ``section``'s text, holding its best match.

    The head of the text when it holds the best matched child (``section.spans[0]``) or no
    span is known; otherwise the text around that child, from the start of its line where
    that fits, marked ``…`` where it is cut. A debate that showed a long section's first 1,500
    characters had its workers say "not mentioned" of the paragraph the search had found
    further down (docs/grounding.md, "The hierarchical debate on the two-part questions").
    """
    text = section.text
    span = next((s for s in section.spans if 0 <= s[0] < s[1] <= len(text)), None)
    if len(text) <= max_chars or span is None or span[1] <= max_chars:
        return text[:max_chars]
    first, last = span
    start = max(0, min(first - max(0, max_chars - (last - first)) // 2, len(text) - max_chars))
    line = text.find("\n", start, first)  # start at a line's start
    start = line + 1 if line >= 0 else start
    start += len(text[start:first]) - len(text[start:first].lstrip())
    end = min(len(text), start + max_chars)
    return ("… " if start else "") + text[start:end] + (" …" if end < len(text) else "")
