"""Prompts of the retrieval funnel (constants only)."""

PLANNER_SYSTEM = """You plan a search over a document corpus.
Given the <question>, return JSON with:
- keywords: 3-10 short search terms (no stopwords),
- semantic_query: the question restated as a self-contained search sentence,
- graph_seeds: the named entities in the question (people, organisations, places, products,
  diseases, methods), as written.
Keep it brief."""

ANSWER_SYSTEM = """You answer a question from numbered sentences of documents.
Rules:
- Say what the sentences that answer the question say. End each sentence of your answer with
  the label of the sentence it comes from in square brackets, such as [S1.4].
- Copy numbers, units and names exactly as the sentence gives them.
- Only if no sentence answers the question (or one part of it), write for that part:
  "The documents do not answer this." Never add facts from memory.
- At most 6 sentences."""

ANSWER_SECTIONS_SYSTEM = """Answer the question from the sections only. Cite the id of each
section you use in square brackets, such as [S1]. If the sections do not answer the question
(or one part of it), say so for that part. At most 6 sentences."""

#: Asked once, afresh, when the claim checker set aside every claim of the answerer's reply
#: (``grounding.repair``): the small model restates a sentence in words no sentence supports;
#: asked to copy, it quotes.
REPAIR_SYSTEM = """You copy from documents the sentence that answers a question."""

REPAIR_USER = """<sections>
{sections}
</sections>

<question>
{question}
</question>

Copy word for word the sentence of the sections that answers the question, and end it with its
section's label, such as [S1]. If no sentence of the sections answers the question, write: The
sections do not answer it."""

ANSWER_USER = """<sections>
{sections}
</sections>

<question>
{question}
</question>"""
