"""Prompts of ResearchDebateChain: specialist turns, votes, and the default specialists.

Templates are filled with ``str.format``; the XML tags delimit the context the agents see.
"""

#: Default specialists per domain: ``(name, focus)``. Cases or the run context may override.
DEFAULT_SPECIALISTS: dict[str, tuple[tuple[str, str], ...]] = {
    "medical": (
        ("infectious", "infectious diseases: pathogens, exposures, cultures and serology"),
        ("autoimmune", "rheumatology and autoimmune or autoinflammatory disease"),
        ("metabolic_genetic", "metabolic and genetic disorders"),
        ("hematology_oncology", "haematology and oncology: blood counts, marrow, lymphoma"),
        ("imaging", "radiology and imaging findings"),
        ("pharmacology", "drugs, toxicity and drug reactions"),
        ("epidemiology", "epidemiology: base rates, travel, animal and food exposures"),
        ("data_quality", "reliability of the evidence: sources, measurement, second-hand reports"),
    ),
    "generic": (
        ("domain_expert", "the subject matter of the case"),
        ("methodologist", "study design, measurement and statistics"),
        ("data_quality", "reliability of the evidence and its sources"),
    ),
}

SPECIALIST_SYSTEM = """You are the {name} specialist in a structured debate. Your focus: {focus}.
Reply with ONE compact JSON object, for example:
{{"summary": "<your point>", "claims": [{{"id": "c1", "text": "<one finding, in your words>", \
"provenance": ["<an id from citable_ids>"], "quality": 0.8, "bearings": [{{"hypothesis": \
"<a hypothesis id>", "llr": 1.1}}]}}], "relations": []}}
Rules:
- provenance MUST list ids from <citable_ids> only; a claim citing anything else is rejected.
- llr is a natural-log likelihood ratio: positive supports, negative argues against \
(0.7 = twice as likely, 1.6 = five times, 2.3 = ten times).
- A relation {{"source": your claim id, "target": an evidence id from <graph>, "kind": \
"attacks" or "supports"}} undercuts unreliable evidence or corroborates sound evidence.
- At most 2 claims. Write your own words: one short sentence per text.
Optional keys: "hypotheses": [{{"id", "label", "provenance": [section ids]}}] adds a hypothesis \
the sections suggest (back it with a claim bearing on it); "queries": [{{"id", "question", \
"target": a node id}}] asks the others; a relation of kind "answers" from your claim to a query \
id answers it; "tests": [{{"id", "label", "positive": [{{"hypothesis", "probability"}}], "cost", \
"risk"}}] proposes a test."""

PHASE_INSTRUCTIONS: dict[str, str] = {
    "challenges": "Phase: challenges. Put forward the evidence from your field that best "
    "discriminates between the hypotheses, and challenge evidence you find unreliable.",
    "rebuttal": "Phase: rebuttal. Answer the attacks made so far: attack attacking claims you "
    "think are wrong, or support evidence that was attacked unfairly.",
    "cross_examination": "Phase: cross-examination. Examine the other specialists' claims: "
    "attack weakly sourced or overstated ones, support well-founded ones.",
    "appeal": "Phase: appeal on the top conflict pair. Put forward the strongest traceable "
    "evidence on which of the two hypotheses of the pair is more likely.",
}

TURN_TEMPLATE = """<case>
{case}
</case>
<hypotheses>
{hypotheses}
</hypotheses>
<graph>
{graph}
</graph>
<posterior>
{posterior}
</posterior>
<sections>
{sections}
</sections>
<citable_ids>{citable}</citable_ids>
<phase>{phase}</phase>
{instruction}"""

VOTE_SYSTEM = """You are the {name} specialist ({focus}). The debate is over: rank the \
hypotheses by giving each a probability. Reply with ONE compact JSON object, for example:
{{"probabilities": [{{"hypothesis": "<id>", "probability": 0.6}}, {{"hypothesis": "<id>", \
"probability": 0.3}}, {{"hypothesis": "<id>", "probability": 0.1}}], "rationale": "One short \
sentence."}}"""

#: Added to the cross-examination instruction: the hotspots to examine first.
HOTSPOTS = "Examine these hotspots first (unresolved or contested evidence): {spots}."

#: Added to the turn instruction while queries are open.
OPEN_QUERIES = 'Open questions (answer with a relation of kind "answers"): {queries}.'

#: Added to the appeal instruction: the pair under appeal.
APPEAL_PAIR = "The pair under appeal: {top} (leading) against {challenger}."

VOTE_TEMPLATE = """<case>
{case}
</case>
<hypotheses>
{hypotheses}
</hypotheses>
<graph>
{graph}
</graph>
<posterior>
{posterior}
</posterior>
Give every hypothesis id above a probability; they should sum to 1."""

#: Retrieval query of a specialist turn.
RETRIEVAL_QUERY = "{hypotheses}: {focus}"

#: Shown when a turn retrieved nothing citable.
NO_SECTIONS = "(no sections: cite case evidence ids)"
