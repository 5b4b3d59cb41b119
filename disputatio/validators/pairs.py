"""A claim that takes its subject from one sentence of a window and its numbers from the other.

An evidence window may be two adjacent sentences (a fact and its condition are often split
across them). The number guard asks only that each number of a claim be somewhere in the
window, so a claim may join the thing one sentence names with the amounts the other gives:
"A2 training for riders aged 19 to 23 takes 5 days and costs 890 GBP" was shown supported on
"A2 training for riders aged 19 to 23 takes 4 days and costs 760 GBP. Direct access training
for riders aged 24 and over takes 5 days and costs 890 GBP …" (set 18's f020, the hierarchical
debate, run 29). :func:`mixed_pair` finds a sentence of the window that alone names a name of
the claim and gives, in a unit of the claim's, another amount than the claim's — unless the
other sentence refers back to it ("It is driven by …"): then both are about the named thing.

Lexical; no model call.
"""

from __future__ import annotations

import re

from disputatio.validators.names import names
from disputatio.validators.sentences import split_sentences, stated_numbers

#: A sentence about the thing the sentence before it named ("It is driven by …").
_REFERS_BACK_RE = re.compile(r"^\W*(?:it|its|they|their|this|these|he|she|his|her)\b", re.I)


def mixed_pair(claim: str, window: str) -> str:
    """Why ``claim`` mixes the sentences of ``window``, or ``""``.

    Returns:
        "the sentence naming <name> gives <value> <unit>, not <claim's value>" when a sentence
        of the window names a name of the claim that no other sentence of it names, and
        states an amount in a unit of a claim's number but not the claim's amount in it.
    """
    amounts = [(n, u) for n, u in stated_numbers(claim) if u is not None]
    claim_names = names(claim)
    if not amounts or not claim_names:
        return ""  # cached per claim: most claims end here, before the window is split
    spans = split_sentences(window)
    if len(spans) < 2:
        return ""
    sentences = [span.sentence for span in spans]
    for i, sentence in enumerate(sentences):
        rest = [s for j, s in enumerate(sentences) if j != i]
        if any(_REFERS_BACK_RE.match(s) for s in rest):
            continue  # "The Havørn-300 has a depth rating of 3,000 m. It is … by a 600 m tether"
        others = names(" ".join(rest))
        own = sorted((claim_names & names(sentence)) - others)
        if not own:
            continue
        said = stated_numbers(sentence)
        for number, unit in amounts:
            values = sorted({n for n, u in said if u == unit})
            if values and (number, unit) not in said:
                return f"the sentence naming {own[0]} gives {values[0]} {unit}, not {number}"
    return ""
