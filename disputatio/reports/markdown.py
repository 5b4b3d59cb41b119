"""The Tech Referee result as a Markdown report: recommendation, comparison table, evidence."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from disputatio.reports.keys import keys_markdown
from disputatio.state.referee import (
    Brief,
    CrossExamination,
    Plan,
    RefereeResult,
    Ruling,
    SourceRef,
)

DASH = "–"


def cell(value: object) -> str:
    """Text safe inside a Markdown table cell (pipes escaped, one line)."""
    return " ".join(str(value).split()).replace("|", "\\|")


def table(header: list[str], rows: Iterable[list[str]], align: str | None = None) -> list[str]:
    """A Markdown table; ``align`` has one ``l``/``r`` per column (default: all left)."""
    marks = [":---" if a == "l" else "---:" for a in (align or "l" * len(header))]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(marks) + " |"]
    return lines + ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]


def comparison_table(plan: Plan, ruling: Ruling | None) -> list[str]:
    """Axes × options scores, then the weighted score and weighted sum computed in code."""
    options = [o.name for o in plan.options]
    cells = {(s.option, s.axis): s.score for s in ruling.scores} if ruling else {}
    rows = [
        [a.name, str(a.weight), *[str(cells.get((o, a.name), DASH)) for o in options]]
        for a in plan.axes
    ]
    if ruling is not None:
        totals = {t.option: t for t in ruling.totals}
        rows.append(
            ["**Weighted score** (1-10)", "", *[_total(totals.get(o), "score") for o in options]]
        )
        total_weight = str(sum(a.weight for a in plan.axes))
        rows.append(
            [
                "Weighted sum (Σ weight × score)",
                total_weight,
                *[_total(totals.get(o), "sum") for o in options],
            ]
        )
    return table(["Axis", "Weight", *options], rows, "lr" + "r" * len(options))


def _total(total: Any, kind: str) -> str:
    if total is None:
        return DASH
    text = f"**{total.weighted_score:.2f}**" if kind == "score" else f"{total.weighted_sum:g}"
    return text if total.complete else f"{text} (partial)"


def per_axis(plan: Plan, ruling: Ruling) -> list[str]:
    """One subsection per axis with each option's score and the referee's rationale."""
    lines: list[str] = []
    for axis in plan.axes:
        lines += ["", f"### {axis.name} (weight {axis.weight}/10)", ""]
        if axis.description:
            lines += [axis.description, ""]
        for s in (s for s in ruling.scores if s.axis == axis.name):
            lines.append(
                f"- **{s.option}**: {s.score}/10" + (f" — {s.rationale}" if s.rationale else "")
            )
    return lines


def verdict_section(ruling: Ruling) -> list[str]:
    """Recommendation, confidence, leader by weighted score, trade-offs and caveats."""
    lines = [f"**{ruling.recommendation or DASH}** (confidence: {ruling.confidence})", ""]
    if ruling.leader:
        lines.append(f"Best weighted score: **{ruling.leader}**.")
    if ruling.overridden_by:
        lines.append(f"Recommended over the totals because of: *{ruling.overridden_by}*.")
    if ruling.missing_cells:
        lines.append(f"Cells never scored: {', '.join(ruling.missing_cells)}.")
    if ruling.trade_offs:
        lines += ["", "### Trade-offs", ""]
        lines += [
            f"- If {t.if_matters} matters, choose **{t.choose}**"
            + (f" — {t.because}" if t.because else "")
            for t in ruling.trade_offs
        ]
    if ruling.caveats:
        lines += ["", "### Caveats", ""] + [f"- {c}" for c in ruling.caveats]
    return lines


def sources_section(r: RefereeResult) -> list[str]:
    """Every cited section once: ``[id]`` title, document (path or URL) and a quote."""
    refs: dict[str, SourceRef] = {}
    for b in r.briefs:
        refs.update((s.id, s) for s in b.evidence)
    for e in r.cross_examinations:
        refs.update((s.id, s) for s in e.evidence)
    lines = []
    for ref in refs.values():
        title = f" {ref.title} —" if ref.title else ""
        where = f" {ref.source}" if ref.source else ""
        quote = f': "{ref.quote}"' if ref.quote else ""
        lines.append(f"- [{ref.id}]{title}{where}{quote}")
    return lines


def limitations_section(r: RefereeResult) -> list[str]:
    """What the run had to do without (failed searches), per agent."""
    return [f"- {w.agent or DASH}: {w.message}" for w in r.warnings]


def cases(briefs: list[Brief]) -> list[str]:
    """Each advocate's case: summary, cited claims (uncited ones flagged), weaknesses."""
    lines: list[str] = []
    for b in briefs:
        lines += ["", f"### {b.option} ({b.agent})", ""]
        if b.summary:
            lines += [b.summary, ""]
        for c in b.claims:
            refs = " ".join(f"[{i}]" for i in c.citations) if c.cited else "⚠ uncited"
            lines.append(f"- `{c.id}` ({c.axis}) {c.text} — {refs}")
        lines += [f"- constraint *{n.constraint}*: {n.assessment}" for n in b.constraints]
        lines += [f"- weakness: {w}" for w in b.weaknesses]
        if b.missing_axes:
            lines.append(f"- axes not addressed: {', '.join(b.missing_axes)}")
    return lines


def examinations(exams: list[CrossExamination]) -> list[str]:
    """A table of fact-check verdicts, then each examiner's defense."""
    rows = [
        [
            e.option,
            f"{c.claim_id}: {c.claim}",
            c.verdict,
            " ".join(f"[{i}]" for i in c.citations) or DASH,
            ", ".join(c.sources) or DASH,
        ]
        for e in exams
        for c in e.checks
    ]
    lines = table(["Examiner for", "Claim", "Verdict", "Evidence", "Sources"], rows)
    for e in exams:
        if e.defense:
            lines.append(f"\n**Defense of {e.option}:** {e.defense}")
    return lines


def usage_table(usage: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Per-agent calls, tokens and latency."""
    rows = [
        [
            agent,
            str(rec.get("role", "")),
            str(rec.get("calls", 0)),
            str(rec.get("input_tokens", 0)),
            str(rec.get("output_tokens", 0)),
            f"{float(rec.get('latency_ms', 0.0)) / 1000:.1f}",
        ]
        for agent, rec in usage.items()
    ]
    return table(
        ["Agent", "Role", "Calls", "Input tokens", "Output tokens", "Latency (s)"], rows, "llrrrr"
    )


def render_referee_markdown(result: RefereeResult | Mapping[str, Any]) -> str:
    """Render a referee result (the graph output or a :class:`RefereeResult`) as Markdown."""
    r = result if isinstance(result, RefereeResult) else RefereeResult.model_validate(result)
    lines = [f"# Tech Referee: {r.query}", ""]
    lines.append(
        f"Status: **{r.status}** — phases completed: {', '.join(r.completed_phases) or 'none'}"
    )
    if r.error is not None:
        lines += ["", f"> **{r.error.code}**: {r.error.message}"]
    if r.ruling is not None:
        lines += ["", "## Recommendation", "", *verdict_section(r.ruling)]
        if r.ruling.rendered:
            lines += ["", "## Verdict", "", keys_markdown(r.ruling.rendered)]
    if r.plan is not None:
        lines += ["", "## Comparison", "", *comparison_table(r.plan, r.ruling)]
        constraints = r.plan.constraints.items()
        if constraints:
            lines += ["", "## Constraints", ""] + [f"- {c}" for c in constraints]
        if r.plan.notes:
            lines += [""] + [f"> note: {n}" for n in r.plan.notes]
        if r.plan.dropped_options:
            lines += ["", f"Options not compared (cap): {', '.join(r.plan.dropped_options)}"]
    if r.plan is not None and r.ruling is not None:
        lines += ["", "## Per-axis scores", *per_axis(r.plan, r.ruling)]
    if r.briefs:
        lines += ["", "## Cases", *cases(r.briefs)]
    if r.cross_examinations:
        lines += ["", "## Cross-examination", "", *examinations(r.cross_examinations)]
    sources = sources_section(r)
    if sources:
        lines += ["", "## Sources", "", *sources]
    if r.warnings:
        lines += ["", "## Limitations", "", *limitations_section(r)]
    if r.clarifications:
        lines += ["", "## Clarifications", ""]
        lines += [f"- {a.question} — {_answer(a.answer)}" for a in r.clarifications]
    if r.usage:
        lines += ["", "## Usage", "", *usage_table(r.usage)]
    return "\n".join(lines) + "\n"


def _answer(answer: str | list[str]) -> str:
    text = ", ".join(answer) if isinstance(answer, list) else answer
    return text or "(no answer)"
