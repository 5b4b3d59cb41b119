"""Prompts of the MedRAG-style two-agent debate (``medrag_debate``).

Placeholders are filled with :meth:`str.format`; every piece of context is XML-tagged.
"""

#: An agent is one growing conversation (system → question → its search call → documents →
#: answer → next round...), so llama.cpp's prefix cache reuses every earlier call of its slot.
AGENT_SYSTEM = (
    "You are a careful medical expert debating another expert. You can search a corpus of "
    'documents by writing one call: retrieve("search terms"). When you answer, write at most '
    "2 short sentences, citing the documents you use as [S1], [S2]..., then end with "
    "\\boxed{{...}} holding {answer_hint}. The documents may be incomplete or irrelevant; "
    "then rely on your own knowledge."
)

AGENT_QUESTION = """<question>
{question}
</question>

<options>
{options}
</options>"""

#: Asks for the agent's own search call (parsed with the text tool-call parser).
QUERY_INSTRUCTION = """Write ONE search call for the documents you need, exactly like \
retrieve("search terms"), and nothing else."""

AGENT_DOCUMENTS = """<documents>
{sections}
</documents>

Do not search again. Answer now in at most 2 sentences, citing documents as [S1], then end \
with \\boxed{{...}} holding {answer_hint}."""

#: Round 2+: what the other agents said (appended to the agent's own conversation).
AGENT_PEERS = """<other_agents>
{peer_summaries}
</other_agents>

This is round {round}. Your previous answer was {previous_choice}. Weigh the other experts' \
reasoning against the documents; change your answer only if their arguments are convincing."""

PEER_SUMMARY = '<other_agent_summary agent="{agent}">\n{text}\n</other_agent_summary>'

NO_DOCUMENTS = "(no relevant documents were found)"

#: Shown instead of documents when the retriever failed (the agent reasons without evidence).
RETRIEVAL_FAILED = "(the search failed: answer from your own knowledge)"

#: Appended to the agent's conversation: its summary for the other agents (same prefix, so the
#: llama.cpp slot of the agent has it cached).
SUMMARY_INSTRUCTION = """Summarise your reasoning for the other expert in at most {max_words} \
words: the key evidence and your choice. End with \\boxed{{...}} holding {answer_hint}."""

#: Kept for callers of :func:`disputatio.nodes.medrag.text.summary_messages`.
SUMMARY_SYSTEM = (
    "You summarise a medical expert's reasoning for another expert. Keep the key evidence, "
    "the decisive argument and the chosen option. Be brief: at most {max_words} words."
)

SUMMARY_USER = """<question>
{question}
</question>

<options>
{options}
</options>

<reasoning>
{response}
</reasoning>

Summarise the reasoning above and end with \\boxed{{...}} holding the option it chose, \
{answer_hint}."""

VERIFIER_SYSTEM = (
    "You are a senior medical expert judging a debate between experts who did not agree. "
    "Decide which option is correct. Write at most 2 sentences, then end with \\boxed{{...}} "
    "holding {answer_hint}."
)

VERIFIER_USER = """<question>
{question}
</question>

<options>
{options}
</options>

<final_answers>
{final_answers}
</final_answers>

<debate>
{transcript}
</debate>

Which option is correct? At most 2 sentences, then \\boxed{{...}} holding {answer_hint}."""

FINAL_ANSWER_LINE = "{agent}: {choice}"

TRANSCRIPT_TURN = '<turn agent="{agent}" round="{round}">\n{text}\n</turn>'

#: Legacy single-prompt turns (kept for :func:`disputatio.nodes.medrag.text.agent_messages`).
AGENT_ROUND1 = """<documents>
{sections}
</documents>

<question>
{question}
</question>

<options>
{options}
</options>

Answer in at most 2 sentences, then end with \\boxed{{...}} holding {answer_hint}."""

AGENT_ROUND_N = """<documents>
{sections}
</documents>

<question>
{question}
</question>

<options>
{options}
</options>

<your_previous_answer>{previous_choice}</your_previous_answer>

<other_agents>
{peer_summaries}
</other_agents>

This is round {round}. Weigh the other experts' reasoning against the documents. Change your \
answer only if their arguments are convincing. Answer in at most 2 sentences, then end with \
\\boxed{{...}} holding {answer_hint}."""

#: Answer hints by option kind.
HINT_LETTERS = "one of the option letters {letters}"
HINT_LABELS = "one of: {labels}"

#: Single-agent baselines (benchmark harness).
BASELINE_SYSTEM = (
    "You are a careful medical expert. Choose exactly one option. Write at most 2 short "
    "sentences, then end with \\boxed{{...}} holding your answer: {answer_hint}."
)

BASELINE_COT = """<question>
{question}
</question>

<options>
{options}
</options>

Answer in at most 2 sentences, then end with \\boxed{{...}} holding {answer_hint}."""

BASELINE_RAG = """<documents>
{sections}
</documents>

<question>
{question}
</question>

<options>
{options}
</options>

Use the documents where they help. Answer in at most 2 sentences, then end with \
\\boxed{{...}} holding {answer_hint}."""

# --- numeric answers (GSM8K-style): no options, a free number in \boxed{N} -------------------
# Same conversation shape as above (question → [search call → documents] → answer → peers'
# summaries → ...), so the log and the llama.cpp prefix reuse stay as they are.

NUMERIC_AGENT_SYSTEM = (
    "You are a careful math expert debating another expert on a word problem. Solve it in a "
    "few short steps, then end your reply with the final number in a box, e.g. \\boxed{{42}} "
    "(digits only, no units)."
)

NUMERIC_AGENT_QUESTION = """<problem>
{question}
</problem>"""

#: Without retrieval: the instruction that asks for the solution (no documents block).
NUMERIC_AGENT_SOLVE = """Solve the problem in a few short steps, then end with \\boxed{{N}} \
holding the final number."""

#: With retrieval: the documents, then the same instruction.
NUMERIC_AGENT_DOCUMENTS = """<documents>
{sections}
</documents>

Do not search again. Use the documents only if they help. Solve the problem in a few short \
steps, then end with \\boxed{{N}} holding the final number."""

NUMERIC_AGENT_PEERS = """<other_agents>
{peer_summaries}
</other_agents>

This is round {round}. Your previous answer was {previous_choice}. Check the other experts' \
steps against your own; change your answer only if their reasoning is convincing."""

NUMERIC_SUMMARY_INSTRUCTION = """Summarise your solution for the other expert in at most \
{max_words} words: the key steps and your final number. End with \\boxed{{N}} holding it."""

NUMERIC_VERIFIER_SYSTEM = (
    "You are a senior math expert judging a debate between experts who did not agree on the "
    "answer to a word problem. Check their steps and decide which final number is correct. "
    "Write at most 3 short sentences, then end with \\boxed{{N}} holding the final number."
)

NUMERIC_VERIFIER_USER = """<problem>
{question}
</problem>

<final_answers>
{final_answers}
</final_answers>

<debate>
{transcript}
</debate>

Which final number is correct? At most 3 short sentences, then \\boxed{{N}} holding it."""
