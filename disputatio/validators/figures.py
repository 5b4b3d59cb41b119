"""Figures as a sentence writes them, for rules that match a claim's figures to a sentence's.

:func:`~disputatio.validators.sentences.stated_numbers` canonicalises numbers ("1,400" → "1400")
and pairs them with units; the rules that ask *which piece* of a sentence or *which cell* of a
table row holds a claim's figure compare them as written instead.
"""

from __future__ import annotations

import re

#: A figure as written: "10:00", "1,400", "2.50"; not the digits of a code ("N4", "W1.06").
FIGURE_RE = re.compile(r"(?<![\w.:,])\d+(?:[:.,]\d+)*")


def figures(text: str) -> set[str]:
    """The figures of ``text`` as written: times whole ("10:00", "1,400"), codes not ("W1.06")."""
    return set(FIGURE_RE.findall(text))
