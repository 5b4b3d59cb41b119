#!/usr/bin/env bash
# The full results run of docs/results.md: every protocol on the same drawn questions, on the
# local 1.5B model. Resumable across processes, sessions and machines: run it again to continue.
#
#   bash benchmarks/results_run.sh          # all steps, in order; finished records are skipped
#   bash benchmarks/results_run.sh 2 3      # only some steps
#
# The answering code is frozen at $FROZEN (a git worktree), so that later commits do not start a
# new run id mid-way. Records go to docs/results/runs/<run id>/results.jsonl in THIS checkout
# (commit it to carry the run to the next session); the knowledge base and the model server live
# under $DISPUTATIO_HOME (rebuilt once, ~35 min, on a machine that lacks it). The run yields the
# CPU: lowest priority, its own autogroup at nice 19 (nice alone does not yield across sessions).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FROZEN=${FROZEN:-53747d90fa28a87bc7dbb71c2353bae9acea32a3}
WORKTREE=${WORKTREE:-/tmp/eval-frozen-${FROZEN:0:8}}
RUNS=${RUNS:-$REPO/docs/results/runs}
MODEL=${MODEL:-local:qwen2.5-coder-1.5b}
export DISPUTATIO_HOME=${DISPUTATIO_HOME:-/tmp/dh-results}
BIN=$REPO/.venv/bin

[[ -x $BIN/disputatio ]] || { echo "no $BIN/disputatio: run 'make demo' (or make .venv/.installed-bench .venv/.installed-1_5b) first" >&2; exit 1; }
if [[ ! -d $WORKTREE ]]; then
  git -C "$REPO" worktree prune
  git -C "$REPO" worktree add --detach "$WORKTREE" "$FROZEN"
fi
export PYTHONPATH=$WORKTREE
cd "$WORKTREE"
echo 19 > /proc/self/autogroup 2>/dev/null || true

where=$("$BIN/python" -c 'import disputatio, pathlib; print(pathlib.Path(disputatio.__file__).parent.parent)')
[[ $where == "$WORKTREE" ]] || { echo "disputatio imports from $where, not $WORKTREE" >&2; exit 1; }

ev() { nice -n 19 "$BIN/disputatio" eval run -m "$MODEL" -o "$RUNS" "$@"; }

step1() {  # BioASQ and PubMedQA: CoT, RAG, the MedRAG debate, SC at its budget; 20, then 50
  ev -d bioasq,pubmedqa -p cot,rag,medrag,sc_rag -n 20
  ev -d bioasq,pubmedqa -p cot,rag,medrag,sc_rag -n 50
}
step2() {  # MedQA; the debate without retrieval (and SC at its budget); the hierarchical debate
  ev -d medqa -p cot,rag,medrag,sc_rag -n 20
  ev -d bioasq,pubmedqa,medqa -p medrag_norag,sc,hier -n 20
}
step3() {  # GSM8K: the no-retrieval protocols (Du et al.'s multi-agent-debate anchor)
  ev -d gsm8k -p cot,sc,hier_norag -n 20
}
step4() {  # the hierarchical debate's ablations
  ev -d bioasq,pubmedqa,medqa -p hier_nodebate,hier_flat,hier_norag -n 20
}

steps=("$@")
[[ ${#steps[@]} -gt 0 ]] || steps=(1 2 3 4)
for s in "${steps[@]}"; do
  echo "== step $s ($(date -u +%FT%TZ))"
  "step$s"
done
