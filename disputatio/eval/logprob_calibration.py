"""The calibrations of the log-probability verdicts, computed once per run and kept.

Per (data set, evidence setting, option labels), and per method:

* ``content_free``: the verdict asked on each content-free input
  (:data:`~disputatio.prompts.eval.CONTENT_FREE_INPUTS`); params ``prior`` (3 calls);
* ``fitted``: the verdict asked on :data:`FIT_QUESTIONS` questions of the data set's
  calibration split (a seeded draw, :data:`FIT_SEED`; never a test question), in the same
  evidence setting; params ``biases`` (:func:`~disputatio.eval.calibration.fit_biases`).

Where they are kept (so a resumed run reuses them and never refits): in memory per run, in the
run folder (``calibration/<key>.json``; the fit's per-question scores are appended to
``calibration/<key>.scores.jsonl`` as they come, so a fit killed halfway resumes), and in every
record (``calibration.params``): a run folder whose ``calibration/`` was lost takes them back
from its ``results.jsonl``. The calibration calls are counted in the params' ``usage``, not in
any question's.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from disputatio.errors import ConfigError
from disputatio.eval.calibration import (
    apply_biases,
    argmax_label,
    content_free_prior,
    fit_biases,
    label_probs,
)
from disputatio.eval.logprob_verdict import (
    ask_labels,
    content_free_messages,
    labels_of,
    logprobs_of,
    score_question,
    scores_record,
)
from disputatio.eval.question import Question
from disputatio.eval.stats import balanced_accuracy
from disputatio.graphs.medrag_debate import MedragContext, resolve
from disputatio.prompts.eval import CONTENT_FREE_INPUTS
from disputatio.state.reducers import merge_usage

#: Calibration questions the biases are fitted on (a seeded draw of the calibration split).
FIT_QUESTIONS = 100
#: Seed of that draw.
FIT_SEED = 0
#: Methods with parameters.
METHODS = ("content_free", "fitted")
_lock = threading.Lock()


def params_key(dataset: str, setting: str, method: str, labels: Sequence[str]) -> str:
    """The key (and file stem) of one calibration: ``<data set>.<setting>.<method>.<labels>``."""
    raw = f"{dataset}.{setting}.{method}.{'-'.join(labels)}"
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", raw)


class CalibrationStore:
    """The calibrations of one run: memory, then ``<run dir>/calibration``, then the records.

    Attributes:
        run_dir: The run folder (None: memory only).
    """

    def __init__(self, run_dir: Path | None) -> None:
        self.run_dir = run_dir
        self._params: dict[str, dict[str, Any]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    @property
    def folder(self) -> Path | None:
        """``<run dir>/calibration`` (None without a run folder)."""
        return self.run_dir / "calibration" if self.run_dir is not None else None

    def get(
        self, key: str, compute: Callable[[dict[str, dict[str, Any]], Callable], dict[str, Any]]
    ) -> dict[str, Any]:
        """The params of ``key``: kept ones, else ``compute(done, add)`` (then kept).

        ``compute`` gets the per-question entries a killed fit left (``done``, by question id)
        and ``add(entry)``, which keeps one more.
        """
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key in self._params:
                return self._params[key]
            params = self._load(key)
            if params is None:
                params = compute(self._scores(key), lambda entry: self._add_score(key, entry))
                self._save(key, params)
            self._params[key] = params
            return params

    def _load(self, key: str) -> dict[str, Any] | None:
        if self.run_dir is None:
            return None
        path = self.run_dir / "calibration" / f"{key}.json"
        if path.is_file():
            return dict(json.loads(path.read_text(encoding="utf-8")))
        from disputatio.eval.results import ResultsLog

        for record in ResultsLog(self.run_dir / "results.jsonl", writer=False).read():
            cal = record.get("calibration") or {}
            if cal.get("params_key") == key and cal.get("params"):
                params = dict(cal["params"])
                self._save(key, params)
                return params
        return None

    def _save(self, key: str, params: Mapping[str, Any]) -> None:
        if self.folder is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / f"{key}.json.tmp"
        tmp.write_text(json.dumps(params, indent=2, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self.folder / f"{key}.json")

    def _scores(self, key: str) -> dict[str, dict[str, Any]]:
        if self.folder is None or not (self.folder / f"{key}.scores.jsonl").is_file():
            return {}
        out: dict[str, dict[str, Any]] = {}
        for line in (self.folder / f"{key}.scores.jsonl").read_text(encoding="utf-8").split("\n"):
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:  # empty, or a line torn by a kill
                continue
            out[str(entry["id"])] = entry
        return out

    def _add_score(self, key: str, entry: Mapping[str, Any]) -> None:
        if self.folder is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        with (self.folder / f"{key}.scores.jsonl").open("a", encoding="utf-8") as fh:
            fh.write("\n" + json.dumps(entry, sort_keys=True) + "\n")
            fh.flush()
            os.fsync(fh.fileno())


def store_for(env: Any) -> CalibrationStore:
    """The run's :class:`CalibrationStore` (one per protocol env, in its ``cache``)."""
    with _lock:
        store = env.cache.get("logprob_calibration")
        if store is None:
            store = env.cache["logprob_calibration"] = CalibrationStore(env.run_dir)
        return store


def _content_free(
    ctx: MedragContext, options: dict[str, str] | list[str], setting: str
) -> dict[str, Any]:
    labels = labels_of(options)
    chars = resolve(ctx).section_max_chars
    inputs: list[dict[str, Any]] = []
    usage: dict[str, dict[str, Any]] = {}
    for text in CONTENT_FREE_INPUTS:
        asked = ask_labels(ctx, content_free_messages(text, options, setting, chars), labels)
        usage = merge_usage(usage, asked["usage"])
        probs = label_probs(asked["scores"].logprobs, labels)
        inputs.append({"input": text, "probs": probs, **scores_record(asked["scores"])})
    prior = content_free_prior([i["probs"] for i in inputs], labels)
    return {
        "method": "content_free",
        "labels": labels,
        "prior": prior,
        "inputs": inputs,
        "usage": usage,
    }


def calibration_loader(env: Any, dataset: str) -> Sequence[Question]:
    """The calibration split of ``dataset`` (the env's loader, else MIRAGE's).

    Raises:
        ConfigError: If the data set has no calibration split.
    """
    if env.calibration_questions is not None:
        return env.calibration_questions(dataset)
    from disputatio.eval import mirage

    if not mirage.is_mirage(dataset):
        raise ConfigError(
            f"{dataset} has no calibration split: the fitted calibration (*_calibrated_fit) "
            "needs a MIRAGE set (mirage:*); the content-free one (*_calibrated) needs none"
        )
    return mirage.calibration_questions(dataset)


def _fitted(
    env: Any,
    dataset: str,
    setting: str,
    labels: list[str],
    done: dict[str, dict[str, Any]],
    add: Callable[[dict[str, Any]], None],
) -> dict[str, Any]:
    from disputatio.eval.runner import draw

    pool = [
        q
        for q in calibration_loader(env, dataset)
        if labels_of(q.options) == labels and (setting != "read" or q.context)
    ]
    drawn = draw(pool, FIT_QUESTIONS, FIT_SEED)
    entries = []
    for question in drawn:
        entry = done.get(question.id)
        if entry is None:
            scored = score_question(question, env.medrag, setting)
            entry = {
                "id": question.id,
                "gold": question.gold,
                "logprobs": scored["logprobs"],
                "found": scored["found"],
                "usage": scored["usage"],
            }
            add(entry)
        entries.append(entry)
    used = [e for e in entries if e.get("found")]
    probs = [label_probs(logprobs_of(e), labels) for e in used]
    golds = [str(e["gold"]) for e in used]
    biases = fit_biases(probs, golds, labels)
    usage: dict[str, dict[str, Any]] = {}
    for e in entries:
        usage = merge_usage(usage, e.get("usage") or {})
    raw_ok = [argmax_label(p, labels) == g for p, g in zip(probs, golds, strict=True)]
    fit_ok = [
        argmax_label(apply_biases(p, biases), labels) == g
        for p, g in zip(probs, golds, strict=True)
    ]
    return {
        "method": "fitted",
        "labels": labels,
        "biases": biases,
        "questions": len(drawn),
        "used": len(used),
        "seed": FIT_SEED,
        "ids": [q.id for q in drawn],
        "golds": {g: golds.count(g) for g in labels},
        # on the calibration questions themselves (in-sample)
        "balanced_accuracy_raw": balanced_accuracy(raw_ok, golds),
        "balanced_accuracy_fitted": balanced_accuracy(fit_ok, golds),
        "usage": usage,
    }


def calibration_params(env: Any, question: Question, setting: str, method: str) -> dict[str, Any]:
    """The params of ``method`` for ``question``'s data set, setting and labels (kept per run).

    Raises:
        ConfigError: Unknown method, or ``fitted`` on a data set without a calibration split.
    """
    if method not in METHODS:
        raise ConfigError(f"unknown calibration {method!r}; known: {', '.join(METHODS)}")
    labels = labels_of(question.options)
    key = params_key(question.dataset, setting, method, labels)

    def compute(done: dict[str, dict[str, Any]], add: Callable) -> dict[str, Any]:
        if method == "content_free":
            return _content_free(env.medrag, question.options, setting)
        return _fitted(env, question.dataset, setting, labels, done, add)

    return {**store_for(env).get(key, compute), "key": key}
