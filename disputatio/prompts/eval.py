r"""Prompts of the evaluation protocols: log-probability verdicts and Du et al.'s debate.

Module constants only (``str.format`` templates: ``{{`` is one brace).
"""

#: System prompt of a label verdict (the reply is read as log-probabilities, one token).
LABEL_SYSTEM = (
    "You are a careful medical expert. Reply with the label of the correct option only "
    "({labels}), nothing else."
)

#: A label verdict without evidence; ends where the label comes next.
LABEL_USER = """<question>
{question}
</question>

<options>
{options}
</options>

Reply with exactly one of {labels} and nothing else.
Answer:"""

#: A label verdict with evidence (retrieved, or the question's own context).
LABEL_USER_EVIDENCE = """<documents>
{sections}
</documents>

<question>
{question}
</question>

<options>
{options}
</options>

Use the documents where they help. Reply with exactly one of {labels} and nothing else.
Answer:"""

#: Content-free inputs of contextual calibration (Zhao et al. 2021, "Calibrate Before Use"):
#: each replaces the question, the option texts and the documents; labels are kept.
CONTENT_FREE_INPUTS = ("N/A", "", "[MASK]")

# Du et al. (2023), "Improving Factuality and Reasoning in Language Models through Multiagent
# Debate", gsm/gen_gsm.py, verbatim (the question is formatted in; {{answer}} is literal).
#: First round: each agent answers alone.
DU_GSM_START = (
    "Can you solve the following math problem? {question} Explain your reasoning. Your final "
    "answer should be a single numerical number, in the form \\boxed{{answer}}, at the end of "
    "your response. "
)
#: Later rounds: the other agents' previous answers, then the request for an updated answer.
DU_GSM_DEBATE_PREFIX = "These are the solutions to the problem from other agents: "
#: One other agent's previous answer.
DU_GSM_AGENT_SOLUTION = "\n\n One agent solution: ```{solution}```"
#: The closing request of a later round.
DU_GSM_DEBATE_SUFFIX = (
    "\n\n Using the solutions from other agents as additional information, can you provide "
    "your answer to the math problem? \n The original math problem is {question}. Your final "
    "answer should be a single numerical number, in the form \\boxed{{answer}}, at the end of "
    "your response."
)
