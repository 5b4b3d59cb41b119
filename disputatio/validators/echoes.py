"""An answer that quotes the question back: the quotation is taken out before claims are read.

The 1.5B answerer sometimes opens with the question in quotation marks: 'The answer to the
question "I'm a Member Tenant and we're moving away in the summer. Do I get my 1 pound share
back when I leave? " is no. According to …' (ah013, held-out set 33). Split into sentences,
the quotation became two pieces, the asker's "I'm a Member Tenant …" (a claim no sentence
states) and "Do I get my 1 pound share back when I leave?", shown as the answer, and the
verdict '" is no.' lost its subject. :func:`unquote_question` takes such a quotation out, and
"(Therefore,) the answer to the question is no." becomes the verdict "No.".
"""

from __future__ import annotations

import re

from disputatio.validators.sentences import words

#: A quotation: straight or curly double quotes around text with no quote inside.
_QUOTED_RE = re.compile(r"\s*(?:\"([^\"]+)\"|“([^”]+)”)")
#: "The answer to the question is no." (after its quotation was taken out): a bare verdict.
_ANSWER_IS_RE = re.compile(
    r"\b(?:(?:therefore|so|thus|hence),?\s+)?"
    r"the\s+answer\s+to\s+(?:the|this|your)\s+question\s+is\s+(yes|no)\b",
    re.I,
)


def _copies(quoted: str, question: str) -> bool:
    """Whether ``quoted`` is the question, or a sentence of it: a question of its words."""
    said = [w.casefold() for w in words(quoted)]
    asked = {w.casefold() for w in words(question)}
    return quoted.rstrip().endswith("?") and len(said) >= 3 and set(said) <= asked


def unquote_question(answer: str, question: str) -> str:
    """``answer`` without the quotations of ``question`` it holds (``answer`` when none).

    Only a quotation ending with a question mark whose every word is the question's is taken
    out; a quoted sentence of the documents stays.
    """
    if not question or ('"' not in answer and "“" not in answer):
        return answer

    def drop(m: re.Match[str]) -> str:
        quoted = m.group(1) or m.group(2)
        return "" if _copies(quoted, question) else m.group(0)

    out = _QUOTED_RE.sub(drop, answer)
    if out == answer:
        return answer
    return _ANSWER_IS_RE.sub(lambda m: m.group(1).capitalize(), out)
