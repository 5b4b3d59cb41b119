#!/usr/bin/env bash
# The MIRAGE run of docs/results.md ("MIRAGE"): MIRAGE's five test sets on the local 1.5B, nested
# draws of one seed, every protocol on the same questions. Resumable across processes, sessions
# and machines: run it again to continue (finished records are skipped).
#
#   bash benchmarks/mirage_run.sh          # all steps, in order
#   bash benchmarks/mirage_run.sh 3 4      # only some steps
#
# The answering code is frozen at $FROZEN (a detached git worktree), so later commits do not start
# a new run id mid-way. Records go to docs/results/runs/<run id>/results.jsonl in THIS checkout
# (commit them to carry the run on); the knowledge base (`--corpus kb`, rebuilt once, ~35 min)
# and the model server live under $DISPUTATIO_HOME. Steps, cheapest first:
#   1. no retrieval, >= 100 per set: CoT and the log-probability verdicts (raw, content-free
#      calibration, biases fitted on the calibration split);
#   2. retrieval, >= 100 per set: RAG and its log-probability verdicts; on the yes/no sets the
#      evidence-found (own snippets removed, gold recall@k recorded) / evidence-read pair;
#   3. >= 50 per set: self-consistency at the debate's budget and the MedRAG debate;
#   4. GSM8K >= 200: CoT, Du et al.'s 3x2 debate, self-consistency at its 6 calls (512 tokens
#      a reply: its own run id);
#   5. >= 20 per set: the hierarchical debate (~15 min of CPU a MedQA question);
#   6. 50 per set of each calibration split (mirage:<set>@calibration), for the fitted
#      confidence of `disputatio eval calibrate-confidence` (never drawn by steps 1-5): 6a its
#      one-call log-probability protocols, 6b the MedRAG debate. The calibration splits are data
#      sets from 6dc2400 on, so step 6 needs FROZEN at or after it (its own run id):
#        FROZEN=6dc2400… bash benchmarks/mirage_run.sh 6a && FROZEN=de3fbe5… bash \
#          benchmarks/mirage_run.sh 3 5 4
# The run yields the CPU: its own session (setsid), autogroup nice 19, each command at nice 19.
set -euo pipefail
if [[ -z ${MIRAGE_RUN_SESSION:-} ]] && command -v setsid > /dev/null; then
  MIRAGE_RUN_SESSION=1 exec setsid -w bash "$0" "$@"
fi

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FROZEN=${FROZEN:?set FROZEN to the commit whose answering code the run uses (docs/results.md)}
RUNS=${RUNS:-$REPO/docs/results/runs}
MODEL=${MODEL:-local:qwen2.5-coder-1.5b}
export DISPUTATIO_HOME=${DISPUTATIO_HOME:-/tmp/dh-results}
BIN=$REPO/.venv/bin
SETS=mirage:mmlu,mirage:medqa,mirage:medmcqa,mirage:pubmedqa,mirage:bioasq
YESNO=mirage:pubmedqa,mirage:bioasq

[[ -x $BIN/disputatio ]] || { echo "no $BIN/disputatio: run 'make demo' first" >&2; exit 1; }
echo 19 > /proc/self/autogroup 2>/dev/null || true

tree=/tmp/eval-frozen-${FROZEN:0:8}
if [[ ! -d $tree ]]; then
  git -C "$REPO" worktree prune
  git -C "$REPO" worktree add --detach "$tree" "$FROZEN"
fi
export PYTHONPATH=$tree
cd "$tree"

ev() { nice -n 19 "$BIN/disputatio" eval run -m "$MODEL" -o "$RUNS" "$@"; }

step1() {
  ev -d "$SETS" -p cot,cot_logprob,cot_calibrated,cot_calibrated_fit -n 100
}
step2() {
  ev -d "$SETS" -p rag,rag_logprob,rag_calibrated,rag_calibrated_fit -n 100
  ev -d "$YESNO" -p rag_found,rag_read,read_logprob,read_calibrated,read_calibrated_fit -n 100
}
step3() {
  ev -d "$SETS" -p sc_rag,medrag -n 50
}
step4() {  # 512 tokens: at the default 192, 13 of 14 GSM8K replies were cut before an answer
  ev -d gsm8k -p cot,du_debate,sc_du -n 200 --max-tokens 512
}
step5() {
  ev -d "$SETS" -p hier -n 20
}
step6() {  # calibration splits: fit the main run by calibrate-confidence RUN --calibration-run <this>
  step6a
  step6b
}
step6a() {  # its one-call protocols first (500 records, about three hours alone): the option-probability confidence
  ev -d mirage:all@calibration -p cot_logprob,rag_logprob -n 50
}
step6b() {  # then the debate's (hours)
  ev -d mirage:all@calibration -p medrag -n 50
}

steps=("$@")
[[ ${#steps[@]} -gt 0 ]] || steps=(1 2 3 4 5 6)
for s in "${steps[@]}"; do
  echo "== step $s ($(date -u +%FT%TZ))"
  "step$s"
done
