#!/usr/bin/env bash
# The full results run of docs/results.md: every protocol on the same drawn questions, on the
# local 1.5B model. Resumable across processes, sessions and machines: run it again to continue.
#
#   bash benchmarks/results_run.sh          # all steps, in order; finished records are skipped
#   bash benchmarks/results_run.sh 2 3      # only some steps
#
# The answering code is frozen (git worktrees), so that later commits do not start a new run id
# mid-way. Three freezes, hence three run ids that `disputatio eval report RUN_A RUN_B RUN_C`
# reads together (protocols named <protocol>@<run id>, paired on the same drawn questions):
#   A ($FROZEN_A): BioASQ/PubMedQA/MedQA with CoT, RAG, the MedRAG debate and SC, and the debate
#      without retrieval; its first records were made in the sessions of 2026-11-23/25.
#   B ($FROZEN_B): the hierarchical debate and its ablations (the local speed-ups of commits
#      6d2363c, 7c583fe, 953e5a0 and 49d961b: a leaf's workers, reviewer and summarizer share one
#      llama.cpp slot and its cached rules and sections, a citation repair asks for labels only,
#      debate rounds and the reviewer continue a cached conversation; ce025f5: a debate answer
#      is read from its opening verdict line, a decomposed question's root gives a final
#      verdict (an option, a number); the 3 B records made before were dropped) and GSM8K, whose
#      CoT/SC prompt A got wrong (doubled braces, fixed in 6b0a633) and whose numeric two-agent
#      debate (medrag_norag, dcc9241) A lacks. Re-frozen at 3c97d5a on 2026-11-27 (a new run id):
#      a7f0a98 fixed the plan check that let "the question itself + a side question" plans
#      through; the records of the freeze before (ce025f5: BioASQ and PubMedQA, 20 each) stay in
#      their own run folder (local-qwen2-5-coder-1-5b-kb-abe92bb967e5, "B0" in docs/results.md).
#   C ($FROZEN_C): the hierarchical debate again, with the personas probed after B's freeze
#      (c5012b1, where they are the default: synthesizer, critic, close reader instead of
#      synthesizer, devil's advocate, skeptic; docs/results.md "Worker personas"), on the same 20
#      questions per set (BioASQ and PubMedQA in step 2, MedQA at the start of step 4: a MedQA
#      question costs ~15 min of CPU); GSM8K and the ablations, which had no records under B yet
#      and so are made with C's code.
# Records go to docs/results/runs/<run id>/results.jsonl in THIS checkout (commit them to carry the
# run to the next session); the knowledge base and the model server live under $DISPUTATIO_HOME
# (rebuilt once, ~35 min, on a machine that lacks it). The run yields the CPU: lowest priority,
# its own session (setsid), hence its own autogroup, at nice 19 (nice alone does not yield
# across autogroups, and without setsid the autogroup is the whole login session's).
set -euo pipefail
if [[ -z ${RESULTS_RUN_SESSION:-} ]] && command -v setsid > /dev/null; then
  RESULTS_RUN_SESSION=1 exec setsid -w bash "$0" "$@"
fi

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FROZEN_A=${FROZEN_A:-53747d90fa28a87bc7dbb71c2353bae9acea32a3}
FROZEN_B=${FROZEN_B:-3c97d5a811e134ef08f3e9d4167e213a1e7576b6}
FROZEN_C=${FROZEN_C:-c5012b1d7008e1a4171a2183233aba49a3fbff41}
RUNS=${RUNS:-$REPO/docs/results/runs}
MODEL=${MODEL:-local:qwen2.5-coder-1.5b}
export DISPUTATIO_HOME=${DISPUTATIO_HOME:-/tmp/dh-results}
BIN=$REPO/.venv/bin

[[ -x $BIN/disputatio ]] || { echo "no $BIN/disputatio: run 'make demo' (or make .venv/.installed-bench .venv/.installed-1_5b) first" >&2; exit 1; }
echo 19 > /proc/self/autogroup 2>/dev/null || true

use() {  # use COMMIT: answer with the code of COMMIT (a detached worktree under /tmp)
  local tree=/tmp/eval-frozen-${1:0:8}
  if [[ ! -d $tree ]]; then
    git -C "$REPO" worktree prune
    git -C "$REPO" worktree add --detach "$tree" "$1"
  fi
  export PYTHONPATH=$tree
  cd "$tree"
  local where
  where=$("$BIN/python" -c 'import disputatio, pathlib; print(pathlib.Path(disputatio.__file__).parent.parent)')
  [[ $where == "$tree" ]] || { echo "disputatio imports from $where, not $tree" >&2; exit 1; }
}

ev() {  # one `eval run` invocation; then flag its resumed questions (frozen code predates the flag)
  nice -n 19 "$BIN/disputatio" eval run -m "$MODEL" -o "$RUNS" "$@"
  PYTHONPATH=$REPO nice -n 19 "$BIN/python" "$REPO/benchmarks/mark_resumed.py" "$RUNS"/*/ \
    || echo "mark_resumed.py failed: run it by hand (docs/results.md, 'Resumed questions')" >&2
}

step1() {  # A. BioASQ and PubMedQA: CoT, RAG, the MedRAG debate, SC at its budget; 20, then 50
  use "$FROZEN_A"
  ev -d bioasq,pubmedqa -p cot,rag,medrag,sc_rag -n 20
  ev -d bioasq,pubmedqa -p cot,rag,medrag,sc_rag -n 50
}
step2() {  # A. MedQA; the debate without retrieval (and SC at its budget). B, C. the hierarchical debate
  use "$FROZEN_A"
  ev -d medqa -p cot,rag,medrag,sc_rag -n 20
  ev -d bioasq,pubmedqa,medqa -p medrag_norag,sc -n 20
  use "$FROZEN_B"
  ev -d bioasq,pubmedqa,medqa -p hier -n 20
  use "$FROZEN_C"  # the yes/no sets first: there the personas were probed (MedQA in step 4)
  ev -d bioasq,pubmedqa -p hier -n 20
}
step3() {  # C. GSM8K: the no-retrieval protocols (Du et al.'s multi-agent-debate anchor)
  use "$FROZEN_C"
  ev -d gsm8k -p cot,medrag_norag,sc,hier_norag -n 20
}
step4() {  # C. MedQA with the new personas (~5 h of CPU), then the hierarchical debate's ablations
  use "$FROZEN_C"
  ev -d medqa -p hier -n 20
  ev -d bioasq,pubmedqa,medqa -p hier_nodebate,hier_flat,hier_norag -n 20
}

steps=("$@")
[[ ${#steps[@]} -gt 0 ]] || steps=(1 2 3 4)
for s in "${steps[@]}"; do
  echo "== step $s ($(date -u +%FT%TZ))"
  "step$s"
done
