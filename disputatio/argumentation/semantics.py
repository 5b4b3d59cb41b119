"""Grounded semantics for abstract and bipolar argumentation frameworks.

An argumentation framework ``(A, R)`` (Dung 1995) has arguments ``A`` and an attack relation
``R ⊆ A × A``. Its characteristic function ``F(S) = {a ∈ A | every attacker of a is attacked by
some member of S}`` is monotone, so by Knaster–Tarski it has a least fixed point, the *grounded
extension*, reached by iterating ``F`` from ``∅`` (finitely many steps on a finite ``A``). The
grounded labelling marks its members IN, the arguments they attack OUT, and the rest UNDEC.

A bipolar framework adds a support relation. Before computing grounded semantics we close the
attack relation under the two *derived attacks* of Cayrol & Lagasquie-Schiex (2005, 2013):

* **supported attack** — ``a`` supports ``b`` (directly or through a chain of supports) and ``b``
  attacks ``c``: then ``a`` attacks ``c``;
* **secondary attack** — ``a`` attacks ``b`` and ``b`` supports ``c`` (directly or through a chain):
  then ``a`` attacks ``c``.

Both flags on, the closure is ``{(a, c) | a S* b, b R d, d S* c}`` with ``S*`` the
reflexive–transitive closure of support. The *mediated* attack of Boella et al. (``a`` supports
``b``, ``c`` attacks ``b``, so ``c`` attacks ``a``), which encodes *necessary* rather than
deductive support, is deliberately not included. These *derived-attack* semantics are kept as
an option (:meth:`BipolarFramework.grounded_labelling`).

The default for bipolar frameworks is the seed's *bipolar grounded labelling*
(:func:`bipolar_labelling`), where support is *necessary* for every argument that is not a
**base fact**:

* IN — every attacker is OUT, and the argument is a base fact or has at least one IN supporter;
* OUT — some attacker is IN, or the argument is not a base fact and every supporter is OUT
  (vacuously so when it has no supporter: a claim nobody supports cannot stand);
* UNDEC — otherwise.

A *base fact* is an argument that stands on its own, without support: in a debate graph the
evidence (observed in the case or retrieved with provenance) and the explicit assumptions; in an
abstract framework, by default, every argument without a supporter. Support never rescues or
sinks a base fact; only its attackers do. The labelling is the least fixed point of the rules,
reached from all-UNDEC by labelling, at each pass, every UNDEC argument whose IN or OUT condition
already holds. A label once given is never revised: the IN and OUT conditions exclude each other
for good once they hold (IN needs every attacker OUT and, unless base, one supporter IN; OUT needs
an attacker IN or every supporter OUT), so the result does not depend on the order of the
arguments, and without supports (every argument a base fact) it is exactly Dung's grounded
labelling. Unlike derived attacks, a supporter never inherits its supportee's attacks: in
``C2 attacks E, C3 attacks C2, C1 supports C3, C4 attacks C3`` the attack of C3 is defeated by
C4, C2 stands and E is OUT (with supported attacks C1 would attack C2 and reinstate E).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

__all__ = [
    "SEMANTICS",
    "ArgumentationFramework",
    "BipolarFramework",
    "Label",
    "bipolar_labelling",
    "characteristic",
    "grounded_extension",
    "grounded_labelling",
    "is_complete_extension",
    "is_conflict_free",
    "labels_of",
]


class Label(StrEnum):
    """Status of an argument in a labelling."""

    IN = "in"
    OUT = "out"
    UNDEC = "undec"


SEMANTICS = ("bipolar", "derived")
"""Labelling semantics of a bipolar framework: the seed's bipolar rule, or derived attacks."""


def _check_relation(name: str, relation: frozenset[tuple[str, str]], args: frozenset[str]) -> None:
    for a, b in relation:
        if a not in args or b not in args:
            raise ValueError(f"{name} ({a!r}, {b!r}) mentions an unknown argument")


@dataclass(frozen=True)
class ArgumentationFramework:
    """A Dung argumentation framework ``(A, R)``.

    Attributes:
        arguments: The arguments ``A``.
        attacks: Pairs ``(attacker, attacked)``.
    """

    arguments: frozenset[str]
    attacks: frozenset[tuple[str, str]]
    _attackers: Mapping[str, frozenset[str]] = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        _check_relation("attack", self.attacks, self.arguments)
        index: dict[str, set[str]] = {a: set() for a in self.arguments}
        for a, b in self.attacks:
            index[b].add(a)
        frozen = MappingProxyType({a: frozenset(s) for a, s in index.items()})
        object.__setattr__(self, "_attackers", frozen)

    @classmethod
    def build(
        cls, arguments: Iterable[str], attacks: Iterable[tuple[str, str]]
    ) -> ArgumentationFramework:
        """Build a framework from any iterables (converted to frozensets)."""
        return cls(frozenset(arguments), frozenset(attacks))

    def attackers(self, argument: str) -> frozenset[str]:
        """Return the arguments that attack ``argument``.

        Raises:
            KeyError: If ``argument`` is not an argument of the framework.
        """
        return self._attackers[argument]


def is_conflict_free(af: ArgumentationFramework, s: Iterable[str]) -> bool:
    """Return whether no member of ``s`` attacks a member of ``s``."""
    members = frozenset(s)
    return not any(a in members and b in members for a, b in af.attacks)


def characteristic(af: ArgumentationFramework, s: Iterable[str]) -> frozenset[str]:
    """Return ``F(S)``: the arguments all of whose attackers are attacked by ``S``.

    Args:
        af: The framework.
        s: A set of arguments.

    Returns:
        The arguments defended by ``s``.
    """
    members = frozenset(s)
    attacked_by_s = frozenset(b for a, b in af.attacks if a in members)
    return frozenset(x for x in af.arguments if af.attackers(x) <= attacked_by_s)


def grounded_extension(af: ArgumentationFramework) -> frozenset[str]:
    """Return the grounded extension, the least fixed point of :func:`characteristic`.

    Iterates ``S_0 = ∅, S_{k+1} = F(S_k)``; the sequence is increasing because ``F`` is monotone,
    so it stops after at most ``|A| + 1`` steps.
    """
    current: frozenset[str] = frozenset()
    while True:
        nxt = characteristic(af, current)
        if nxt == current:
            return current
        current = nxt


def grounded_labelling(af: ArgumentationFramework) -> dict[str, Label]:
    """Return the grounded labelling: IN = grounded extension, OUT = attacked by IN, else UNDEC."""
    inside = grounded_extension(af)
    out = frozenset(b for a, b in af.attacks if a in inside)
    return {
        x: Label.IN if x in inside else Label.OUT if x in out else Label.UNDEC
        for x in sorted(af.arguments)
    }


def is_complete_extension(af: ArgumentationFramework, s: Iterable[str]) -> bool:
    """Return whether ``s`` is a complete extension: conflict-free and ``F(s) = s``."""
    members = frozenset(s)
    return is_conflict_free(af, members) and characteristic(af, members) == members


def _reflexive_transitive(
    arguments: frozenset[str], relation: frozenset[tuple[str, str]]
) -> dict[str, frozenset[str]]:
    """Return, for each argument, the set it reaches by zero or more steps of ``relation``."""
    succ: dict[str, set[str]] = {a: set() for a in arguments}
    for a, b in relation:
        succ[a].add(b)
    reach: dict[str, frozenset[str]] = {}
    for start in arguments:
        seen = {start}
        stack = [start]
        while stack:
            for nxt in succ[stack.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        reach[start] = frozenset(seen)
    return reach


@dataclass(frozen=True)
class BipolarFramework:
    """A bipolar argumentation framework ``(A, R_att, R_sup)``.

    Attributes:
        arguments: The arguments.
        attacks: Pairs ``(attacker, attacked)``.
        supports: Pairs ``(supporter, supported)``.
    """

    arguments: frozenset[str]
    attacks: frozenset[tuple[str, str]]
    supports: frozenset[tuple[str, str]]

    def __post_init__(self) -> None:
        _check_relation("attack", self.attacks, self.arguments)
        _check_relation("support", self.supports, self.arguments)

    @classmethod
    def build(
        cls,
        arguments: Iterable[str],
        attacks: Iterable[tuple[str, str]],
        supports: Iterable[tuple[str, str]] = (),
    ) -> BipolarFramework:
        """Build a bipolar framework from any iterables (converted to frozensets)."""
        return cls(frozenset(arguments), frozenset(attacks), frozenset(supports))

    def derived_attacks(
        self, *, supported: bool = True, secondary: bool = True
    ) -> frozenset[tuple[str, str]]:
        """Return the direct attacks closed under supported and/or secondary attacks.

        Args:
            supported: Add ``(a, c)`` when ``a`` support-reaches ``b`` and ``b`` attacks ``c``.
            secondary: Add ``(a, c)`` when ``a`` attacks ``b`` and ``b`` support-reaches ``c``.

        Returns:
            The closed attack relation (a superset of :attr:`attacks`).
        """
        reach = _reflexive_transitive(self.arguments, self.supports)
        back: dict[str, set[str]] = {a: set() for a in self.arguments}
        for a, reached in reach.items():
            for t in reached:
                back[t].add(a)
        closed: set[tuple[str, str]] = set()
        for b, d in self.attacks:
            sources: set[str] | frozenset[str] = back[b] if supported else {b}
            targets: set[str] | frozenset[str] = reach[d] if secondary else {d}
            closed.update((a, c) for a in sources for c in targets)
        return frozenset(closed)

    def to_attack_framework(
        self, *, supported: bool = True, secondary: bool = True
    ) -> ArgumentationFramework:
        """Return the Dung framework over the derived attack relation."""
        return ArgumentationFramework(
            self.arguments, self.derived_attacks(supported=supported, secondary=secondary)
        )

    def grounded_labelling(
        self, *, supported: bool = True, secondary: bool = True
    ) -> dict[str, Label]:
        """Return the grounded labelling of the framework with derived attacks."""
        af = self.to_attack_framework(supported=supported, secondary=secondary)
        return grounded_labelling(af)

    def labelling(
        self,
        semantics: str = "bipolar",
        *,
        base: Iterable[str] | None = None,
        supported: bool = True,
        secondary: bool = False,
    ) -> dict[str, Label]:
        """Return the labelling under ``semantics`` (see :data:`SEMANTICS`).

        Args:
            semantics: ``"bipolar"`` (:func:`bipolar_labelling`, the default) or ``"derived"``
                (grounded labelling over derived attacks).
            base: Base facts of the bipolar rule (default: arguments without a supporter).
            supported: Derived semantics: close under supported attacks.
            secondary: Derived semantics: close under secondary attacks.

        Raises:
            ValueError: On an unknown semantics.
        """
        if semantics == "bipolar":
            return bipolar_labelling(self, base)
        if semantics == "derived":
            return self.grounded_labelling(supported=supported, secondary=secondary)
        raise ValueError(f"unknown semantics {semantics!r} (known: {SEMANTICS})")


def bipolar_labelling(bf: BipolarFramework, base: Iterable[str] | None = None) -> dict[str, Label]:
    """Return the seed's bipolar grounded labelling of ``bf`` (see the module docstring).

    Args:
        bf: The framework.
        base: The base facts (default: every argument that has no supporter).

    Returns:
        ``{argument: label}`` for every argument, sorted by argument.

    Raises:
        ValueError: If ``base`` names an unknown argument.
    """
    attackers: dict[str, set[str]] = {a: set() for a in bf.arguments}
    supporters: dict[str, set[str]] = {a: set() for a in bf.arguments}
    for a, b in bf.attacks:
        attackers[b].add(a)
    for a, b in bf.supports:
        supporters[b].add(a)
    if base is None:
        facts = frozenset(a for a, s in supporters.items() if not s)
    else:
        facts = frozenset(base)
        if facts - bf.arguments:
            raise ValueError(f"base facts {sorted(facts - bf.arguments)} are not arguments")
    label: dict[str, Label] = dict.fromkeys(bf.arguments, Label.UNDEC)
    changed = True
    while changed:  # at most |A| + 1 passes: every pass but the last labels an argument
        changed = False
        for x in sorted(bf.arguments):
            if label[x] is not Label.UNDEC:
                continue
            att = [label[a] for a in attackers[x]]
            sup = [label[s] for s in supporters[x]]
            if all(lab is Label.OUT for lab in att) and (
                x in facts or any(lab is Label.IN for lab in sup)
            ):
                label[x], changed = Label.IN, True
            elif any(lab is Label.IN for lab in att) or (
                x not in facts and all(lab is Label.OUT for lab in sup)
            ):
                label[x], changed = Label.OUT, True
    return {x: label[x] for x in sorted(bf.arguments)}


def labels_of(labelling: Mapping[str, Label], label: Label) -> frozenset[str]:
    """Return the arguments that carry ``label`` in ``labelling``."""
    return frozenset(a for a, lab in labelling.items() if lab is label)
