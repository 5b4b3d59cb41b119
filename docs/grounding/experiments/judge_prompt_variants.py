"""Judge prompt variants on the labelled claim pairs (experiment; resumable cache)."""
import json, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
from claim_checker import windows, DATA
from langchain_core.messages import SystemMessage, HumanMessage, AIMessage
from disputatio.models.chat import get_chat_model
from disputatio.models.embeddings import get_embeddings
from disputatio.validators.judge import SupportJudge, judge_messages
from disputatio.validators.support import HybridSupport
from disputatio.prompts.grounding import SUPPORT_JUDGE_SYSTEM, SUPPORT_JUDGE_USER

SHOTS = [  # invented, another topic than the pairs
 ("Members may borrow up to 12 books at a time.", "A member can take out at most twelve books at once.", "yes"),
 ("Members may borrow up to 12 books at a time.", "Members may borrow up to 15 books at a time.", "no"),
 ("Late returns are charged 2 EUR per day at the city branch.", "Late returns at the harbour branch cost 2 EUR per day.", "no"),
 ("New staff receive a library card within their first week.", "Every new employee gets a library card in the first 7 days.", "yes"),
]
def v_fewshot(claim, passage):
    msgs = [SystemMessage(SUPPORT_JUDGE_SYSTEM)]
    for p, c, a in SHOTS:
        msgs += [HumanMessage(SUPPORT_JUDGE_USER.format(section="", passage=p, claim=c)), AIMessage(a)]
    msgs.append(HumanMessage(SUPPORT_JUDGE_USER.format(section="", passage=passage, claim=claim)))
    return msgs
SYS2 = ("You check whether a passage states a claim. The claim may use other words than the passage "
        "(a paraphrase, a synonym, another word order): that counts as stated. A different number, "
        "unit, name, place, group or condition, or a fact the passage does not give, is not stated.")
def v_para(claim, passage):
    return [SystemMessage(SYS2), HumanMessage(SUPPORT_JUDGE_USER.format(section="", passage=passage, claim=claim))]
VARIANTS = {"base": lambda c, p: judge_messages(c, p, ""), "fewshot": v_fewshot, "para": v_para}

rows = [json.loads(l) for l in DATA.read_text().splitlines() if l.strip()]
emb = get_embeddings("local:all-MiniLM-L6-v2")
hyb = HybridSupport(emb.embed_documents)
judge = SupportJudge(get_chat_model("local:qwen2.5-coder-1.5b"))
cache_p = Path(__file__).with_suffix(".jsonl")
done = {}
if cache_p.exists():
    for l in cache_p.read_text().splitlines():
        r = json.loads(l); done[(r["id"], r["variant"])] = r
names = sys.argv[1].split(",") if len(sys.argv) > 1 else list(VARIANTS)
t0 = time.time()
for r in sorted(rows, key=lambda r: r["split"] != "calibration"):
    ws = windows(r["passage"])
    sc = hyb.score_many(r["claim"], ws, [""] * len(ws))
    i = max(range(len(ws)), key=lambda j: sc[j].score)
    if sc[i].reason or sc[i].score < 0.3:
        continue
    for v in names:
        if (r["id"], v) in done: continue
        p = judge.p_yes(VARIANTS[v](r["claim"], ws[i]))
        rec = {"id": r["id"], "variant": v, "score": sc[i].score, "p": p, "label": r["label"], "split": r["split"], "pert": r["perturbation"]}
        with cache_p.open("a") as fh: fh.write(json.dumps(rec) + "\n")
print("done", time.time() - t0)
