"""Support paths of a bipolar framework and minimum hitting sets over them.

A *support path* into ``target`` is a simple chain ``b → a_1 → … → target`` of support edges that
starts at a base fact ``b``. Defeating (making OUT) any argument on a path cuts it; under the
bipolar rule (:func:`disputatio.argumentation.semantics.bipolar_labelling`) a claim whose every
support path is cut has no IN supporter left and goes OUT. So the smallest set of arguments that
must be defeated to take every support away from ``target`` is a *minimum hitting set* of its
support paths (target itself excluded): :func:`minimum_hitting_set` finds it exactly by trying all
sets of size 1, 2, … up to a bound, and falls back to the greedy set (the classical ``ln n``
approximation, flagged ``exact=False``) past the bound.

:func:`nodes_on_cycles` finds the arguments that lie on a cycle of a relation (e.g. attack cycles,
where grounded labellings leave arguments UNDEC): the members of strongly connected components
with more than one member, or with a self-loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from disputatio.argumentation.semantics import BipolarFramework

__all__ = ["HittingSet", "minimum_hitting_set", "nodes_on_cycles", "support_paths"]


def support_paths(
    bf: BipolarFramework,
    target: str,
    base: Iterable[str],
    *,
    among: Iterable[str] | None = None,
    max_paths: int = 256,
) -> list[tuple[str, ...]]:
    """Return the simple support paths from a base fact into ``target`` (source first).

    Args:
        bf: The framework.
        target: The supported argument.
        base: The base facts a path may start from.
        among: Only arguments in this set may lie on a path (default: all); ``target`` always may.
        max_paths: Stop after this many paths (a bound on the enumeration).

    Returns:
        The paths, each a tuple ending with ``target``, sorted.

    Raises:
        ValueError: If ``target`` is not an argument or ``max_paths < 1``.
    """
    if target not in bf.arguments:
        raise ValueError(f"{target!r} is not an argument")
    if max_paths < 1:
        raise ValueError("max_paths must be >= 1")
    facts = frozenset(base)
    allowed = bf.arguments if among is None else frozenset(among) | {target}
    supporters: dict[str, list[str]] = {a: [] for a in bf.arguments}
    for a, b in sorted(bf.supports):
        supporters[b].append(a)
    paths: list[tuple[str, ...]] = []
    stack: list[tuple[str, ...]] = [(target,)]
    while stack and len(paths) < max_paths:
        suffix = stack.pop()
        for s in supporters[suffix[0]]:
            if s in suffix or s not in allowed:
                continue
            path = (s, *suffix)
            if s in facts:
                paths.append(path)
                if len(paths) >= max_paths:
                    break
            stack.append(path)
    return sorted(paths)


@dataclass(frozen=True)
class HittingSet:
    """A hitting set.

    Attributes:
        members: The chosen elements, sorted.
        exact: True when the set is of minimum cardinality (found by exhaustive search).
    """

    members: tuple[str, ...]
    exact: bool


def minimum_hitting_set(
    sets: Sequence[Iterable[str]], *, exclude: Iterable[str] = (), max_size: int = 4
) -> HittingSet | None:
    """Return a smallest set meeting every set of ``sets`` without using ``exclude``.

    Sizes ``1 … max_size`` are searched exhaustively, elements in sorted order (so the first
    minimum set in lexicographic order is returned); past ``max_size`` the greedy set (always
    take the element in most unhit sets, ties by name) is returned, ``exact`` only when its size is
    ``max_size + 1`` (no smaller set exists, the search showed).

    Args:
        sets: The sets to hit (an empty list is hit by the empty set).
        exclude: Elements that may not be chosen.
        max_size: Largest size searched exhaustively (``>= 0``).

    Returns:
        The hitting set, or ``None`` when some set has no element outside ``exclude``.
    """
    banned = frozenset(exclude)
    family = [frozenset(s) - banned for s in sets]
    if any(not s for s in family):
        return None
    if not family:
        return HittingSet((), True)
    universe = sorted(frozenset().union(*family))
    for size in range(1, max(max_size, 0) + 1):
        for combo in combinations(universe, size):
            chosen = frozenset(combo)
            if all(s & chosen for s in family):
                return HittingSet(tuple(combo), True)
    unhit = list(family)
    greedy: list[str] = []
    while unhit:
        best = min(universe, key=lambda x: (-sum(x in s for s in unhit), x))
        greedy.append(best)
        unhit = [s for s in unhit if best not in s]
    # Nothing of size <= max_size hits every set, so a greedy set one larger is a minimum one.
    return HittingSet(tuple(sorted(greedy)), len(greedy) == max(max_size, 0) + 1)


def nodes_on_cycles(
    arguments: Iterable[str], relation: Iterable[tuple[str, str]]
) -> frozenset[str]:
    """Return the arguments that lie on a directed cycle of ``relation`` (Tarjan's SCCs).

    Raises:
        ValueError: If ``relation`` mentions an argument not in ``arguments``.
    """
    nodes = sorted(set(arguments))
    succ: dict[str, list[str]] = {a: [] for a in nodes}
    loops: set[str] = set()
    for a, b in relation:
        if a not in succ or b not in succ:
            raise ValueError(f"({a!r}, {b!r}) mentions an unknown argument")
        succ[a].append(b)
        if a == b:
            loops.add(a)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[str] = set(loops)
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:  # iterative Tarjan: (node, next successor position)
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack.add(v)
            if i < len(succ[v]):
                work.append((v, i + 1))
                w = succ[v][i]
                if w not in index:
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.update(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return frozenset(found)
