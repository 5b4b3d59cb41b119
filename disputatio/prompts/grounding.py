"""Prompts of the claim checker's judge (constants only).

The judge is asked only about a claim whose best sentence the guards let through but the
similarity score leaves in doubt (:class:`disputatio.validators.support.JudgedSupport`); the
prompt ends where ``yes`` or ``no`` comes next, so the answer is read from log-probabilities.
Measured on the labelled claim/passage pairs (``benchmarks/claim_checker.py``,
docs/grounding.md): change it only with a re-measurement.
"""

SUPPORT_JUDGE_SYSTEM = (
    "You check whether a passage states a claim. A paraphrase counts; a different number, "
    "unit, name, or a claim that adds facts the passage does not state, does not."
)

SUPPORT_JUDGE_USER = """{section}Passage: {passage}
Claim: {claim}
Does the passage state the claim? Answer yes or no.
Answer:"""

#: Line naming the passage's section (its title and headings), when it has one.
SUPPORT_JUDGE_SECTION = "Section: {context}\n"

#: The judge's prompt when it is told the question the claim answers
#: (``grounding.judge_question``): the claim may restate the question's framing.
SUPPORT_JUDGE_USER_QUESTION = """{section}Question: {question}
Passage: {passage}
Claim (an answer to the question): {claim}
Does the passage state the claim? Answer yes or no.
Answer:"""

#: Does a supported answer answer the question asked, or a neighbouring one? (the "strict"
#: wording of ``benchmarks/grounding_relevance.py``, chosen among three on the confidence's
#: fit answers: docs/grounding.md, "Does the answer answer the question?").
RELEVANCE_JUDGE_SYSTEM = (
    "You check whether statements answer a question. They do only if they are about exactly "
    "what is asked: the same item, model, place, person, account type or quantity. A fact "
    "about a similar or neighbouring thing does not answer it."
)

RELEVANCE_JUDGE_USER = """Question: {question}
Statements: {statements}
Do the statements answer the question (or one of its parts)? Answer yes or no.
Answer:"""
