"""Speed of the local default: both debate protocols on the real model vs the same calls in a row.

Two questions, each on the local llama.cpp model (default ``local:qwen2.5-coder-1.5b``):

* the demo question with the demo's hierarchical debate (``disputatio.cli.demo.demo_context``);
* a MedRAG question with the ``medrag_debate`` defaults.

Two modes, each in its own process (a fresh server, an empty cache):

* ``graph``: the graphs as shipped: ``local_llm.n_parallel`` slots, prompt-prefix caching
  (``cache_prompt``) and slot affinity (``id_slot``): in MedRAG one slot per agent, decoded
  together; in the hierarchical debate one slot per leaf by default (``shared_slot``: its
  workers, reviewer and summarizer all extend the leaf's cached question and sections there;
  with ``continue_turns``, the local default, a worker's debate round and the reviewer are new
  turns of a cached conversation; ``--continue-turns on|off`` overrides it).
  Every chat call is recorded (messages, parameters, tokens).
* ``sequential``: the SAME recorded calls replayed one after another, without prefix caching
  or slot affinity, each generating exactly the tokens the graph's call generated
  (``max_tokens`` = its completion tokens, ``ignore_eos``), so both modes do the same work.

Retrieval runs over the in-process funnel of the sample corpus (reranker ``none``: the model
is what is timed) and is outside the replay, so the graph mode's wall time also pays for its
searches. Run it once, under the heavy-work lock::

    flock /tmp/disputatio-heavy.lock .venv/bin/python benchmarks/debate_local.py \\
        --out /tmp/debate_local.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage, messages_from_dict, messages_to_dict
from langchain_core.outputs import LLMResult

sys.path.insert(0, str(Path(__file__).resolve().parent))

from debate_local_table import table

MEDRAG_QUESTION = {
    "question": "Which Brucella species is the most common and most virulent cause of human "
    "disease?",
    "options": {
        "A": "Brucella abortus",
        "B": "Brucella melitensis",
        "C": "Brucella suis",
        "D": "Brucella canis",
    },
}


class Recorder(BaseCallbackHandler):
    """Records every chat call: messages, invocation parameters, tokens, start and end."""

    def __init__(self) -> None:
        self.calls: dict[str, dict[str, Any]] = {}

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        **kwargs: Any,
    ) -> None:
        params = kwargs.get("invocation_params") or {}
        self.calls[str(run_id)] = {
            "messages": messages_to_dict(messages[0]),
            "temperature": params.get("temperature"),
            "stop": params.get("stop"),
            "extra_body": params.get("extra_body"),
            "start": time.perf_counter(),
        }

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        call = self.calls.get(str(run_id))
        if call is None:
            return
        message = getattr(response.generations[0][0], "message", None)
        meta = dict(getattr(message, "usage_metadata", None) or {})
        details = dict(meta.get("input_token_details") or {})
        call.update(
            end=time.perf_counter(),
            prompt_tokens=int(meta.get("input_tokens", 0)),
            cached_tokens=int(details.get("cache_read") or 0),
            completion_tokens=int(meta.get("output_tokens", 0)),
        )


def _settings(
    model: str, *, cache: bool, n_parallel: int | None = None, speculative: str | None = None
) -> Any:
    from disputatio.settings import load_settings

    home = os.environ.get("DISPUTATIO_HOME", "/tmp/dh-bench-debate")
    local: dict[str, Any] = {"cache_prompt": cache, "slot_affinity": cache}
    if n_parallel is not None:
        local["n_parallel"] = n_parallel
    if speculative is not None:
        local["speculative"] = speculative
    return load_settings(home=home, models={"chat": model, "reranker": "none"}, local_llm=local)


def _retriever(settings: Any) -> Any:
    from disputatio.cli.demo import sample_corpus
    from disputatio.retrievers.memory import InMemoryFunnel

    return InMemoryFunnel.from_paths([str(sample_corpus())], settings=settings)


def run_graphs(
    model: str,
    n_parallel: int | None = None,
    speculative: str | None = None,
    continue_turns: bool | None = None,
) -> dict[str, Any]:
    """Mode ``graph``: run both protocols as shipped and record their calls.

    ``continue_turns`` overrides the demo context's (the hierarchical debate's) setting.
    """
    from disputatio.cli.demo import DEMO_QUESTION, demo_context
    from disputatio.graphs.debate import graph as debate_graph
    from disputatio.graphs.medrag_debate import MedragContext
    from disputatio.graphs.medrag_debate import graph as medrag_graph
    from disputatio.models import get_chat_model

    settings = _settings(model, cache=True, n_parallel=n_parallel, speculative=speculative)
    retriever = _retriever(settings)
    get_chat_model(model, settings=settings).invoke("Say OK.")  # start the server (not timed)
    runs = []
    demo = demo_context(settings, retriever)
    if continue_turns is not None:
        demo.continue_turns = continue_turns
    jobs = [
        (
            "demo (hierarchical)",
            debate_graph,
            {"question": DEMO_QUESTION},
            demo,
        ),
        (
            "medrag",
            medrag_graph,
            MEDRAG_QUESTION,
            MedragContext(settings=settings, retriever=retriever),
        ),
    ]
    for name, graph, inputs, context in jobs:
        recorder = Recorder()
        t0 = time.perf_counter()
        out = graph.invoke(inputs, {"callbacks": [recorder]}, context=context)
        wall = time.perf_counter() - t0
        calls = sorted(recorder.calls.values(), key=lambda c: c["start"])
        runs.append(
            {
                "question": name,
                "wall_s": round(wall, 1),
                "calls": len(calls),
                "prompt_tokens": sum(c.get("prompt_tokens", 0) for c in calls),
                "cached_tokens": sum(c.get("cached_tokens", 0) for c in calls),
                "completion_tokens": sum(c.get("completion_tokens", 0) for c in calls),
                "answer": out.get("answer"),
                "citations": [c.get("id") for c in out.get("citations") or []],
                "recorded": calls,
                "timeline": [
                    {
                        "start_s": round(c["start"] - t0, 1),
                        "duration_s": round(c.get("end", c["start"]) - c["start"], 1),
                        "prompt_tokens": c.get("prompt_tokens", 0),
                        "cached_tokens": c.get("cached_tokens", 0),
                        "completion_tokens": c.get("completion_tokens", 0),
                        "slot": (c.get("extra_body") or {}).get("id_slot"),
                    }
                    for c in calls
                ],
            }
        )
        print(f"graph {name}: {wall:.1f}s, {len(calls)} calls", file=sys.stderr)
    cfg = settings.local_llm
    return {
        "mode": "graph",
        "n_parallel": cfg.n_parallel,
        "speculative": cfg.speculative,
        "continue_turns": demo.continue_turns,
        "runs": runs,
    }


def _timed_call(llm: Any, messages: list[BaseMessage]) -> tuple[Any, dict[str, Any]]:
    """Send LangChain's own request for ``messages`` and return its usage and server timings.

    llama.cpp adds ``timings`` (``prompt_ms``, ``predicted_ms``...) to each completion; LangChain
    drops them, so the replay sends the payload LangChain builds through the same client.
    """
    payload = llm._get_request_payload(messages)
    response = llm.root_client.chat.completions.create(**payload)
    return response.usage, dict((response.model_extra or {}).get("timings") or {})


def replay(model: str, recorded: dict[str, Any], speculative: str | None = None) -> dict[str, Any]:
    """Mode ``sequential``: the graph's calls one after another, no cache, no slot."""
    from disputatio.models import get_chat_model

    settings = _settings(model, cache=False, speculative=speculative)
    get_chat_model(model, settings=settings).invoke("Say OK.")  # start the server (not timed)
    runs = []
    for run in recorded["runs"]:
        t0 = time.perf_counter()
        prompt = completion = 0
        prompt_ms = decode_ms = 0.0
        for call in run["recorded"]:
            n = max(1, int(call.get("completion_tokens") or 1))
            llm = get_chat_model(
                model,
                settings=settings,
                temperature=call.get("temperature"),
                max_tokens=n,
                extra_body={"ignore_eos": True},
            )
            usage, timings = _timed_call(llm, messages_from_dict(call["messages"]))
            prompt += usage.prompt_tokens
            completion += usage.completion_tokens
            prompt_ms += float(timings.get("prompt_ms", 0.0))
            decode_ms += float(timings.get("predicted_ms", 0.0))
        wall = time.perf_counter() - t0
        runs.append(
            {
                "question": run["question"],
                "wall_s": round(wall, 1),
                "calls": len(run["recorded"]),
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "prompt_s": round(prompt_ms / 1000, 1),
                "decode_s": round(decode_ms / 1000, 1),
            }
        )
        print(f"sequential {run['question']}: {wall:.1f}s", file=sys.stderr)
    return {"mode": "sequential", "speculative": settings.local_llm.speculative, "runs": runs}


def batch_probe(model: str, tokens: int = 128) -> dict[str, Any]:
    """Tokens/s of two requests one after the other and of the same two at once.

    A short prompt, cache off, ``tokens`` forced tokens each (``ignore_eos``), on the server's
    slots: the gain of running two agents at once when caching has nothing left to save.
    """
    from concurrent.futures import ThreadPoolExecutor

    from langchain_core.messages import HumanMessage

    from disputatio.models import get_chat_model

    settings = _settings(model, cache=False)
    get_chat_model(model, settings=settings).invoke("Say OK.")  # start the server (not timed)
    llm = get_chat_model(
        model, settings=settings, max_tokens=tokens, extra_body={"ignore_eos": True}
    )
    prompt: list[BaseMessage] = [HumanMessage("Write a long story about a lighthouse keeper.")]

    def call(_: int) -> None:
        _timed_call(llm, prompt)

    def wall(calls: int, workers: int) -> float:
        t0 = time.perf_counter()
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(call, range(calls)))
        return time.perf_counter() - t0

    call(0)  # warm-up
    one = 2 * tokens / wall(2, 1)  # two requests one after the other
    two = 2 * tokens / wall(2, 2)  # the same two at once
    return {"tokens": tokens, "one_tok_s": round(one, 1), "two_tok_s": round(two, 1)}


def main() -> None:
    """Run both modes in their own processes and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local:qwen2.5-coder-1.5b")
    parser.add_argument("--mode", choices=["both", "graph", "sequential"], default="both")
    parser.add_argument("--recorded", type=Path, help="graph-mode JSON (for --mode sequential)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/debate_local.json"))
    parser.add_argument(
        "--n-parallel", type=int, default=None, help="graph mode: llama.cpp slots (settings')"
    )
    parser.add_argument(
        "--speculative",
        default=None,
        help="local_llm.speculative of the graph mode (default: the settings'); the naive "
        "replay runs without speculation, and when the graph used some, also a replay with it",
    )
    parser.add_argument(
        "--continue-turns",
        choices=["on", "off"],
        default=None,
        help="graph mode: the hierarchical debate's continue_turns (default: the demo's)",
    )
    parser.add_argument(
        "--batch-probe",
        action="store_true",
        help="only measure decoding tokens/s of one sequence alone and two at once, and exit",
    )
    args = parser.parse_args()
    if args.batch_probe:
        print(json.dumps(batch_probe(args.model)))
        return
    if args.mode == "graph":
        turns = None if args.continue_turns is None else args.continue_turns == "on"
        result = run_graphs(args.model, args.n_parallel, args.speculative, turns)
        args.out.write_text(json.dumps(result))
        return
    if args.mode == "sequential":
        recorded = json.loads(args.recorded.read_text())
        args.out.write_text(json.dumps(replay(args.model, recorded, args.speculative)))
        return
    graph_out = args.out.with_suffix(".graph.json")
    seq_out = args.out.with_suffix(".sequential.json")
    me = [sys.executable, __file__, "--model", args.model]
    slots = [] if args.n_parallel is None else ["--n-parallel", str(args.n_parallel)]
    spec = [] if args.speculative is None else ["--speculative", args.speculative]
    turns = [] if args.continue_turns is None else ["--continue-turns", args.continue_turns]
    graph_cmd = [*me, "--mode", "graph", "--out", str(graph_out), *slots, *spec, *turns]
    subprocess.run(graph_cmd, check=True)
    used = json.loads(graph_out.read_text()).get("speculative", "none")
    replay_args = [*me, "--mode", "sequential", "--recorded", str(graph_out)]
    subprocess.run([*replay_args, "--out", str(seq_out), "--speculative", "none"], check=True)
    same = None
    if used != "none":
        same_out = args.out.with_suffix(".sequential-spec.json")
        subprocess.run([*replay_args, "--out", str(same_out), "--speculative", used], check=True)
        same = json.loads(same_out.read_text())
    graph, seq = json.loads(graph_out.read_text()), json.loads(seq_out.read_text())
    for run in graph["runs"]:
        run.pop("recorded", None)
    result = {
        "model": args.model,
        "graph": graph,
        "sequential": seq,
        "sequential_same_server": same,
        "table": table(graph, seq, same),
    }
    args.out.write_text(json.dumps(result, indent=1))
    print(result["table"])
    for run in graph["runs"]:
        print(f"{run['question']}: answer {run['answer']!r:.200} citations {run['citations']}")
        for c in run["timeline"]:
            print(
                f"  call at {c['start_s']:6.1f} s: {c['duration_s']:6.1f} s, prompt"
                f" {c['prompt_tokens']} ({c.get('cached_tokens', 0)} cached), completion"
                f" {c['completion_tokens']}, slot {c['slot']}"
            )


if __name__ == "__main__":
    main()
