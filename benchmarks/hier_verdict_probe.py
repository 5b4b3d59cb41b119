"""Probe: the first line a hierarchical-debate worker writes on yes/no questions (the 1.5B).

Run B's first records showed the workers opening with ``Verdict: No`` on questions whose gold
answer is yes, their support often affirming. This asks the local 1.5B (T=0, one synthesizer
call, the 4 first GOLD snippets as sections) on 12 DEV BioASQ questions (6 yes, 6 no; drawn with
seed 7 from those NOT among the results run's 50) in prompt variants; results in
docs/results/hier_probe/. No default was changed on them; the persona probes below added the
``critic`` and ``close_reader`` personas (``debate.personas``; docs/results.md).

    export DISPUTATIO_HOME=/tmp/dh-diag
    .venv/bin/python benchmarks/hier_verdict_probe.py sub_tool,sub_now,flat_now
    .venv/bin/python benchmarks/hier_verdict_probe.py flat_letter,sub_answer,flat_answer,sub_nonote
    .venv/bin/python benchmarks/hier_verdict_probe.py flat_reason,sub_reason
    # the lead checked on fresh dev questions (20 yes, 20 no; not the 12 above): DATASET N SEED
    .venv/bin/python benchmarks/hier_verdict_probe.py flat_now,flat_reason bioasq 20 8
    .venv/bin/python benchmarks/hier_verdict_probe.py flat_now,flat_reason pubmedqa 20 8
    .venv/bin/python benchmarks/hier_verdict_probe.py sub_now,sub_reason bioasq 20 8
    # the debate's other personas (devil's advocate, skeptic) on the same fresh 40
    .venv/bin/python benchmarks/hier_verdict_probe.py flat_devil,flat_skeptic bioasq 20 8

Variants: ``flat_*`` the leaf is the question (options appended), ``sub_*`` the question as a
sub-question under the <main_question> block (the decomposed case); ``*_tool`` with the offer to
search, ``*_now`` told to answer now; ``flat_letter`` asks for an option's letter, ``*_answer``
for "Answer: ..." instead of "Verdict: ...", ``sub_nonote`` drops the "context only" note,
``*_reason`` asks for the support first and the verdict line last (its last verdict line read);
``flat_devil`` and ``flat_skeptic`` are ``flat_now`` with the devil's advocate's or the skeptic's
persona instead of the synthesizer's. Persona candidates (:data:`CANDIDATES`), chosen on BioASQ
seed 8 (dev) and checked on BioASQ seed 9 (held out; 1 question shared with seed 8) and PubMedQA
seed 8 (not used for personas before): ``flat_devil2`` / ``flat_skeptic2`` (milder wordings),
``flat_devil3`` / ``flat_skeptic3`` ("your verdict is the answer the sections support", doubt
after it), ``flat_critic`` (``flat_devil3``'s words, named "the critic"), ``flat_reader`` (the
close reader). The critic and the close reader are now in ``PERSONAS`` (by name):

    .venv/bin/python benchmarks/hier_verdict_probe.py flat_now,flat_devil2,flat_skeptic2 bioasq 20 8
    .venv/bin/python benchmarks/hier_verdict_probe.py flat_devil3,flat_skeptic3 bioasq 20 8
    .venv/bin/python benchmarks/hier_verdict_probe.py flat_reader bioasq 20 8
    .venv/bin/python benchmarks/hier_verdict_probe.py flat_critic bioasq 20 8
    # held out
    .venv/bin/python benchmarks/hier_verdict_probe.py flat_now,flat_critic,flat_reader bioasq 20 9
    .venv/bin/python benchmarks/hier_verdict_probe.py flat_devil,flat_skeptic bioasq 20 9
    .venv/bin/python benchmarks/hier_verdict_probe.py flat_critic,flat_reader pubmedqa 20 8
    .venv/bin/python benchmarks/hier_verdict_probe.py flat_devil,flat_skeptic pubmedqa 20 8
"""

import json
import random
import sys
import time
from pathlib import Path

from langchain_core.messages import HumanMessage, SystemMessage

from disputatio.eval.datasets import load_all
from disputatio.eval.runner import draw
from disputatio.nodes.debate.agreement import verdict
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
#: Variant suffix → persona (the shipped ones, or a candidate wording below).
PERSONA_OF = {
    "devil": "devils_advocate",
    "skeptic": "skeptic",
    "devil2": "devils_advocate2",
    "skeptic2": "skeptic2",
    "devil3": "devils_advocate3",
    "skeptic3": "skeptic3",
    "reader": "close_reader",  # now in PERSONAS
    "critic": "critic",  # now in PERSONAS
}
#: Candidate wordings of the adversarial personas: the verdict follows the sections, the
#: persona's doubt goes into the support (the old wordings made the 1.5B answer No to all). The
#: two that did best, ``critic`` and ``close_reader``, are in ``PERSONAS`` now.
CANDIDATES = {
    "devils_advocate2": (
        "You are the devil's advocate: give the answer the sections support, then name the "
        "strongest caveat or counter-evidence they contain, if any."
    ),
    "skeptic2": (
        "You are the skeptic: give the answer the sections support, and say which part of it "
        "they do not establish, if any."
    ),
    "devils_advocate3": (
        "You are the devil's advocate. Your verdict is the answer the sections support. After "
        "it, name the strongest counter-point the sections give, if any."
    ),
    "skeptic3": (
        "You are the skeptic. Your verdict is the answer the sections support. After it, say "
        "which of your claims rests on the weakest evidence."
    ),
}
NOTE = "(Context only: answer ONLY the question below, not the other parts of the main question.)\n"


def prompt(variant: str, question: str, main: str, shown: list[dict], cfg) -> tuple[str, str]:
    """(system, user) of one synthesizer call in ``variant``."""
    sub = variant.startswith("sub")
    persona = {**PERSONAS, **CANDIDATES}.get(PERSONA_OF.get(variant.split("_")[-1], ""))
    system, head = worker_start(
        question if sub else main, main, shown, cfg, persona or PERSONAS["synthesizer"]
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


def dev_sample(dataset: str, per_class: int, seed: int) -> list:
    """``per_class`` yes and no DEV questions: not among the results run's 50 drawn (seed 0).

    Any other seed than 7 also leaves out the first probe's 12 (seed 7, 6 a class), so that a
    lead found on those is checked on questions it was not found on.
    """
    qs = load_all(dataset)
    drawn = {q.id for q in draw(qs, 50, 0)}
    dev = [q for q in qs if q.id not in drawn and len(q.context) >= 2]
    if seed != 7:
        drawn |= {q.id for q in dev_sample(dataset, 6, 7)}
        dev = [q for q in dev if q.id not in drawn]
    rng = random.Random(seed)
    sample = rng.sample([q for q in dev if q.gold == "yes"], per_class)
    return sample + rng.sample([q for q in dev if q.gold == "no"], per_class)


def score(rows: list[dict]) -> dict[str, str]:
    """Right answers per variant (the verdict read as the eval reads it: yes/no or A/B)."""
    right: dict[str, int] = {}
    for row in rows:
        said = verdict(row["first"]) or ""
        said = {"a": "yes", "b": "no", "c": "maybe"}.get(said, said)
        right[row["v"]] = right.get(row["v"], 0) + (said == row["gold"])
    n = len({row["q"] for row in rows})
    return {v: f"{k}/{n}" for v, k in right.items()}


def main() -> None:
    variants = sys.argv[1].split(",")
    dataset = sys.argv[2] if len(sys.argv) > 2 else "bioasq"
    per_class = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 7
    sample = dev_sample(dataset, per_class, seed)
    ctx = DebateContext(models={"worker": "local:qwen2.5-coder-1.5b"})
    cfg = resolve_config(ctx)
    llm = ctx.chat_model("worker", role="worker", temperature=0.0, max_tokens=cfg.max_tokens)
    out = []
    for q in sample:
        shown = [{"id": f"g{i}", "text": t, "source": "gold"} for i, t in enumerate(q.context[:4])]
        labels = q.options if isinstance(q.options, list) else list(q.options.values())
        options = with_options(q.question, dict(zip("ABCDE", labels, strict=False)))
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
    tag = "" if (dataset, per_class, seed) == ("bioasq", 6, 7) else f"_{dataset}{per_class}s{seed}"
    path = Path(f"docs/results/hier_probe/out_{'_'.join(variants)}{tag}.json")
    path.write_text(json.dumps(out))
    print(json.dumps(score(out)))


if __name__ == "__main__":
    main()
