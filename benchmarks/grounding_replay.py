"""Replay the relevance check on recorded quick-path answers (no model call).

For every project answer of a grounding records file with a supported claim, rebuilds its
claims and the sections their evidence is in, undoes the recorded relevance verdicts, runs
:func:`disputatio.validators.relevance.drop_off_question` as the code now stands (synonyms
judged in the embedding model's space, as the quick path does) and prints the answers whose
outcome it changes and the claims it sets aside. Used to check a relevance rule against the
answers of an earlier run before a new run (docs/grounding.md).

    .venv/bin/python benchmarks/grounding_replay.py docs/grounding/records_run6.jsonl \\
        docs/grounding/records_heldout_run6.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "disputatio" / "data" / "grounding"
SET_ASIDE = "supported, but"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path, nargs="+")
    parser.add_argument(
        "--corpus", type=Path, default=DATA / "corpus", help="the records' corpus (corpus_lab)"
    )
    args = parser.parse_args()

    from disputatio.retrievers.memory import InMemoryFunnel
    from disputatio.settings import get_settings
    from disputatio.state.claims import Claim
    from disputatio.validators.relevance import drop_off_question
    from disputatio.validators.support import cosine
    from disputatio.validators.windows import Windows

    funnel = InMemoryFunnel.from_paths([args.corpus])
    words = get_settings().grounding.on_question_words  # as the quick path checks

    def similar(a: str, b: str) -> float:
        return cosine(*funnel.embeddings.embed_documents([a, b]))

    questions = {
        q["id"]: q
        for path in sorted(DATA.glob("questions*.jsonl"))
        for q in map(json.loads, path.read_text().splitlines())
    }
    for path in args.records:
        print("==", path)
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            if rec["system"] != "project":
                continue
            claims = [Claim.model_validate(c) for c in rec["claims_detail"]]
            if not any(c.verdict == "supported" for c in claims):
                continue
            ids = {e.section_id for c in claims for e in [c.evidence, *c.more_evidence] if e}
            if not ids:
                continue
            sections = funnel.backend.sections(sorted(ids))
            windows = Windows({i: s.model_dump() for i, s in sections.items()})
            for c in claims:
                if c.reason.startswith(SET_ASIDE):
                    c.dropped, c.reason = False, "(set aside when recorded)"
            q = questions[rec["id"]]
            off = drop_off_question(
                q["question"], claims, windows.titles, similar=similar, words=words
            )
            kept = [c for c in claims if c.factual and c.verdict == "supported" and not c.dropped]
            if not off and bool(kept) != rec["refused"]:
                continue
            after = "refused" if not kept else f"{len(kept)} claims kept"
            was = "refused" if rec["refused"] else "answered"
            print(f"{rec['id']} {q['kind']} right {rec['parts_right']}/{rec['parts_answerable']}"
                  f" {was} -> {after} | {q['question']}")  # fmt: skip
            for c in claims:
                if c.reason.startswith(SET_ASIDE):
                    print(f"    {c.text[:70]} | {c.reason}")


if __name__ == "__main__":
    main()
