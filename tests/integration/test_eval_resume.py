"""A real process running ``eval run`` is killed (SIGKILL) mid-run and started again.

No finished example may be lost or repeated: after the second process, every (protocol,
question) of the plan has exactly one line in ``results.jsonl``, and the lines written before
the kill are still there, unchanged. Models are scripted (slow replies), so this runs on any
machine in a few seconds; run as ``python THIS_FILE child OUT`` it is the child process.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

QUESTIONS = 6
PROTOCOLS = ("cot", "medrag")


def _child(out: Path) -> None:
    from eval_toys import a_questions, agents_answering

    from disputatio.eval.config import EvalConfig
    from disputatio.eval.protocols import ProtocolEnv
    from disputatio.eval.runner import Plan, run_eval
    from disputatio.nodes.medrag.context import MedragContext

    def slow(_messages: Any) -> str:
        time.sleep(0.1)
        return "Answer Choice: A"

    questions = a_questions(QUESTIONS)
    models = agents_answering(slow)

    def env_for(_d: str, _q: Any) -> ProtocolEnv:
        return ProtocolEnv(medrag=MedragContext(models=models, use_retrieval=False))

    config = EvalConfig(model="scripted", corpus="oracle", code={"fingerprint": "resume"})
    plan = Plan(("toy",), PROTOCOLS, n=QUESTIONS, loader=lambda _n: questions)
    run_eval(config, plan, env_for, out_root=out, concurrency=2)


def _results(out: Path) -> tuple[Path, list[str]]:
    files = list(out.glob("*/results.jsonl"))
    if not files:
        return out / "missing", []
    return files[0], files[0].read_text(encoding="utf-8").splitlines()


def _start(out: Path) -> subprocess.Popen[bytes]:
    here = Path(__file__).resolve()  # the child imports the package and tests/eval_toys.py
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(map(str, (here.parents[2], here.parents[1]))),
    }
    return subprocess.Popen([sys.executable, __file__, "child", str(out)], env=env)


def test_a_killed_run_resumes_without_losing_or_repeating_examples(tmp_path: Path) -> None:
    child = _start(tmp_path)
    deadline = time.monotonic() + 120
    while len(_results(tmp_path)[1]) < 3:
        assert child.poll() is None, "the child finished before it could be killed"
        assert time.monotonic() < deadline, "the child wrote nothing in 120 s"
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait()
    path, before = _results(tmp_path)
    assert 3 <= len(before) < QUESTIONS * len(PROTOCOLS), "kill came too late to test resuming"
    second = _start(tmp_path)
    assert second.wait(timeout=300) == 0
    after = path.read_text(encoding="utf-8").splitlines()
    assert after[: len(before)] == before  # nothing written before the kill was lost or changed
    keys = [(r["protocol"], r["question_id"]) for r in map(json.loads, after) if not r.get("error")]
    expected = {(p, f"q{i}") for p in PROTOCOLS for i in range(QUESTIONS)}
    assert sorted(keys) == sorted(expected)  # every example once: none lost, none repeated


if __name__ == "__main__" and sys.argv[1:2] == ["child"]:
    _child(Path(sys.argv[2]))
