import json, glob
from langchain_core.messages import SystemMessage, HumanMessage
from disputatio.models.chat import get_chat_model
from disputatio.validators.judge import SupportJudge, judge_messages
from disputatio.prompts.grounding import SUPPORT_JUDGE_SYSTEM
qs = {}
for f in glob.glob('disputatio/data/grounding/questions*.jsonl'):
    for l in open(f):
        q = json.loads(l); qs[q['id']] = q
j = SupportJudge(get_chat_model("local:qwen2.5-coder-1.5b"))
def qa(q, c, p):
    u = f"Question: {q}\nPassage: {p}\nClaim (an answer to the question): {c}\nDoes the passage state the claim? Answer yes or no.\nAnswer:"
    return [SystemMessage(SUPPORT_JUDGE_SYSTEM), HumanMessage(u)]
right = {  # right drafts dropped (claim, gold evidence)
 'k014': "The new starter keeps the buddy they are assigned for 3 months.",
 'm018': "The surveying was halted for 9 hours after the sediment grab was dropped in Incident 2291.",
 'm021': "The inspection of every shackle on both vessels was actually finished on 30 October 2023.",
 'p012': "The ferry has four wheelchair spaces.",
 'p023': "The tread depth of bus tyres is replaced when the tread depth falls below 3 mm, although the legal minimum is 1.6 mm.",
 'h005': "The damage to the CTD-41's transport case must be reported within 48 hours.",
}
print("right drafts: base / qa")
for i, c in right.items():
    q = qs[i]; p = q['parts'][0]['evidence'][0]
    print(i, round(j.p_yes(judge_messages(c, p, "")), 2), round(j.p_yes(qa(q['question'], c, p)), 2))
# near misses answered with supported claims (claim, evidence) from run-10 records
print("near misses: base / qa")
for f in sorted(glob.glob('docs/grounding/records_heldout*_run10.jsonl')):
    for line in open(f):
        r = json.loads(line)
        if r['system'] != 'project' or r['kind'] != 'unanswerable' or r['refused']: continue
        for c in r['claims_detail']:
            if c.get('verdict') == 'supported' and not c.get('dropped') and c.get('evidence'):
                p = c['evidence']['sentence']
                print(r['id'], round(j.p_yes(judge_messages(c['text'], p, "")), 2), round(j.p_yes(qa(qs[r['id']]['question'], c['text'], p)), 2), c['text'][:70])
                break
