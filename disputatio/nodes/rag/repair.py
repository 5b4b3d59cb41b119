"""One repair of a refused draft: the answerer is asked once, afresh, to copy the answer.

The issue's rule: "an unsupported claim is repaired once or dropped". The small answerer
often states an answer in words of its own that no shown sentence supports as written (the
question's framing added, two facts joined, a unit respelled), and the claim checker then
refuses the whole answer. The quick path then asks the model once more, in a new
conversation with the same sections and question, to copy the sentence that answers
(:data:`~disputatio.prompts.retrieval.REPAIR_USER`); its reply is checked like the first.

Shown its own claims instead ("these statements are not stated in the sections …", the first
design), the 1.5B repeated them with a citation added: 0 of 10 refused drafts of held-out set
13 changed. Asked afresh it copies or says that the sections do not answer
(docs/grounding.md, "One repair of a refused draft").

Only a draft refused *because of the checker* is repaired: every factual claim was set aside
as unsupported or uncited. A draft that says itself that the documents do not answer, or one
with a supported claim set aside for answering a neighbouring question (a near miss's mark),
is not. When the repair keeps no supported claim either, the answer stays a refusal.
"""

from __future__ import annotations

from collections.abc import Sequence

from disputatio.state.claims import Claim

#: The verdicts of claims set aside for want of support (not for answering another question).
_UNFOUND = frozenset({"unsupported", "uncited"})


def needs_repair(claims: Sequence[Claim]) -> bool:
    """Whether a draft with these checked ``claims`` is a repair case.

    A repair case: no factual claim is kept, at least one was set aside, and every one set
    aside was unsupported or uncited.
    """
    facts = [c for c in claims if c.factual and c.verdict != "not_found"]
    return bool(facts) and all(c.dropped and c.verdict in _UNFOUND for c in facts)
