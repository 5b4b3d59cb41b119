"""MIRAGE's five test sets, shipped in ``disputatio/data/mirage`` (see its README).

::

    from disputatio.eval.mirage import calibration_questions, split_questions
    test = split_questions("mirage:bioasq", "test")  # what `eval run` draws from
    calib = calibration_questions("mirage:bioasq")   # never drawn; baselines come from here

=====================  ==========  ==========================  ================
name                   questions   ids                         options
=====================  ==========  ==========================  ================
``mirage:mmlu``        1,089       ``anatomy-000``             A-D
``mirage:medqa``       1,273       ``0000``                    A-D
``mirage:medmcqa``     4,183       MedMCQA uuid                A-D
``mirage:pubmedqa``    500         PMID                        yes / no / maybe
``mirage:bioasq``      618         BioASQ id (24 hex)          yes / no
=====================  ==========  ==========================  ================

``mirage:all`` names the five (:func:`expand`); ``mirage:<set>@calibration`` (and
``mirage:all@calibration``) names a set's calibration split, run on purpose to fit what is fitted
(a confidence, :mod:`disputatio.eval.confidence_fit`): its records are calibration records
(:func:`is_calibration`) of the set (:func:`base_name`). Each set is split once and for all by a
hash of ``"<data set>:<id>"`` (:func:`~disputatio.eval.retrieval_data.split_of`, share
:data:`CALIBRATION_SHARE`): the calibration questions are never part of a test draw
(the ``test`` split leaves them out), so a baseline chosen on them is not chosen on the
questions it is compared with.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from disputatio.errors import ConfigError
from disputatio.eval.question import Question
from disputatio.eval.retrieval_data import split_of

#: The shipped files.
DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "mirage"
PREFIX = "mirage:"
#: The five sets, in MIRAGE's reading order.
SETS = ("mmlu", "medqa", "medmcqa", "pubmedqa", "bioasq")
NAMES = tuple(PREFIX + s for s in SETS)
ALL = PREFIX + "all"
#: Share of each set held out for calibration (baselines, thresholds).
CALIBRATION_SHARE = 0.2
#: Suffix naming a set's calibration split as a data set of its own.
CALIBRATION_SUFFIX = "@calibration"
#: The five calibration splits as data sets.
CALIBRATION_NAMES = tuple(n + CALIBRATION_SUFFIX for n in NAMES)


def base_name(name: str) -> str:
    """The set a data set name belongs to (``mirage:bioasq@calibration`` → ``mirage:bioasq``)."""
    return name.removesuffix(CALIBRATION_SUFFIX)


def is_mirage(name: str) -> bool:
    """Whether ``name`` is one of the five MIRAGE sets (``mirage:all`` is not a set)."""
    return name in NAMES


def expand(names: Iterable[str]) -> tuple[str, ...]:
    """``mirage:all`` replaced by the five set names; order kept, repeats dropped."""
    out: list[str] = []
    for name in names:
        if name == ALL + CALIBRATION_SUFFIX:
            out += CALIBRATION_NAMES
        else:
            out += NAMES if name == ALL else (name,)
    return tuple(dict.fromkeys(out))


def _check(name: str) -> str:
    if not is_mirage(name):
        raise ConfigError(f"unknown MIRAGE set {name!r}; known: {', '.join(NAMES)}")
    return name[len(PREFIX) :]


def load_all(name: str, root: Path | None = None) -> list[Question]:
    """Every question of ``name`` (calibration included), in file order.

    Args:
        name: ``mirage:mmlu``, ``mirage:medqa``, ``mirage:medmcqa``, ``mirage:pubmedqa`` or
            ``mirage:bioasq``.
        root: Folder holding ``<set>.jsonl.gz`` (default: the shipped one).

    Raises:
        ConfigError: Unknown name or missing file.
    """
    path = (root or DATA_DIR) / f"{_check(name)}.jsonl.gz"
    if not path.is_file():
        raise ConfigError(
            f"no {path}; rebuild it: python -m disputatio.eval.mirage_build <MIRAGE rawdata>"
        )
    out = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            options = row["options"]
            out.append(
                Question(
                    id=str(row["id"]),
                    dataset=name,
                    question=str(row["question"]),
                    options=dict(options) if isinstance(options, dict) else list(options),
                    gold=str(row["answer"]),
                    context=tuple(str(c) for c in row.get("context") or ()),
                )
            )
    return out


def is_calibration(dataset: str, question_id: str) -> bool:
    """Whether a question belongs to the calibration split (a hash of ``dataset:id``).

    Every question of a ``…@calibration`` data set does.
    """
    if dataset.endswith(CALIBRATION_SUFFIX):
        return True
    return split_of(f"{dataset}:{question_id}", CALIBRATION_SHARE) == "calibration"


def split_questions(
    dataset: str, split: Literal["calibration", "test"], root: Path | None = None
) -> list[Question]:
    """The questions of one split of ``dataset``, in file order.

    ``test`` (about 80%) is what test runs draw from; ``calibration`` (about 20%) is never
    drawn.

    Raises:
        ConfigError: If ``dataset`` is not a MIRAGE set or ``split`` is unknown.
    """
    if split not in ("calibration", "test"):
        raise ConfigError(f"unknown split {split!r}: calibration or test")
    held_out = split == "calibration"
    return [q for q in load_all(dataset, root) if is_calibration(dataset, q.id) == held_out]


def calibration_questions(dataset: str, root: Path | None = None) -> list[Question]:
    """The calibration split of ``dataset`` (about 20%; never in a test draw).

    Raises:
        ConfigError: If ``dataset`` is not a MIRAGE set.
    """
    return split_questions(dataset, "calibration", root)
