import json, collections, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
from claim_checker import DATA, windows
from disputatio.validators.support import decide, HybridSupport
from disputatio.models.embeddings import get_embeddings
rows = [json.loads(l) for l in DATA.read_text().splitlines() if l.strip()]
recs = [json.loads(l) for l in open(Path(__file__).parent / "judge_prompt_variants.jsonl")]
P = collections.defaultdict(dict)
for r in recs: P[r["variant"]][r["id"]] = r["p"]
emb = get_embeddings("local:all-MiniLM-L6-v2"); hyb = HybridSupport(emb.embed_documents)
best = {}
for r in rows:
    ws = windows(r["passage"]); sc = hyb.score_many(r["claim"], ws, [""]*len(ws))
    best[r["id"]] = max(s.score for s in sc)
def stats(v, split, floor, cut, veto, trust=0.97):
    tp=fp=fn=0; missing=0
    for r in rows:
        if r["split"] != split: continue
        s = best[r["id"]]; p = P[v].get(r["id"])
        d = decide(s, p, 0.832, floor, cut, veto, trust=trust)
        if d is None: missing += 1; d = False
        y = r["label"] == "supported"
        tp += d and y; fp += d and not y; fn += (not d) and y
    f = 1.25*tp/(1.25*tp+0.25*fn+fp) if tp else 0
    return f, tp/(tp+fp) if tp+fp else 0, tp/(tp+fn), missing
split = sys.argv[1] if len(sys.argv) > 1 else "calibration"
for v in sorted(P):
    grid = [(fl, c, ve) for fl in (0.3, 0.4, 0.5) for c in (0.3, 0.4, 0.5, 0.6, 0.7) for ve in (None, 0.3, 0.5)]
    scored = sorted(((stats(v, "calibration", *g), g) for g in grid), key=lambda x: -x[0][0])
    (f, p, r, m), g = scored[0]
    print(f"{v:8} best cal F0.5 {f:.3f} P {p:.3f} R {r:.3f} miss {m} at floor/cut/veto {g}; default(0.5,0.5,0.5) cal", "F0.5 %.3f P %.3f R %.3f miss %d" % stats(v, "calibration", 0.5, 0.5, 0.5))
    if split == "test":
        print("          test at chosen: F0.5 %.3f P %.3f R %.3f miss %d" % stats(v, "test", *g), "| test default: F0.5 %.3f P %.3f R %.3f miss %d" % stats(v, "test", 0.5, 0.5, 0.5))
