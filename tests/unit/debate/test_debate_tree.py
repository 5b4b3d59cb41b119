"""The sub-question tree respects the depth and breadth limits whatever the model proposes."""

from __future__ import annotations

from disputatio.nodes.debate.tree import build_tree, leaves, ready_internal, tree_output
from disputatio.state.debate import SubQuestionPlan


def _plan(breadth: int, depth: int, prefix: str = "q") -> list[SubQuestionPlan]:
    if depth == 0:
        return []
    return [
        SubQuestionPlan(
            question=f"{prefix}{i}?", subquestions=_plan(breadth, depth - 1, f"{prefix}{i}.")
        )
        for i in range(breadth)
    ]


def test_limits_cut_an_oversized_plan() -> None:
    nodes = build_tree("Q?", _plan(breadth=5, depth=4), max_depth=2, max_breadth=3)
    assert max(n["depth"] for n in nodes.values()) == 2
    assert all(len(n["children"]) <= 3 for n in nodes.values())
    assert len(nodes) == 1 + 3 + 9  # root, 3 children, 3 grandchildren each
    assert nodes["2.3"] == {
        "id": "2.3",
        "question": "q1.2?",
        "parent": "2",
        "depth": 2,
        "children": [],
    }


def test_depth_zero_is_flat() -> None:
    nodes = build_tree("Q?", _plan(3, 2), max_depth=0, max_breadth=3)
    assert list(nodes) == ["root"] and leaves(nodes) == ["root"]


def test_single_blank_or_repeated_children_do_not_decompose() -> None:
    one = [SubQuestionPlan(question="only?")]
    assert list(build_tree("Q?", one, max_depth=2, max_breadth=3)) == ["root"]
    dupes = [
        SubQuestionPlan(question=" Q? "),
        SubQuestionPlan(question=""),
        SubQuestionPlan(question="a?"),
    ]
    assert list(build_tree("Q?", dupes, max_depth=2, max_breadth=3)) == ["root"]


def test_internal_nodes_become_ready_bottom_up() -> None:
    nodes = build_tree("Q?", _plan(2, 2), max_depth=2, max_breadth=2)
    assert leaves(nodes) == ["1.1", "1.2", "2.1", "2.2"]
    assert ready_internal(nodes, {}) == []
    answered: dict[str, dict[str, str]] = {key: {} for key in ("1.1", "1.2", "2.1")}
    assert ready_internal(nodes, answered) == ["1"]
    answered |= {key: {} for key in ("2.2", "1", "2")}
    assert ready_internal(nodes, answered) == ["root"]


def test_tree_output_carries_answers() -> None:
    nodes = build_tree("Q?", [], max_depth=1, max_breadth=2)
    out = tree_output(nodes, {"root": {"answer": "A", "citations": ["s1"], "status": "agreed"}})
    assert out[0]["answer"] == "A" and out[0]["citations"] == ["s1"] and out[0]["rounds"] is None


def test_a_sub_question_restating_the_question_is_dropped_options_or_not() -> None:
    """The local 1.5B's typical plan: the question itself, plus a side question."""
    asked = "Are mouse chromosomes acrocentric?"
    with_options = f"{asked}\nOptions:\nA. yes\nB. no"
    plan = [SubQuestionPlan(question="are mouse chromosomes  acrocentric"), _q("What is X?")]
    tree = build_tree(with_options, plan, max_depth=1, max_breadth=3, bare_question=asked)
    assert list(tree) == ["root"]  # one usable child left: not decomposed
    two = [*plan, _q("Are rat chromosomes acrocentric?")]
    tree = build_tree(with_options, two, max_depth=1, max_breadth=3, bare_question=asked)
    assert [n["question"] for n in tree.values()][1:] == [
        "What is X?",
        "Are rat chromosomes acrocentric?",
    ]


def test_sub_questions_that_ask_nothing_are_dropped() -> None:
    plan = [_q("Is A safe?"), _q("Yes or no?"), _q("Yes"), _q("No."), _q("Is A effective?")]
    tree = build_tree("Is A safe and effective?", plan, max_depth=1, max_breadth=3)
    assert [n["question"] for n in tree.values()][1:] == ["Is A safe?", "Is A effective?"]


def _q(text: str) -> SubQuestionPlan:
    return SubQuestionPlan(question=text)
