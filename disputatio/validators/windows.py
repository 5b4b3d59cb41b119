"""Evidence windows of the sections a claim may rest on: sentences, adjacent pairs, clauses.

:class:`Windows` cuts every shown section into the windows a support checker scores a claim
against, keeps each section's context (title, headings, file name, the names of its lead) and
finds the best-supported window for a claim, alone or across several cited sections.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from disputatio.state.claims import Evidence
from disputatio.validators.clause_windows import clauses_of
from disputatio.validators.guards import in_sentence
from disputatio.validators.headings import headings_in
from disputatio.validators.kinds import alternatives, kind_names, placed, quantified
from disputatio.validators.looks import nearest_reason, second_looks
from disputatio.validators.names import name_form, names
from disputatio.validators.sentences import (
    STOPWORDS,
    Span,
    split_sentences,
    words,
)
from disputatio.validators.subjects import longer_forms
from disputatio.validators.support import SupportChecker, SupportScore, coverage
from disputatio.validators.tables import is_row, readings

_COMMENT_RE = re.compile(r"<!--.*?-->", re.DOTALL)
#: A sentence whose subject is a pronoun: about what the sentence before it names.
_PRONOUN_OPENING_RE = re.compile(r"\W*(?:it|they|he|she|its|their|his|her)\b", re.I)


def _lead_names(opening: Sequence[Span]) -> list[str]:
    """The names of a document's opening sentences, their first words too.

    :func:`names` skips a sentence's first word (capitalised anyway); at a document's top it is
    mostly its subject: "HOLMVIK WATER AND WASTE - CUSTOMER SERVICE AND COMPLAINTS" names the
    company its owner line ("Owner: Customer Service Manager, Ingrid Solheim.") belongs to (u012,
    held-out set 8).
    """
    found = set(names(" ".join(s.sentence for s in opening)))
    for span in opening:
        first = words(span.sentence)[:1]
        if first and first[0][:1].isupper() and name_form(first[0]) not in STOPWORDS:
            found.add(name_form(first[0]))
    return sorted(found)


class Found(NamedTuple):
    """What :meth:`Windows.best` found for a claim."""

    #: One span per section the claim rests on; empty when none supports it.
    evidence: list[Evidence]
    #: Why none does ("" when found).
    reason: str
    #: The window the judge refused, when a veto is why (its score the checker's before the
    #: judge): what :func:`~disputatio.validators.verdicts.quoted` may show instead.
    refused: Evidence | None = None


class Windows:
    """Evidence windows of shown sections: sentences, adjacent pairs, clauses of long ones.

    A body row of a pipe table is read with its column headers
    (:func:`~disputatio.validators.tables.readings`); the evidence returned is still the
    section's own span (``text[start:end]``), never the reading.

    A window's context (where the names of a claim may also come from, never its numbers) is
    the section's title, headings, file name and the names in its first two sentences: a
    manual names its instrument up front and says "the battery pack" afterwards. ``titles``
    is the same without those names (what the section is about, not what its lead mentions).
    """

    def __init__(self, sections: Mapping[str, Mapping[str, Any]]) -> None:
        self.items: dict[str, list[tuple[int, int, str]]] = {}
        self.context: dict[str, str] = {}
        self.titles: dict[str, str] = {}
        #: The headings inside each section's text (:func:`headings_in`).
        self.inner: dict[str, list[tuple[int, str]]] = {}
        #: The names of the first sentence under each of those headings, by the heading's end.
        self.leads: dict[str, dict[int, str]] = {}
        #: Each window's context (:meth:`context_of`), in the order of ``items``.
        self.contexts: dict[str, list[str]] = {}
        #: Each section's text: the evidence shown is its span, not the window read.
        self.texts: dict[str, str] = {}
        #: The windows that are whole sentences (not pairs, not clauses), by section.
        self.sentences: dict[str, set[tuple[int, int]]] = {}
        #: The sentence each clause window stands in, by the clause's span, by section.
        self.whole: dict[str, dict[tuple[int, int], str]] = {}
        #: Each section's names by the prepositions before them (:func:`kinds.placed`), once.
        self._placed: dict[str, dict[str, set[str]]] = {}
        for sid, sec in sections.items():
            text = str(sec.get("text") or "")
            self.texts[sid] = text
            spans = split_sentences(text)
            rows = readings(spans)  # a table row is read with its column headers

            def read(span: Span, rows: dict[tuple[int, int], str] = rows) -> str:
                return rows.get((span.start, span.end), span.sentence)

            wins = [(s.start, s.end, read(s)) for s in spans]
            self.sentences[sid] = {(s.start, s.end) for s in spans}
            wins += [
                (a.start, b.end, f"{read(a)}\n{read(b)}")
                if (a.start, a.end) in rows or (b.start, b.end) in rows
                else (a.start, b.end, text[a.start : b.end])
                for a, b in itertools.pairwise(spans)
            ]
            clauses = [(c, s) for s in spans if not is_row(s.sentence) for c in clauses_of(s)]
            wins += [clause for clause, _ in clauses]
            self.whole[sid] = {(c[0], c[1]): s.sentence for c, s in clauses}
            self.items[sid] = wins
            heading = sec.get("heading_path") or []
            source = str(sec.get("source") or "").rsplit("/", 1)[-1]
            # a document names its subject up front: the names of its first two sentences (a
            # Markdown comment, "<!-- Invented content … -->", is not shown when it is read)
            opening = split_sentences(_COMMENT_RE.sub(" ", text)) if "<!--" in text else spans
            lead = _lead_names(opening[:2])
            self.titles[sid] = " ".join(
                [str(sec.get("title") or ""), *map(str, heading), source.rsplit(".", 1)[0]]
            )
            self.context[sid] = " ".join([self.titles[sid], *lead])
            self.inner[sid] = headings_in(text)
            self.leads[sid] = {
                end: " ".join(_lead_names([first]))
                for end, _ in self.inner[sid]
                for first in [next((sp for sp in spans if sp.start >= end), None)]
                if first is not None and not is_row(first.sentence)
            }
            self.contexts[sid] = [self.context_of(sid, win[0], win[1]) for win in wins]
        self._name_kinds()
        self._longer_names()

    def _name_kinds(self) -> None:
        """Add to a window's context the names of the kinds it speaks of as a whole.

        "either site" stands for the Wharf and the Station the shown sections name
        (:func:`~disputatio.validators.kinds.kind_names`): a claim about one of them may rest
        on it (ac030, held-out set 28).
        """
        shown = [*self.texts.values()]
        shown += [
            read
            for sid, wins in self.items.items()
            for start, end, read in wins
            if (start, end) in self.sentences[sid] and is_row(read)
        ]
        known: dict[str, set[str]] = {}  # each kind's members, found once
        for sid, wins in self.items.items():
            for k, (_, _, read) in enumerate(wins):
                if not quantified(read) or len(split_sentences(read)) > 1:
                    # a pair's other sentence may name its own: "Firewood is sold at Thornbeck
                    # … Barbecues are allowed at both parks" is not Heronmere's (s014, set 22)
                    continue
                extra = kind_names(read, shown, known)
                if extra:
                    self.contexts[sid][k] = f"{self.contexts[sid][k]} {extra}"

    def _longer_names(self) -> None:
        """Add to a window's context the longer form of a name it says short (:func:`longer_forms`).

        "| Building: Larkspur | … |" is about Larkspur House, the name the shown sections give
        it: a claim about "the Attic Room at Larkspur House" may rest on the row (ah004).
        """
        longer = longer_forms(self.texts.values())
        if not longer:
            return
        for sid, wins in self.items.items():
            for k, (_, _, read) in enumerate(wins):
                said = {name_form(w) for w in words(read) if w[:1].isupper()}
                folded = read.casefold()
                extra = [
                    name
                    for first, name in longer.items()
                    if first in said and name.casefold() not in folded
                ]
                if extra:
                    self.contexts[sid][k] = " ".join([self.contexts[sid][k], *extra])

    def context_of(self, section_id: str, start: int, end: int | None = None) -> str:
        """The context of a window of ``section_id`` from ``start`` (to ``end``).

        The section's context, the headings of its own text the window stands under
        (:meth:`heading_at`), and the names of the first sentence under the last of them: a
        subsection names its subject up front, as a document does ("## Swimming" / "At Orchard
        camps, the children go swimming … Please bring a swimming costume …": ab029, held-out
        set 27). Not when a heading ends inside the window: its sentences are under another
        heading ("Electric cars" / "Car Park A has 6 charging points …" is not about the
        Holloway of the shuttle bus's subsection before it: y011, held-out set 12). Nor when
        the window names a place of its own said as the lead's is ("at Thornbeck", "at
        Heronmere": :func:`~disputatio.validators.kinds.alternatives`).
        """
        ctx = self.context[section_id]
        heading_end, under = self._in_force(section_id, start) or (0, "")
        if not under:
            return ctx
        if end is not None and any(start < e <= end for e, _ in self.inner[section_id]):
            return f"{ctx} {under}"
        lead = self.leads[section_id].get(heading_end, "")
        if lead and end is not None:
            # a window naming a subject of its own is about it, not the lead's: "Firewood is
            # sold at Thornbeck reception …" under "FIRES AND BARBECUES" / "Open fires are
            # not allowed at Heronmere." is not Heronmere's (s014, held-out set 22)
            if section_id not in self._placed:
                self._placed[section_id] = placed(self.texts[section_id])
            led = set(lead.split())
            own = names(self.texts[section_id][start:end]) - led
            if alternatives(own, led, self._placed[section_id]):
                lead = ""
        return " ".join(t for t in (ctx, under, lead) if t)

    def heading_at(self, section_id: str, start: int) -> str:
        """The headings of ``section_id``'s own text in force at ``start`` (:func:`headings_in`)."""
        in_force = self._in_force(section_id, start)
        return in_force[1] if in_force else ""

    def _in_force(self, section_id: str, start: int) -> tuple[int, str] | None:
        """``(end, path)`` of the last heading of ``section_id``'s text ending by ``start``."""
        found = None
        for end, path in self.inner.get(section_id, ()):
            if end > start:
                break
            found = (end, path)
        return found

    def under(self, evidence: Evidence) -> tuple[str, str]:
        """The text under ``evidence``'s heading (to the next one) and what heads it.

        The whole section and its title when no heading of its own text is in force.
        """
        sid = evidence.section_id
        text = self.texts.get(sid, "")
        begin, path = self._in_force(sid, evidence.start) or (0, "")
        stop = next((end for end, _ in self.inner.get(sid, ()) if end > evidence.start), len(text))
        return text[begin:stop], f"{self.titles.get(sid, '')} {path}".strip()

    def reading(self, evidence: Evidence) -> str:
        """The text ``evidence``'s window was read as: a table row with its column headers."""
        for start, end, read in self.items.get(evidence.section_id, ()):
            if (start, end) == (evidence.start, evidence.end):
                return read
        return evidence.sentence

    def around(self, evidence: Evidence) -> str:
        """What ``evidence`` is about beyond its own words, for the relevance check.

        The whole sentence a clause stands in ("but it must be booked at reception at least 48
        hours ahead" is about the beach wheelchair its sentence names: s022, held-out set 22),
        and the sentence before one whose subject is a pronoun ("He is at Ropewalk on Tuesdays
        …" after "Our Community Tech Lead, Tomasz Brennan, helps members …": i015, set 24);
        ``""`` for a sentence that is about what it says.
        """
        text = self.texts.get(evidence.section_id, "")
        for start, end in self.sentences.get(evidence.section_id, ()):
            if start <= evidence.start and evidence.end <= end:
                whole = "" if (start, end) == (evidence.start, evidence.end) else text[start:end]
                return f"{self.referent(evidence)} {whole}".strip()
        return ""

    def referent(self, evidence: Evidence) -> str:
        """The sentence before the one ``evidence`` stands in, when that one's subject is a pronoun.

        "They are open to Club Divers and above …" is about the "Night dives at the quarry …"
        of the sentence before it; ``""`` for a sentence that names its own subject, or the
        first of its section.
        """
        text = self.texts.get(evidence.section_id, "")
        spans = sorted(self.sentences.get(evidence.section_id, ()))
        for i, (start, end) in enumerate(spans):
            if start <= evidence.start and evidence.end <= end:
                opens = i and _PRONOUN_OPENING_RE.match(text[start:end])
                return text[spans[i - 1][0] : spans[i - 1][1]] if opens else ""
        return ""

    def _evidence(self, section_id: str, window: tuple[int, int, str], score: float) -> Evidence:
        """The span of ``window`` as evidence: the section's own text, not the row's reading."""
        start, end, _read = window
        sentence = self.texts[section_id][start:end]
        return Evidence(section_id=section_id, start=start, end=end, sentence=sentence, score=score)

    def best(
        self, claim: str, ids: Sequence[str], checker: SupportChecker, *, join: bool = True
    ) -> Found:
        """The evidence for ``claim`` among the sections ``ids``, or the reason there is none.

        The best single window (a sentence or two adjacent ones) wins when it reaches the
        checker's threshold. Failing that, with ``join``, a claim citing several sections may
        rest on them together (ALCE's citation recall): the best window of each cited
        section, joined. Attribution (sections the writer did not cite) passes ``join``
        False: a patchwork of every shown section's best words is no sentence behind a claim
        (``make demo``, 2026-12-03: "Q fever is diagnosed by blood cultures" was supported by
        four sentences of three documents, one of them about brucellosis).

        Returns:
            The evidence, one span per section used; or none, the reason, and the window the
            judge refused when its veto is the reason.
        """
        best: tuple[float, str, tuple[int, int, str]] | None = None  # score, section, window
        scored: list[tuple[float, str, tuple[int, int, str]]] = []  # windows no guard rejected
        rejected: list[tuple[str, str]] = []  # windows a guard rejected, and its reason
        # a claim resting on several sections: the window of each that covers it most
        per_section: dict[str, tuple[float, tuple[int, int, str]]] = {}
        for sid in ids:
            wins = self.items.get(sid, [])
            if not wins:
                continue
            scores = checker.score_many(claim, [w[2] for w in wins], self.contexts[sid])
            whole = self.whole.get(sid, {})
            for win, score in zip(wins, scores, strict=True):
                if not score.reason and (win[0], win[1]) in whole:
                    # a clause is read in its sentence: "Monday 5 January 2026 to Saturday 4
                    # April 2026" is the spring term's, not its half-term's (ai041, set 34)
                    wrong = in_sentence(claim, whole[win[0], win[1]])
                    score = SupportScore(0.0, wrong) if wrong else score
                if score.reason:
                    rejected.append((win[2], score.reason))
                else:
                    scored.append((score.score, sid, win))
                # the single sentence wins over the pair on equal scores (pairs come later)
                if best is None or score.score > best[0]:
                    best = (score.score, sid, win)
                if join and len(ids) >= 2:
                    cov = coverage(claim, win[2])
                    if sid not in per_section or cov > per_section[sid][0]:
                        per_section[sid] = (cov, win)
        confirm = getattr(checker, "confirm", None)  # a judged checker's last word
        vetoed = ""  # the judge's reason when it vetoed the best window
        if best is not None and confirm is not None:
            # the best window, then (when it is refused) its own sentence(s) and a near tie of it
            looks = [best, *second_looks(best, scored, checker, self.sentences)]
            first = best
            for i, (score_, sid, win) in enumerate(looks):
                # the judge reads the window's context, the headings it stands under too: a
                # list item under "## Larchfield Park" says its site only there (w006, set 21)
                final = confirm(
                    claim, win[2], self.context_of(sid, win[0], win[1]), SupportScore(score_)
                )
                if i == 0:
                    best, vetoed = (final.score, sid, win), final.reason
                if final.score >= checker.threshold:
                    best, vetoed = (final.score, sid, win), ""
                    break
        if best is not None and best[0] >= checker.threshold:
            return Found([self._evidence(best[1], best[2], best[0])], "")
        if len(per_section) >= 2:
            parts = list(per_section.items())
            joined = " ".join(win[2] for _, (_, win) in parts)
            ctx = " ".join(self.context_of(sid, win[0], win[1]) for sid, (_, win) in parts)
            (score,) = checker.score_many(claim, [joined], [ctx])
            if confirm is not None and score.score >= checker.threshold:
                # the judge may veto a join, never lift one: it was measured on one passage,
                # not on sentences of different documents put side by side
                score = confirm(claim, joined, ctx, score)
            if score.score >= checker.threshold:
                return Found([self._evidence(sid, win, score.score) for sid, (_, win) in parts], "")
        if vetoed:
            return Found([], vetoed, self._evidence(first[1], first[2], first[0]))
        if best is not None and best[0] > 0:
            return Found([], f"best sentence scores {best[0]:.2f} < {checker.threshold:.2f}")
        return Found([], nearest_reason(claim, rejected, bool(scored)))
