"""Does telling the judge which words of a claim its passage lacks help it? (not adopted)

Collects the distinct kept supported claims of the latest records of every grounding question
set whose best window the hybrid score leaves to the judge (``[0.5, 0.97)``): those of one-part
answerable questions answered right (label 1) and of near misses answered (label 0). Each is
judged twice by the 1.5B: with the shipped prompt, and with one more line naming the claim's
content words the passage does not use ("Words of the claim that the passage does not use:
bottles."). Writes one JSON line a claim; ``--summary`` prints each prompt's AUC and how many
claims of each label reach P(yes) 0.5. Reading in docs/grounding.md ("Which checker").

    .venv/bin/python benchmarks/grounding_judge_hint.py \
        > docs/grounding/experiments/judge_hint_partial.jsonl  # stopped after 106 claims
    .venv/bin/python benchmarks/grounding_judge_hint.py --summary \
        docs/grounding/experiments/judge_hint_partial.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grounding_joins import latest_records

ROOT = Path(__file__).resolve().parents[1]
HINT = """Passage: {passage}
Claim: {claim}
Words of the claim that the passage does not use: {missing}.
Does the passage state the claim? Answer yes or no.
Answer:"""


def missing_words(claim: str, window: str) -> list[str]:
    """The claim's content words (3+ letters, no digits) whose stem the window lacks."""
    from disputatio.validators.sentences import STOPWORDS, stem, words

    have = {stem(t.casefold()) for t in words(window)}
    out: list[str] = []
    for tok in words(claim):
        low = tok.casefold()
        if low in STOPWORDS or len(low) < 3 or any(ch.isdigit() for ch in low):
            continue
        if stem(low) not in have and low not in out:
            out.append(low)
    return out


def items() -> list[dict[str, Any]]:
    """The grey-zone kept claims of right one-part answers (1) and answered near misses (0)."""
    from disputatio.models import get_embeddings
    from disputatio.settings import load_settings
    from disputatio.validators.support import HybridSupport

    hybrid = HybridSupport(get_embeddings(settings=load_settings()).embed_documents)
    out, seen = [], set()
    for path in latest_records():
        for line in path.open(encoding="utf-8"):
            rec = json.loads(line)
            if rec["system"] != "project" or rec["refused"]:
                continue
            if rec["kind"] == "answerable" and rec["parts_right"] == rec["parts_answerable"] == 1:
                label = 1
            elif rec["kind"] == "unanswerable":
                label = 0
            else:
                continue
            for claim in rec["claims_detail"]:
                if claim["verdict"] != "supported" or claim["dropped"] or not claim["evidence"]:
                    continue
                window = claim["evidence"]["sentence"]
                if (claim["text"], window) in seen:
                    continue
                seen.add((claim["text"], window))
                (score,) = hybrid.score_many(claim["text"], [window], [""])
                if not score.reason and 0.5 <= score.score < 0.97:
                    out.append(
                        {"id": rec["id"], "lab": label, "claim": claim["text"], "window": window}
                    )
    return out


def judge_all() -> None:
    """Judge every item with both prompts; one JSON line each on stdout."""
    from langchain_core.messages import HumanMessage, SystemMessage

    from disputatio.models import get_chat_model
    from disputatio.prompts.grounding import SUPPORT_JUDGE_SYSTEM
    from disputatio.settings import load_settings
    from disputatio.validators.judge import SupportJudge

    settings = load_settings()
    judge = SupportJudge(get_chat_model("local:qwen2.5-coder-1.5b", settings=settings))
    for item in items():
        item["p_plain"] = judge(item["claim"], item["window"])
        item["missing"] = missing_words(item["claim"], item["window"])
        if item["missing"]:
            user = HINT.format(
                passage=item["window"], claim=item["claim"], missing=", ".join(item["missing"])
            )
            item["p_hint"] = judge.p_yes([SystemMessage(SUPPORT_JUDGE_SYSTEM), HumanMessage(user)])
        else:
            item["p_hint"] = item["p_plain"]
        print(json.dumps(item), flush=True)


def summary(path: str) -> None:
    """Each prompt's AUC and the claims of each label it keeps (P(yes) >= 0.5)."""
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]
    pos = [r for r in rows if r["lab"]]
    neg = [r for r in rows if not r["lab"]]
    for key in ("p_plain", "p_hint"):
        pairs = [(p[key] > n[key]) + 0.5 * (p[key] == n[key]) for p in pos for n in neg]
        auc = sum(pairs) / max(1, len(pairs))
        kept_pos = sum(r[key] >= 0.5 for r in pos)
        kept_neg = sum(r[key] >= 0.5 for r in neg)
        print(
            f"{key}: AUC {auc:.3f}; right answers' claims kept {kept_pos}/{len(pos)}; "
            f"near misses' claims kept {kept_neg}/{len(neg)}"
        )


def main() -> None:
    """Judge (no argument) or summarise a file of judged items (``--summary FILE``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--summary", help="a file this script wrote")
    args = parser.parse_args()
    if args.summary:
        summary(args.summary)
    else:
        judge_all()


if __name__ == "__main__":
    main()
