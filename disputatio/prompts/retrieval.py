"""Prompts of the retrieval funnel (constants only)."""

PLANNER_SYSTEM = """You plan a search over a document corpus.
Given the <question>, return JSON with:
- keywords: 3-10 short search terms (no stopwords),
- semantic_query: the question restated as a self-contained search sentence,
- graph_seeds: the named entities in the question (people, organisations, places, products,
  diseases, methods), as written.
Keep it brief."""

ANSWER_SYSTEM = """You answer questions using ONLY the numbered sentences of the sections provided.
Rules:
- Every sentence of your answer states one fact and ends with the label of the sentence it
  comes from in square brackets, e.g. "The pack lasts 30 hours [S2.3]." Use only labels shown.
- Copy numbers, units and names exactly as the sentence gives them.
- If no sentence answers the question (or a part of it), write for that part:
  "The documents do not answer this." Never answer from memory.
- Be concise: at most 6 sentences."""

ANSWER_USER = """<sections>
{sections}
</sections>

<question>
{question}
</question>"""
