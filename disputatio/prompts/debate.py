"""Prompts of the hierarchical debate graph (module constants only; filled with ``str.format``).

Context is XML-tagged (``<question>``, ``<sections>``, ``<answers>``...). Sections are shown
with short labels (``S1``, ``S2``...) that small models copy reliably; every prompt asks for
citations as ``[S1]`` and the nodes map the labels back to section ids.
"""

#: Nested plan (strong models): a one-shot example of the JSON shape.
ORCHESTRATOR_SYSTEM = """You plan research. Split a question into simpler sub-questions only \
when that helps answer it from documents. Each sub-question must be self-contained and \
answerable on its own: it names its subject (never "it", "its", "they" or "this" for \
something named only in the main question). Use at most {breadth} sub-questions per question \
and nest at most {depth} level(s). If the question is already simple, return an empty list.

Example: for "Which drug treats brucellosis, and what are its side effects?" return
{{"subquestions": [{{"question": "Which drug treats brucellosis?", "subquestions": []}}, \
{{"question": "What are the side effects of doxycycline?", "subquestions": []}}]}}"""

#: Flat plan (small local models): a list of at most ``breadth`` questions, one-shot example.
ORCHESTRATOR_FLAT_SYSTEM = """You plan research. If a question asks several things, split it \
into at most {breadth} simple, self-contained sub-questions, one per thing asked. Each one \
names its subject by name, never as "it" or "its". If it asks one thing, return an empty list.

Example: for "What is the boiling point of ethanol, and is it toxic to cats?" return
{{"subquestions": ["What is the boiling point of ethanol?", "Is ethanol toxic to cats?"]}}"""

ORCHESTRATOR_USER = """<question>
{question}
</question>
Return the sub-questions as JSON."""

#: Persona name → instruction. ``debate.personas`` picks the workers' personas, in order (any
#: other string there is used as the instruction itself); the default is the synthesizer, the
#: devil's advocate and the skeptic. On the local 1.5B those two answer No to nearly every yes/no
#: question; the critic and the close reader (verdict = what the sections support, the doubt
#: after it) answered like the synthesizer on dev and held-out probes (docs/results.md, "Worker
#: personas"). They are not the default yet: the debate's accuracy with them (run C) is not
#: measured, and the 0.5B end-to-end test once ended "Verdict: NONE" with them.
PERSONAS = {
    "synthesizer": (
        "You are the synthesizer: combine the evidence into the most complete, balanced answer."
    ),
    "critic": (
        "You are the critic. Your verdict is the answer the sections support. After it, name the "
        "strongest counter-point the sections give, if any."
    ),
    "close_reader": (
        "You are the close reader: answer from the exact wording of the sections and quote the "
        "sentence that decides the answer."
    ),
    "devils_advocate": (
        "You are the devil's advocate: check the sections for evidence against the obvious "
        "answer. If they support it, agree in your verdict and name any caveat; argue an "
        "alternative only when the sections give one."
    ),
    "skeptic": (
        "You are the skeptic: accept only claims the sections clearly support and say what "
        "the evidence does not establish."
    ),
}

#: Where an answer puts its verdict line (``DebateContext.verdict_last``), by prompt: verdict
#: first (the default) or the support first and the verdict line last (the local 1.5B was no
#: better with it on fresh dev questions, docs/results.md). The nodes move a last verdict line to
#: the top of the answer, so everything downstream reads the verdict first either way.
VERDICT_FORMS = {
    "first": {
        "worker": 'Your first line is the verdict: "Verdict: <the short answer>". Then give the '
        "support in 1-3 sentences.",
        "no_rag": 'Your first line is the verdict: "Verdict: <the short answer>".',
        "debate": "verdict line first",
        "summary": 'Start with the verdict line "Verdict: <the short answer>".',
        "final": 'Your first line is the verdict: "Verdict: <{answer}>".{rule} Then say in one '
        "sentence which sub-answers decide it.",
    },
    "last": {
        "worker": "First give the support in 1-3 sentences, then end with the verdict line: "
        '"Verdict: <the short answer>".',
        "no_rag": "First give your reasons in 1-3 sentences, then end with the verdict line: "
        '"Verdict: <the short answer>".',
        "debate": "support first, verdict line last",
        "summary": 'End with the verdict line "Verdict: <the short answer>".',
        "final": "First say in one sentence which sub-answers decide it, then end with the "
        'verdict line: "Verdict: <{answer}>".{rule}',
    },
}

#: The start of every system prompt of a leaf (its workers, reviewer and summarizer): the rules
#: and the leaf's sections. It is the same text for all of them, so on a llama.cpp slot that holds
#: one of their prompts the others read only what follows it: their role (:data:`ROLE_BLOCK`)
#: and their user message. The role stays in the system prompt, where small models read it as an
#: instruction (in the user message, right before the request to answer, a 0.5B model echoed it).
WORKER_SYSTEM = """Answer the <question> from the <sections> only. {form} Cite every claim with \
its section label in square brackets, e.g. [{example_id}]. If the sections answer only part \
of the question, answer that part and say what is missing. Be concise (at most {max_words} \
words).
<sections>
{sections}
</sections>
"""

WORKER_SYSTEM_NO_RAG = """Answer from your own knowledge. {form} Be concise (at most \
{max_words} words).
"""

#: Ends every system prompt of a leaf: the agent's persona, or the reviewer's role.
ROLE_BLOCK = "Your role: {role}"

#: The role of the reviewer and of the summarizer, which extends the reviewer's conversation
#: (their system prompt starts like the workers', :data:`WORKER_SYSTEM`).
REVIEWER_ROLE = (
    "You are the moderator of the agents' debate: first you review their answers against the "
    "sections, then you write the final answer."
)

#: Shown with a sub-question: the user's question is context, not something to answer here.
MAIN_QUESTION_BLOCK = """<main_question>
{main_question}
</main_question>
(Context only: answer ONLY the question below, not the other parts of the main question.)
"""

#: The start of every user message of a leaf (workers, reviewer, summarizer).
WORKER_HEAD = """{main_block}<question>
{question}
</question>
"""

WORKER_USER = WORKER_HEAD + "{debate_block}{instruction}"

DEBATE_BLOCK = """<your_previous_answer>
{previous}
</your_previous_answer>
<other_answers>
{others}
</other_answers>
"""

OTHER_ANSWER = """<answer agent="{agent}" persona="{persona}">
{content}
</answer>"""

#: A debate round as a new turn of the worker's own conversation (``continue_turns``): its
#: previous answer is already there, as its own message.
DEBATE_TURN = """<other_answers>
{others}
</other_answers>
{instruction}"""

#: Inserted as a value (not formatted): single braces.
TOOL_OFFER = """If the sections are not enough, you may search the documents ONCE instead of \
answering: reply with only a call such as
```json
{"name": "retrieve_corpus_sections", "arguments": {"query": "your search terms"}}
```
Otherwise answer now."""

#: Worded so that it cannot pass for an answer: small models copied "the verdict line first"
#: as their verdict when this followed the question directly.
ANSWER_NOW = (
    "Now answer the <question> from the <sections>, citing them by label. Do not call any tool."
)

ANSWER_NOW_NO_RAG = "Now answer the <question>."

DEBATE_INSTRUCTION = """Read the other answers. Keep, revise or correct your answer ({form}); \
point out unsupported claims in the others."""

#: Asked once when an answer cites none of the sections it was shown; the reply is only labels
#: (the answer is kept, each named section cited where the answer uses it).
CITE_REPAIR = """Your answer cites no section. Which of the <sections> support it? Reply with \
only their labels in square brackets, e.g. [S1] [S3], or NONE."""

NO_SECTIONS = "NO_SUITABLE_CONTEXT: no section was found."

NO_ANSWER = "No answer was given."

#: The reviewer's turn. It follows the leaf's system prompt (rules, sections; the reviewer's role)
#: and the question (:data:`WORKER_HEAD`).
REVIEWER_TURN = """{more_sections}<transcript>
{transcript}
</transcript>
Do not answer the question yourself now: review the debate in the <transcript>. Point out which \
claims are supported by the cited sections, which are unsupported or contradicted, and where \
the agents still disagree. Cite sections by label, e.g. [{example_id}]. Be brief (at most \
{max_words} words).{search}
Write your critique."""

#: The reviewer's turn as a new turn of the conversation of the worker that answered last
#: (``continue_turns``): that worker's answers and the others' earlier answers are above it.
REVIEWER_CONTINUE = """{more_sections}<latest_answers>
{answers}
</latest_answers>
You now leave the debate and become its moderator. Do not answer the question yourself now: \
review the debate, every answer above and the <latest_answers>. Point out which claims are \
supported by the cited sections, which are unsupported or contradicted, and where the agents \
still disagree. Cite sections by label, e.g. [{example_id}]. Be brief (at most {max_words} \
words).{search}
Write your critique."""

#: Sections of the leaf that the host worker was not shown (labels continue its own).
MORE_SECTIONS = """<more_sections>
{sections}
</more_sections>
"""

#: Added to the reviewer's turn while it may still ask for evidence (bounded by settings).
REVIEWER_SEARCH = """ If a disputed claim needs checking against the documents, end your \
critique with one search call: retrieve("search terms")."""

TRANSCRIPT_MOVE = """<move agent="{agent}" role="{role}" round="{round}">
{content}
</move>"""

#: The summarizer's turn: it follows the reviewer's conversation (question, sections,
#: transcript) and its critique, so the server reads only this turn.
SUMMARIZER_TURN = """{more_sections}Now write the final answer to the <question> after this \
debate. Use the sections, the debate and the review; keep only claims the sections support. \
{form} Cite every claim with its section \
label in square brackets, e.g. [{example_id}]. Answer only the <question>. Be concise (at most \
{max_words} words).
Write the answer."""

#: The final verdict of a decomposed question (``final_verdict``): a composition answers each
#: sub-question, not the question, so one call reads the sub-answers and gives the short answer
#: (an option's letter on a multiple-choice question); its verdict line heads the composition.
FINAL_VERDICT_SYSTEM = """You answer a question from the answers to its sub-questions. {form}"""

#: The verdict on a multiple-choice question: as the single-agent baselines, it must name an
#: option (a refusal copied from a sub-answer would score as no answer).
VERDICT_OPTION = "the letter of one option"
CHOOSE_ONE = (
    " Choose exactly one option, the one the sub-answers support best, even when they are "
    "incomplete."
)
#: The verdict on any other question.
VERDICT_SHORT = "the short answer"

FINAL_VERDICT_USER = """<question>
{question}
</question>
<sub_answers>
{children}
</sub_answers>
Give the verdict on the <question>."""

#: One part of an internal node's composed answer: a sub-question and its own answer.
COMPOSED_PART = """{question}
{answer}"""

SUB_ANSWER = """<sub_answer id="{id}">
<sub_question>{question}</sub_question>
{answer}
</sub_answer>"""

OPTIONS_BLOCK = """
Options:
{options}"""
