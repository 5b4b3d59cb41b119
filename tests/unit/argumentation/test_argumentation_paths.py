"""Support paths and minimum hitting sets: hand cases and brute-force properties."""

from __future__ import annotations

from itertools import chain, combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from disputatio.argumentation import BipolarFramework, minimum_hitting_set, support_paths

FAST = settings(max_examples=200, deadline=None, database=None)


def test_support_paths_and_their_cut_by_hand() -> None:
    # a supports b supports H, c supports H, d supports a (d not a base fact, no supporter)
    bf = BipolarFramework.build("abcdH", [], [("a", "b"), ("b", "H"), ("c", "H"), ("d", "a")])
    paths = support_paths(bf, "H", base="ac")
    assert paths == [("a", "b", "H"), ("c", "H")]
    assert support_paths(bf, "H", base="ac", among="bc") == [("c", "H")]
    assert support_paths(bf, "H", base="ac", max_paths=1) == [("c", "H")]
    cut = minimum_hitting_set(paths, exclude="H")
    # sizes 1 fail (no element is on both paths); (a, b) misses (c, H); (a, c) is the first hit
    assert cut is not None and cut.members == ("a", "c") and cut.exact
    assert minimum_hitting_set([("H",)], exclude="H") is None
    assert minimum_hitting_set([]) is not None
    with pytest.raises(ValueError):
        support_paths(bf, "Z", base="a")


def test_greedy_fallback_past_the_bound() -> None:
    sets = [("a",), ("b",), ("c",)]
    found = minimum_hitting_set(sets, max_size=2)
    assert found is not None and found.members == ("a", "b", "c") and found.exact
    found = minimum_hitting_set(sets, max_size=1)
    assert found is not None and set(found.members) == {"a", "b", "c"} and not found.exact


universe = st.sampled_from("abcdef")


@FAST
@given(st.lists(st.sets(universe, min_size=1), max_size=6), st.sets(universe, max_size=2))
def test_minimum_hitting_set_matches_brute_force(sets: list[set[str]], exclude: set[str]) -> None:
    found = minimum_hitting_set(sets, exclude=exclude, max_size=6)
    elements = sorted(set().union(*sets) - exclude) if sets else []
    subsets = chain.from_iterable(combinations(elements, k) for k in range(len(elements) + 1))
    hitting = [set(s) for s in subsets if all(set(s) & x for x in sets)]
    if not hitting:
        assert found is None
        return
    assert found is not None and found.exact
    assert all(set(found.members) & x for x in sets)
    assert not set(found.members) & exclude
    assert len(found.members) == min(len(h) for h in hitting)


@FAST
@given(st.lists(st.tuples(universe, universe), max_size=12), st.sets(universe))
def test_support_paths_are_simple_support_chains_from_base_facts(
    supports: list[tuple[str, str]], base: set[str]
) -> None:
    bf = BipolarFramework.build("abcdef", [], supports)
    for path in support_paths(bf, "f", base=base):
        assert path[0] in base and path[-1] == "f" and len(set(path)) == len(path)
        assert all((x, y) in bf.supports for x, y in pairwise(path))


def test_nodes_on_cycles_by_hand() -> None:
    from disputatio.argumentation import nodes_on_cycles

    rel = [("a", "b"), ("b", "a"), ("b", "c"), ("d", "d"), ("c", "e")]
    assert nodes_on_cycles("abcdef", rel) == {"a", "b", "d"}
    with pytest.raises(ValueError):
        nodes_on_cycles("ab", [("a", "z")])


@FAST
@given(st.lists(st.tuples(universe, universe), max_size=14))
def test_nodes_on_cycles_are_those_that_reach_themselves(edges: list[tuple[str, str]]) -> None:
    from disputatio.argumentation import nodes_on_cycles

    succ: dict[str, set[str]] = {a: set() for a in "abcdef"}
    for a, b in edges:
        succ[a].add(b)

    def reaches_itself(start: str) -> bool:
        seen, todo = set(), list(succ[start])
        while todo:
            x = todo.pop()
            if x == start:
                return True
            if x not in seen:
                seen.add(x)
                todo.extend(succ[x])
        return False

    assert nodes_on_cycles("abcdef", edges) == {a for a in "abcdef" if reaches_itself(a)}
