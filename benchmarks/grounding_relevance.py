"""Does a relevance judge or a lexical rule tell near misses from answers? (grounding run 4)

For every quick-path answer of grounding records files that was not refused and kept a
supported claim, asks the chat model, with log-probabilities (P(yes)), whether the supported
claims answer the question, with up to three prompts (``plain``: "Does the answer answer the
question?"; ``strict``: "only if about exactly what is asked ... a neighbouring thing does not";
``evidence``: does the claims' *supporting sentences* answer it), and computes the share of the
question's content words (question-form words such as "often", "long" left out) found in the
supported claims (best claim per part). Prints and writes one JSON line per answer; with
``--summary`` prints each signal's AUC (near misses against answerable questions answered
right) per group of files. The reading is in docs/grounding.md ("Refusal: what was tried").

    .venv/bin/python benchmarks/grounding_relevance.py docs/grounding/records_run4.jsonl \\
        --out docs/grounding/relevance_run4.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
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
    "evidence": (
        "You check whether a text gives the answer to a question.",
        "Question: {q}\nText: {e}\nDoes the text give the answer to the question? Answer yes or "
        "no.\nAnswer:",
    ),
}
#: Stems of question-form words: they ask for a value, no answer repeats them.
ASKING = {"often", "long", "mani", "much", "time", "maximum", "minimum", "happen", "far"}


def load_questions(bioasq: bool = False) -> dict[str, dict[str, Any]]:
    """Every labelled question of the shipped question files, by id (ids are unique).

    With ``bioasq``, BioASQ's yes/no questions too (``make bench-deps``), as the records of
    ``grounding.py --bioasq`` ask them.
    """
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(DATA.glob("questions*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                q = json.loads(line)
                out[q["id"]] = q
    if bioasq:
        from disputatio.eval.datasets import load_all

        for item in load_all("bioasq"):
            out[item.id] = {"id": item.id, "question": item.question, "kind": "answerable",
                            "split": "bioasq"}  # fmt: skip
    return out


def kept_answers(paths: list[Path], skip: set[str]) -> Iterator[tuple[dict[str, Any], list]]:
    """Project answers not refused with their kept supported claims (ids in ``skip`` left out)."""
    for path in paths:
        for line in path.read_text().splitlines():
            r: dict[str, Any] = json.loads(line)
            if r["system"] != "project" or r.get("refused") or r.get("not_found"):
                continue
            if r["id"] in skip:
                continue
            kept = [
                c
                for c in r["claims_detail"]
                if c.get("verdict") == "supported" and not c.get("dropped")
            ]
            if kept:
                yield r, kept


def auc(pos: list[float], neg: list[float]) -> float:
    """P(a positive scores above a negative), ties half (Mann-Whitney)."""
    if not pos or not neg:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def summary(rows: list[dict[str, Any]], group_of: dict[str, str]) -> None:
    """Print each signal's AUC: answerable questions answered right against near misses."""
    signals = [k for k in ("question_words_in_claims", *PROMPTS) if any(k in r for r in rows)]
    for group in sorted(set(group_of.values())):
        sub = [r for r in rows if group_of.get(r["id"]) == group]
        right = [r for r in sub if r["kind"] == "answerable" and r["parts_right"]]
        near = [r for r in sub if r["kind"] == "unanswerable"]
        print(f"{group}: {len(right)} answerable answered right, {len(near)} near misses answered")
        for k in signals:
            pos = [r[k] for r in right if k in r]
            neg = [r[k] for r in near if k in r]
            print(f"  {k:26s} AUC {auc(pos, neg):.3f}")


def asked(
    rec: dict[str, Any],
    rows: dict[str, dict[str, Any]],
    questions: dict[str, dict[str, Any]],
    signal: str,
) -> float | None:
    """The judge's P (``signal``'s row) the quick path would have asked for ``rec``, or None.

    The rows hold answers that kept a supported claim; the quick path asks about those whose
    question it reads as one part (:func:`~disputatio.validators.questions.question_parts`).
    """
    from disputatio.validators.questions import question_parts

    row, q = rows.get(rec["id"]), questions.get(rec["id"])
    if row is None or q is None or len(question_parts(q["question"])) > 1:
        return None
    return float(row[signal])


def replay_floors(
    paths: list[Path], group_of: dict[str, str], rows: dict[str, dict[str, Any]], signal: str
) -> None:
    """Replay refusal floors on the recorded answers, per group of files.

    The floors: 0, the default ``grounding.relevance_floor``, and the 1, 2, 3 and 5% quantiles
    of ``signal`` over the right one-part answers of the group named ``choose``. An answer
    the quick path would ask about (one part as it reads the question) under the floor is
    refused and loses its parts right.
    """
    questions = load_questions()
    recs = [
        r
        for path in paths
        for r in map(json.loads, path.read_text().splitlines())
        if r["system"] == "project"
    ]

    def p(r: dict[str, Any]) -> float | None:
        return asked(r, rows, questions, signal)

    def line(sub: list[dict[str, Any]], floor: float) -> str:
        def out(r: dict[str, Any]) -> bool:
            return bool(r["refused"]) or ((v := p(r)) is not None and v < floor)

        near = [r for r in sub if r["kind"] == "unanswerable"]
        ans = [r for r in sub if r["kind"] == "answerable"]
        right = sum(0 if out(r) else r["parts_right"] for r in sub)
        return (f"near misses refused {sum(map(out, near))}/{len(near)}, answerable refused "
                f"{sum(map(out, ans))}/{len(ans)}, parts right {right}/"
                f"{sum(r['parts_answerable'] for r in sub)}")  # fmt: skip

    chosen = [r for r in recs if group_of.get(r["id"]) == "choose"]
    right = sorted(
        v
        for r in chosen
        if r["kind"] != "unanswerable" and not r["refused"]
        and r["parts_right"] == r["parts_answerable"] and (v := p(r)) is not None
    )  # fmt: skip
    from disputatio.settings.pipelines import GroundingSettings

    default = GroundingSettings().relevance_floor
    floors = [0.0, default, *(right[int(q * len(right))] for q in (0.01, 0.02, 0.03, 0.05))]
    for floor in floors:
        print(f"floor {floor:.3f}")
        for group in sorted(set(group_of.values())):
            print(f"  {group}: {line([r for r in recs if group_of.get(r['id']) == group], floor)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path, nargs="+", help="records files; NAME=FILE groups")
    parser.add_argument("--model", default="local:qwen2.5-coder-1.5b")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--prompts", default="plain,strict", help="comma-separated PROMPTS keys")
    parser.add_argument("--single", action="store_true", help="skip multi-part questions")
    parser.add_argument("--summary", action="store_true", help="only print AUCs from --out")
    parser.add_argument("--floors", help="only replay refusal floors of this PROMPTS key")
    args = parser.parse_args()

    group_of: dict[str, str] = {}
    paths: list[Path] = []
    for item in args.records:
        name, _, file = str(item).rpartition("=")
        path = Path(file)
        paths.append(path)
        for line in path.read_text().splitlines():
            group_of[json.loads(line)["id"]] = name or path.stem
    done: dict[str, dict[str, Any]] = {}
    if args.out.exists():
        done = {r["id"]: r for r in map(json.loads, args.out.read_text().splitlines())}
    if args.summary:
        summary(list(done.values()), group_of)
        return
    if args.floors:
        replay_floors(paths, group_of, done, args.floors)
        return

    from langchain_core.messages import HumanMessage, SystemMessage

    from disputatio.models import get_chat_model
    from disputatio.validators.judge import SupportJudge
    from disputatio.validators.sentences import content_words

    questions = load_questions(bioasq=any("bioasq" in str(p) for p in paths))
    judge = SupportJudge(get_chat_model(args.model, temperature=0.0))
    prompts = args.prompts.split(",")

    def p_yes(system: str, user: str) -> float:
        return judge.p_yes([SystemMessage(system), HumanMessage(user)])

    for r, kept in kept_answers(paths, set(done)):
        q = questions[r["id"]]
        if args.single and q["kind"] == "multipart":
            continue
        parts = [p["question"] for p in q["parts"]] if q["kind"] == "multipart" else [q["question"]]
        texts = [c["text"] for c in kept]
        evidence = list(dict.fromkeys(c["evidence"]["sentence"] for c in kept if c["evidence"]))
        cover = []
        for part in parts:
            wanted = content_words(part) - ASKING
            cover.append(max(len(wanted & content_words(c)) / max(len(wanted), 1) for c in texts))
        row = {
            "id": r["id"],
            "kind": q["kind"],
            "split": q["split"],
            "parts_right": r["parts_right"],
            "question_words_in_claims": round(max(cover), 3),
        }
        for name in prompts:
            system, user = PROMPTS[name]
            text = user.format(q=q["question"], a=" ".join(texts), e=" ".join(evidence))
            row[name] = round(p_yes(system, text), 3)
        with args.out.open("a") as fh:
            fh.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)
    summary(
        [json.loads(x) for x in args.out.read_text().splitlines()] if args.out.exists() else [],
        group_of,
    )


if __name__ == "__main__":
    main()
