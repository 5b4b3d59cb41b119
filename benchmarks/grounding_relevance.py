"""Does a relevance judge or a lexical rule tell near misses from answers? (grounding run 4)

For every quick-path answer of a grounding records file that was not refused and kept a
supported claim, asks the chat model, with log-probabilities (P(yes)), whether the supported
claims answer the question, with two prompts (``plain``: "Does the answer answer the
question?"; ``strict``: "only if about exactly what is asked ... a neighbouring thing does not"),
and computes the share of the question's content words (question-form words such as "often",
"long" left out) found in the supported claims (best claim per part). Prints and writes one
JSON line per answer; the reading is in docs/grounding.md ("Refusal: what was tried").

    .venv/bin/python benchmarks/grounding_relevance.py docs/grounding/records_run4.jsonl \\
        --out docs/grounding/relevance_run4.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "disputatio" / "data" / "grounding"
PROMPTS = {
    "plain": (
        "You check whether an answer answers a question.",
        "Question: {q}\nAnswer: {a}\nDoes the answer answer the question? Answer yes or no.\n"
        "Answer:",
    ),
    "strict": (
        "You check whether statements answer a question. They do only if they are about exactly "
        "what is asked: the same item, model, place, person, account type or quantity. A fact "
        "about a similar or neighbouring thing does not answer it.",
        "Question: {q}\nStatements: {a}\nDo the statements answer the question (or one of its "
        "parts)? Answer yes or no.\nAnswer:",
    ),
}
#: Stems of question-form words: they ask for a value, no answer repeats them.
ASKING = {"often", "long", "mani", "much", "time", "maximum", "minimum", "happen", "far"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("--model", default="local:qwen2.5-coder-1.5b")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    from langchain_core.messages import HumanMessage, SystemMessage

    from disputatio.models import get_chat_model
    from disputatio.validators.judge import SupportJudge
    from disputatio.validators.sentences import content_words

    questions = {
        q["id"]: q for q in map(json.loads, (DATA / "questions.jsonl").read_text().splitlines())
    }
    judge = SupportJudge(get_chat_model(args.model, temperature=0.0))

    def p_yes(system: str, user: str) -> float:
        return judge.p_yes([SystemMessage(system), HumanMessage(user)])

    done = set()
    if args.out.exists():
        done = {json.loads(x)["id"] for x in args.out.read_text().splitlines() if x}
    for line in args.records.read_text().splitlines():
        r: dict[str, Any] = json.loads(line)
        if r["system"] != "project" or r.get("refused") or r.get("not_found") or r["id"] in done:
            continue
        kept = [
            c["text"]
            for c in r["claims_detail"]
            if c.get("verdict") == "supported" and not c.get("dropped")
        ]
        if not kept:
            continue
        q = questions[r["id"]]
        parts = [p["question"] for p in q["parts"]] if q["kind"] == "multipart" else [q["question"]]
        cover = []
        for part in parts:
            wanted = content_words(part) - ASKING
            cover.append(max(len(wanted & content_words(c)) / max(len(wanted), 1) for c in kept))
        row = {
            "id": r["id"],
            "kind": q["kind"],
            "split": q["split"],
            "parts_right": r["parts_right"],
            "question_words_in_claims": round(max(cover), 3),
        }
        for name, (system, user) in PROMPTS.items():
            row[name] = round(p_yes(system, user.format(q=q["question"], a=" ".join(kept))), 3)
        with args.out.open("a") as fh:
            fh.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
