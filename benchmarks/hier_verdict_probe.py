"""Probe: the first line a hierarchical-debate worker writes on yes/no questions (the 1.5B).

Run B's first records showed the workers opening with ``Verdict: No`` on questions whose gold
answer is yes, their support often affirming. This asks the local 1.5B (T=0, one synthesizer
call, the 4 first GOLD snippets as sections) on 12 DEV BioASQ questions (6 yes, 6 no; drawn with
seed 7 from those NOT among the results run's 50) in prompt variants; results in
docs/results/hier_probe/. Diagnostic only: no default was changed on it.

    export DISPUTATIO_HOME=/tmp/dh-diag
    .venv/bin/python benchmarks/hier_verdict_probe.py sub_tool,sub_now,flat_now
    .venv/bin/python benchmarks/hier_verdict_probe.py flat_letter,sub_answer,flat_answer,sub_nonote
    .venv/bin/python benchmarks/hier_verdict_probe.py flat_reason,sub_reason

Variants: ``flat_*`` the leaf is the question (options appended), ``sub_*`` the question as a
sub-question under the <main_question> block (the decomposed case); ``*_tool`` with the offer to
search, ``*_now`` told to answer now; ``flat_letter`` asks for an option's letter, ``*_answer``
for "Answer: ..." instead of "Verdict: ...", ``sub_nonote`` drops the "context only" note,
``*_reason`` asks for the support first and the verdict line last (its last verdict line read).
"""

import json
import random
import sys
import time
from pathlib import Path

from langchain_core.messages import HumanMessage, SystemMessage

from disputatio.eval.datasets import load_all
from disputatio.eval.runner import draw
from disputatio.nodes.debate.common import with_options
from disputatio.nodes.debate.context import DebateContext, resolve_config
from disputatio.nodes.debate.workers import worker_start
from disputatio.prompts.debate import ANSWER_NOW, PERSONAS, TOOL_OFFER

VERDICT = 'Your first line is the verdict: "Verdict: <the short answer>"'
ANSWER = 'Your first line is the short answer: "Answer: <the short answer>"'
REASON = (
    "First give the support in 1-3 sentences, then end with the verdict line: "
    '"Verdict: <the short answer>".'
)
NOTE = "(Context only: answer ONLY the question below, not the other parts of the main question.)\n"


def prompt(variant: str, question: str, main: str, shown: list[dict], cfg) -> tuple[str, str]:
    """(system, user) of one synthesizer call in ``variant``."""
    sub = variant.startswith("sub")
    system, head = worker_start(
        question if sub else main, main, shown, cfg, PERSONAS["synthesizer"]
    )
    user = head + (TOOL_OFFER if variant.endswith("_tool") else ANSWER_NOW)
    if variant == "flat_letter":
        system = system.replace("<the short answer>", "<the letter of one option>")
    if variant.endswith("_answer"):
        system = system.replace(VERDICT, ANSWER)
    if variant.endswith("_reason"):  # reason first, the verdict line last
        system = system.replace(VERDICT + ". Then give the support in 1-3 sentences.", REASON)
    if variant == "sub_nonote":
        user = user.replace(NOTE, "")
    return system, user


def main() -> None:
    variants = sys.argv[1].split(",")
    qs = load_all("bioasq")
    drawn = {q.id for q in draw(qs, 50, 0)}
    dev = [q for q in qs if q.id not in drawn and len(q.context) >= 2]
    rng = random.Random(7)
    sample = rng.sample([q for q in dev if q.gold == "yes"], 6)
    sample += rng.sample([q for q in dev if q.gold == "no"], 6)
    ctx = DebateContext(models={"worker": "local:qwen2.5-coder-1.5b"})
    cfg = resolve_config(ctx)
    llm = ctx.chat_model("worker", role="worker", temperature=0.0, max_tokens=cfg.max_tokens)
    out = []
    for q in sample:
        shown = [{"id": f"g{i}", "text": t, "source": "gold"} for i, t in enumerate(q.context[:4])]
        options = with_options(q.question, {"A": "yes", "B": "no"})
        for v in variants:
            system, user = prompt(v, q.question, options, shown, cfg)
            t0 = time.time()
            text = str(llm.invoke([SystemMessage(system), HumanMessage(user)]).content)
            lines = [x for x in text.strip().splitlines() if x.strip()] or [""]
            verdicts = [x for x in lines if x.replace("*", "").strip().startswith("Verdict")]
            first = verdicts[-1] if v.endswith("_reason") and verdicts else lines[0]
            row = {"q": q.id, "gold": q.gold, "v": v, "first": first, "text": text[:400]}
            out.append({**row, "s": round(time.time() - t0, 1)})
            print(json.dumps(out[-1]), flush=True)
    path = Path(f"docs/results/hier_probe/out_{'_'.join(variants)}.json")
    path.write_text(json.dumps(out))


if __name__ == "__main__":
    main()
