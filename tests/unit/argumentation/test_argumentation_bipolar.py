"""The seed's bipolar grounded labelling: the issue's two cases by hand, and its properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from disputatio.argumentation import (
    ArgumentationFramework,
    BipolarFramework,
    DebateGraph,
    EdgeKind,
    Label,
    Node,
    NodeKind,
    bipolar_labelling,
    grounded_labelling,
)

FAST = settings(max_examples=200, deadline=None, database=None)
IN, OUT, UNDEC = Label.IN, Label.OUT, Label.UNDEC


def test_case_a_a_hypothesis_keeps_an_undefeated_supporter() -> None:
    # H supported by E1 and E2, E3 attacks E1: E3 and E2 are unattacked base facts (IN), E1 is
    # OUT (attacked by E3), H has no attacker and one IN supporter (E2): IN.
    bf = BipolarFramework.build(["H", "E1", "E2", "E3"], [("E3", "E1")], [("E1", "H"), ("E2", "H")])
    labels = bf.labelling("bipolar", base={"E1", "E2", "E3"})
    assert labels == {"H": IN, "E1": OUT, "E2": IN, "E3": IN}
    # Derived attacks with secondary attacks (E3 attacks E1, E1 supports H ⇒ E3 attacks H) put
    # H OUT although E2 still supports it: the two semantics differ here.
    assert bf.grounded_labelling(supported=True, secondary=True)["H"] is OUT


def test_case_b_a_supporter_does_not_inherit_the_attack_of_its_supportee() -> None:
    # C2 attacks E, C3 attacks C2, C1 supports C3, C4 attacks C3.
    # Bipolar: C1, C4 IN (unattacked base facts); C3 OUT (C4 is IN); C2's only attacker is OUT
    # and C2 is a base fact: IN; E is attacked by C2 (IN): OUT.
    args = ["E", "C1", "C2", "C3", "C4"]
    bf = BipolarFramework.build(args, [("C2", "E"), ("C3", "C2"), ("C4", "C3")], [("C1", "C3")])
    labels = bf.labelling("bipolar", base=args)
    assert labels == {"E": OUT, "C1": IN, "C2": IN, "C3": OUT, "C4": IN}
    # Derived (supported) attacks: C1 attacks C2 too, C1 is unattacked, so C2 is OUT and E IN.
    derived = bf.labelling("derived")
    assert (derived["C2"], derived["E"]) == (OUT, IN)


def test_case_b_on_a_debate_graph_evidence_is_out_by_default() -> None:
    g = DebateGraph(
        [Node("h", NodeKind.HYPOTHESIS, prior=0.5)]
        + [Node(i, NodeKind.EVIDENCE) for i in ("E", "C1", "C2", "C3", "C4")]
    )
    g.add_edge("E", "h", EdgeKind.SUPPORTS, llr=2.0)
    g.add_edge("C2", "E", EdgeKind.ATTACKS)
    g.add_edge("C3", "C2", EdgeKind.ATTACKS)
    g.add_edge("C1", "C3", EdgeKind.SUPPORTS)
    g.add_edge("C4", "C3", EdgeKind.ATTACKS)
    assert g.base_facts() == {"E", "C1", "C2", "C3", "C4"}
    assert g.labelling()["E"] is OUT
    # h's only supporter is OUT and h is a claim, not a base fact: h is OUT as well.
    assert g.labelling()["h"] is OUT
    assert g.labelling("derived")["E"] is IN
    with pytest.raises(ValueError, match="unknown semantics"):
        g.labelling("preferred")


def test_an_unsupported_claim_is_out_and_a_cycle_is_undecided() -> None:
    g = DebateGraph([Node("h", NodeKind.HYPOTHESIS, prior=0.5), Node("a", NodeKind.ASSUMPTION)])
    assert g.labelling() == {"h": OUT, "a": IN}
    bf = BipolarFramework.build("abc", [("a", "b"), ("b", "a")], [("a", "c")])
    assert bipolar_labelling(bf, base="ab") == {"a": UNDEC, "b": UNDEC, "c": UNDEC}


def test_unknown_base_facts_are_refused() -> None:
    with pytest.raises(ValueError, match="not arguments"):
        bipolar_labelling(BipolarFramework.build("ab", [], []), base="z")


names = st.sampled_from("abcdef")
pairs = st.lists(st.tuples(names, names), max_size=12)


@st.composite
def frameworks(draw: st.DrawFn) -> tuple[BipolarFramework, frozenset[str]]:
    args = frozenset("abcdef")
    bf = BipolarFramework.build(args, draw(pairs), draw(pairs))
    base = frozenset(draw(st.sets(st.sampled_from(sorted(args)))))
    return bf, base


def _conditions(
    bf: BipolarFramework, base: frozenset[str], labels: dict[str, Label], x: str
) -> tuple[bool, bool]:
    att = [labels[a] for a, b in bf.attacks if b == x]
    sup = [labels[a] for a, b in bf.supports if b == x]
    can_in = all(lab is OUT for lab in att) and (x in base or IN in sup)
    can_out = IN in att or (x not in base and all(lab is OUT for lab in sup))
    return can_in, can_out


@FAST
@given(frameworks())
def test_the_labelling_is_a_fixed_point_of_the_rules(
    case: tuple[BipolarFramework, frozenset[str]],
) -> None:
    bf, base = case
    labels = bipolar_labelling(bf, base)
    for x, lab in labels.items():
        can_in, can_out = _conditions(bf, base, labels, x)
        assert not (can_in and can_out)
        assert (lab is IN) == can_in and (lab is OUT) == can_out


@FAST
@given(frameworks(), st.randoms(use_true_random=False))
def test_the_labelling_does_not_depend_on_the_order_of_evaluation(
    case: tuple[BipolarFramework, frozenset[str]], rnd: object
) -> None:
    bf, base = case
    labels = dict.fromkeys(bf.arguments, UNDEC)
    order = sorted(bf.arguments)
    changed = True
    while changed:  # an independent evaluation: one argument at a time, in a random order
        changed = False
        rnd.shuffle(order)  # type: ignore[attr-defined]
        for x in order:
            if labels[x] is UNDEC:
                can_in, can_out = _conditions(bf, base, labels, x)
                if can_in or can_out:
                    labels[x], changed = (IN if can_in else OUT), True
                    break
    assert labels == bipolar_labelling(bf, base)


@FAST
@given(pairs)
def test_without_supports_it_is_dungs_grounded_labelling(attacks: list[tuple[str, str]]) -> None:
    bf = BipolarFramework.build("abcdef", attacks, [])
    af = ArgumentationFramework.build("abcdef", attacks)
    assert bipolar_labelling(bf) == grounded_labelling(af)
    assert bf.labelling("bipolar", base="abcdef") == grounded_labelling(af)
