"""The relevance judge asked per part of two-part answers (2026-12-03, session 46; not adopted).

Inputs: every set's drafts re-checked at bdd22db (``benchmarks/grounding_recheck.py`` run from
a worktree of bdd22db on each set's latest records, as in docs/grounding.md "Table rows with
their headers…"), written as ``<dir>/n9_<set>.jsonl`` (test split ``q``, first held-out ``h``,
sets 2–9) and ``<dir>/new3_<set>.jsonl`` (sets 10–19). For each two-part answer that kept a
supported claim, asks the 1.5B judge once per part whether the kept claims that may answer it
(``claim_parts``) do; one row per part in ``part_judge.jsonl`` beside this file (resumable):

    DISPUTATIO_HOME=/tmp/dh-x .venv/bin/python docs/grounding/experiments/part_judge.py /tmp/tab
"""
import json, sys, os
sys.path.insert(0, '/work/main/benchmarks')
from grounding import part_found, DATA
from disputatio.models.chat import get_chat_model
from disputatio.validators.judge import SupportJudge
from disputatio.validators.parts import claim_parts
from disputatio.validators.questions import question_parts
from pathlib import Path
OUT = str(Path(__file__).with_suffix('.jsonl'))
DIR = sys.argv[1]
done = set()
if os.path.exists(OUT):
    for l in open(OUT):
        x = json.loads(l); done.add((x['id'], x['i']))
judge = SupportJudge(get_chat_model('local:qwen2.5-coder-1.5b'))
sets = json.load(open(DATA / 'sets.json'))
out = open(OUT, 'a')
for qf in sets:
    st = 'q' if qf == 'questions.jsonl' else ('h' if qf == 'questions_heldout.jsonl' else qf[len('questions_heldout'):-6])
    rec = f'{DIR}/n9_{st}.jsonl' if st in ('q', 'h') or int(st) < 10 else f'{DIR}/new3_{st}.jsonl'
    qs = {q['id']: q for q in map(json.loads, (DATA / qf).open()) if q}
    for l in open(rec):
        r = json.loads(l)
        if r['system'] != 'project' or r['kind'] != 'multipart' or r['refused']: continue
        q = qs[r['id']]
        parts = question_parts(q['question'])
        if len(parts) != len(q['parts']): continue
        kept = [c['text'] for c in r['claims_detail'] if c['factual'] and c['verdict'] == 'supported' and not c['dropped']]
        if not kept: continue
        for i, part in enumerate(parts):
            if (r['id'], i) in done: continue
            mine = [t for t in kept if i in claim_parts(t, parts)]
            gold = q['parts'][i]
            row = dict(set=st, id=r['id'], i=i, part=part, claims=mine, answerable=gold.get('answer') is not None,
                       right=bool(gold.get('answer')) and part_found(gold, r['answer']))
            row['p'] = judge.answers(part, mine) if mine else None
            out.write(json.dumps(row) + '\n'); out.flush()
