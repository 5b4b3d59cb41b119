"""The Tech Referee's properties 1-8 over drawn runs: plan, briefs, verdicts, scores."""

from __future__ import annotations

from hypothesis import given

from disputatio.nodes.referee.planning import slug

from . import referee_agents as ra
from .referee_scenarios import RUNS, VERDICTS, Scenario, _ok, run, scenarios

MAX_OPTIONS = 3  # settings.referee.max_options (default)
MAX_AXES = 5  # RefereeContext.max_axes (default)


@RUNS
@given(scenarios())
def test_p1_plan_validity(s: Scenario) -> None:
    """P1: 2 ≤ options ≤ max_options, distinct (case-insensitively), the user's fixed options
    all kept; 1 ≤ axes ≤ max_axes, distinct, weights in 1..10; one advocate and one examiner
    per option, named after it; the planner saw the request and a search of it."""
    r = run(s)
    plan = _ok(r).plan
    assert plan is not None
    names = [o.name for o in plan.options]
    assert 2 <= len(names) <= MAX_OPTIONS
    assert len({n.casefold() for n in names}) == len(names)
    assert {f.casefold() for f in s.fixed} <= {n.casefold() for n in names}
    assert 1 <= len(plan.axes) <= MAX_AXES
    assert len({a.name.casefold() for a in plan.axes}) == len(plan.axes)
    assert all(1 <= a.weight <= 10 for a in plan.axes)
    assert [(a.option, a.advocate, a.examiner) for a in plan.advocates] == [
        (n, f"advocate-{slug(n)}", f"examiner-{slug(n)}") for n in names
    ]
    (prompt,) = r.models["planner"].prompts
    assert "which vector store?" in str(prompt[-1].content) and "<sections>" in str(
        prompt[-1].content
    )


@RUNS
@given(scenarios())
def test_p2_advocate_completeness(s: Scenario) -> None:
    """P2: exactly one brief per option, by its own advocate, which was called once with its
    own option and every axis of the plan; claim axes are plan axes and ``missing_axes`` is
    exactly the plan's axes no claim covers."""
    r = run(s)
    result = _ok(r)
    assert result.plan is not None
    names = [o.name for o in result.plan.options]
    axes = [a.name for a in result.plan.axes]
    assert sorted(b.option for b in result.briefs) == sorted(names)
    for b in result.briefs:
        model = r.models[f"advocate-{slug(b.option)}"]
        assert b.agent == f"advocate-{slug(b.option)}" and model.calls == 1
        assert f"<option>{b.option}</option>" in str(model.prompts[0][-1].content)
        assert ra.prompt_axes(model.prompts[0]) == axes
        covered = {c.axis for c in b.claims}
        assert covered <= set(axes)
        assert b.missing_axes == [a for a in axes if a not in covered]
    for o in {slug(o) for o in [*s.options, *s.fixed]} - {slug(n) for n in names}:
        assert r.models[f"advocate-{o}"].calls == 0  # options capped away never ran


@RUNS
@given(scenarios())
def test_p3_citation_soundness(s: Scenario) -> None:
    """P3: every citation kept in a brief is a section its advocate was shown (in its prompt),
    ids it was never shown are reported as invalid and kept out of claims, a claim is
    ``cited`` iff it keeps a citation, and ``evidence`` holds exactly the cited sections."""
    r = run(s)
    for b in _ok(r).briefs:
        cited = [i for c in b.claims for i in c.citations]
        assert set(cited) <= set(b.sources)
        assert all(c.cited == bool(c.citations) for c in b.claims)
        assert "made-up" not in cited
        assert ("made-up" in b.invalid_citations) == bool(b.claims)
        assert [e.id for e in b.evidence] == list(dict.fromkeys(cited))
        shown = ra.prompt_labels(r.models[f"advocate-{slug(b.option)}"].prompts[0])
        assert len(shown) == len(b.sources)  # each source was shown under one label


@RUNS
@given(scenarios())
def test_p4_cross_examination_completeness(s: Scenario) -> None:
    """P4: each examiner returns exactly one verdict per opponent claim, at most
    ``max_claims_checked`` per opponent (the first ones), never on its own option's claims;
    its prompt listed exactly those claims; unanswered claims are "unverifiable"."""
    r = run(s)
    result = _ok(r)
    for e in result.cross_examinations:
        expected = [
            (b.option, c.id)
            for b in result.briefs
            if b.option != e.option
            for c in b.claims[: s.claims_cap]
        ]
        assert sorted((c.target_option, c.claim_id) for c in e.checks) == sorted(expected)
        prompt = r.models[f"examiner-{slug(e.option)}"].prompts[0]
        listed = ra.block(prompt, "claims")
        assert sorted(line.split(" ")[0] for line in listed.splitlines() if "#" in line) == (
            sorted(cid for _, cid in expected)
        )
        assert all(c.verdict in VERDICTS for c in e.checks)


@RUNS
@given(scenarios())
def test_p5_verdicts_need_evidence(s: Scenario) -> None:
    """P5: a "confirmed" or "disputed" verdict cites at least one section the examiner saw
    and names its sources; without valid evidence the verdict is "unverifiable"."""
    r = run(s)
    for e in _ok(r).cross_examinations:
        seen = {ref.id for ref in e.evidence}
        for c in e.checks:
            if c.verdict != "unverifiable":
                assert c.citations and set(c.citations) <= seen and c.sources


@RUNS
@given(scenarios())
def test_p6_referee_completeness(s: Scenario) -> None:
    """P6: the referee is asked again (at most ``max_fill_rounds`` times) for exactly the
    cells still unscored; when it answers, every option × axis cell is scored; when it does
    not, ``missing_cells`` lists exactly the unscored cells and the confidence is low."""
    r = run(s)
    result = _ok(r)
    assert result.plan is not None and result.ruling is not None
    ruling = result.ruling
    cells = {(sc.option, sc.axis) for sc in ruling.scores}
    every = [(o.name, a.name) for o in result.plan.options for a in result.plan.axes]
    assert len(ruling.scores) == len(cells)  # one score per cell
    assert ruling.fill_rounds == len(s.referee.asked) <= s.fill_rounds
    if s.referee.asked:  # the first re-ask names exactly what the first reply left out
        assert set(s.referee.asked[0]) == set(every) - set(s.referee.scored_first)
        assert all(set(later) <= set(s.referee.asked[0]) for later in s.referee.asked[1:])
    elif s.fill_rounds:
        assert set(s.referee.scored_first) == set(every)  # nothing was missing
    if s.referee.fills and s.fill_rounds >= 1:
        assert cells == set(every) and ruling.missing_cells == []
    else:
        assert ruling.missing_cells == [f"{o} / {a}" for o, a in every if (o, a) not in cells]
    if ruling.missing_cells:
        assert ruling.confidence == "low"


@RUNS
@given(scenarios())
def test_p7_weighted_totals(s: Scenario) -> None:
    """P7: for every option, weighted_sum = Σ weight·score over its scored axes, the weighted
    score is that over the scored weight (on 1-10 when any), ``complete`` iff every axis."""
    r = run(s)
    result = _ok(r)
    assert result.plan is not None and result.ruling is not None
    weights = {a.name: a.weight for a in result.plan.axes}
    for t in result.ruling.totals:
        mine = [sc for sc in result.ruling.scores if sc.option == t.option]
        assert t.weighted_sum == sum(weights[sc.axis] * sc.score for sc in mine)
        assert t.scored_weight == sum(weights[sc.axis] for sc in mine)
        assert t.complete == (len(mine) == len(weights))
        if t.scored_weight:
            assert 1 <= t.weighted_score <= 10


@RUNS
@given(scenarios())
def test_p8_recommendation_follows_the_totals_unless_a_constraint_overrides(s: Scenario) -> None:
    """P8: the recommendation is the leader (best weighted score among complete options)
    whenever there is one, unless ``overridden_by`` names one of the user's constraints.
    Scores that are degenerate after one re-scoring (an option scored its axis weights on
    every axis, or every option the same, over 2+ axes) and best complete options within the
    0.5-point margin (no clear winner, unless a constraint decides) recommend nothing, with low
    confidence; the referee is asked to score again once, only for degenerate scores."""
    r = run(s)
    result = _ok(r)
    assert result.plan is not None and result.ruling is not None
    ruling = result.ruling
    weights = tuple(a.weight for a in result.plan.axes)
    cells = {(sc.option, sc.axis): sc.score for sc in ruling.scores}
    vectors = [
        tuple(cells[(o.name, a.name)] for a in result.plan.axes)
        for o in result.plan.options
        if all((o.name, a.name) in cells for a in result.plan.axes)
    ]
    degenerate = len(weights) >= 2 and (
        weights in vectors or (len(vectors) == len(result.plan.options) and len(set(vectors)) == 1)
    )
    assert bool(ruling.degenerate) == degenerate
    assert len(s.referee.rescores) == int(ruling.rescored) <= 1
    if degenerate:
        assert ruling.rescored
    best = sorted((t.weighted_score for t in ruling.totals if t.complete), reverse=True)
    close = len(best) >= 2 and best[0] - best[1] <= 0.5 + 1e-9
    assert ruling.no_clear_winner == (close and not degenerate)
    if degenerate or (ruling.no_clear_winner and ruling.overridden_by is None):
        assert ruling.recommendation == "" and ruling.confidence == "low"
    else:
        assert ruling.recommendation in [o.name for o in result.plan.options]
    if ruling.no_clear_winner:
        assert ruling.confidence == "low"
    if ruling.leader is not None and ruling.recommendation not in ("", ruling.leader):
        assert ruling.overridden_by in result.plan.constraints.items()
    if ruling.overridden_by is not None:
        assert s.constraints and s.referee.override == "vendor lock-in"
