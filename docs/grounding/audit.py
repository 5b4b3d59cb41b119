# Lists quick-path answers of a grounding records file with their claims, for reading.
# Usage: python3 docs/grounding/audit.py RECORDS N
import json, sys
qs={json.loads(l)['id']:json.loads(l) for l in open('disputatio/data/grounding/questions.jsonl')}
n=0
for l in open(sys.argv[1]):
    r=json.loads(l)
    if r['system']!='project' or r['split']!='test': continue
    facts=[c for c in r['claims_detail'] if c['factual']]
    if not facts: continue
    n+=1
    if n>int(sys.argv[2]): break
    q=qs[r['id']]
    print(f"## {r['id']} ({q['kind']}) {q['question']}")
    print("gold:", [p['answer'] for p in q['parts']])
    print("draft:", (r.get('draft') or '').replace('\n',' ')[:400])
    for c in facts:
        ev=c.get('evidence') or {}
        print(f"  - [{c['verdict']}{' dropped' if c['dropped'] else ''}{' attributed' if c['attributed'] else ''}] {c['text']}")
        print(f"      sentence: {ev.get('sentence','—')[:250]}")
    print()
