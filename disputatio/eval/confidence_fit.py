"""A fitted confidence for eval protocols: fitted on calibration records, applied to test ones.

Per (data set, protocol) — or per protocol over its data sets (``by="protocol"``) — the
records of the calibration split (:func:`~disputatio.eval.confidence.split_of_record`) that
have an answer are the training set, the outcome is whether the answer was right. Four
candidates, the one with the lowest cross-validated log-loss kept (:data:`FOLDS`-fold,
shuffled with the seed; ties go to the earlier, simpler one):

* ``constant``: the calibration accuracy, ``(right + 1) / (n + 2)`` (what a confidence that
  knows nothing should say; it wins when no signal helps);
* ``platt``: a logistic map of the logit of the raw confidence (Platt scaling);
* ``isotonic``: a monotone step map of the raw confidence (isotonic regression);
* ``logistic``: an L2 logistic regression (C = 1) on the standardised signals of
  :data:`~disputatio.eval.confidence.SIGNALS` measured on every calibration record and not
  constant there.

``platt`` and ``isotonic`` need a raw confidence on every calibration record. Probabilities
are kept within [:data:`EPS`, 1 − :data:`EPS`]. Test records are never read by the fit (the
fit filters its input to the calibration split) and a model refuses to score a question it
was fitted on. :func:`write_models` keeps the models in ``<run>/confidence_model.json``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np

from disputatio.errors import ConfigError
from disputatio.eval.confidence import SIGNALS, by_group, is_right, signals, split_of_record

#: The file next to ``results.jsonl``.
MODEL_FILE = "confidence_model.json"
#: Fewest answered calibration records a fit needs.
MIN_FIT = 10
#: Cross-validation folds (fewer when there are fewer records).
FOLDS = 5
#: Probabilities are clipped to [EPS, 1 - EPS].
EPS = 1e-3
#: The candidates, simplest first (ties go to the simpler).
CANDIDATES = ("constant", "platt", "isotonic", "logistic")
#: Pool records by (data set, protocol) or by protocol alone.
By = Literal["dataset", "protocol"]
ALL_DATASETS = "*"


def _clip(p: np.ndarray) -> np.ndarray:
    return np.clip(p, EPS, 1.0 - EPS)


def _logit(p: np.ndarray) -> np.ndarray:
    q = _clip(p)
    return np.log(q / (1.0 - q))


def _fit(kind: str, x: np.ndarray, raw: np.ndarray | None, y: np.ndarray) -> dict[str, Any]:
    """The params of one candidate (a ``constant`` where ``y`` holds one class only)."""
    constant = {"kind": "constant", "p": (float(y.sum()) + 1.0) / (y.size + 2.0)}
    if kind == "constant" or y.min() == y.max():
        return constant
    if kind == "platt":
        from sklearn.linear_model import LogisticRegression

        assert raw is not None
        lr = LogisticRegression(C=100.0).fit(_logit(raw)[:, None], y)
        return {"kind": "platt", "a": float(lr.coef_[0][0]), "b": float(lr.intercept_[0])}
    if kind == "isotonic":
        from sklearn.isotonic import IsotonicRegression

        assert raw is not None
        iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(raw, y)
        return {
            "kind": "isotonic",
            "x": [float(v) for v in iso.X_thresholds_],
            "y": [float(v) for v in iso.y_thresholds_],
        }
    from sklearn.linear_model import LogisticRegression

    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    lr = LogisticRegression(C=1.0).fit((x - mean) / scale, y)
    return {
        "kind": "logistic",
        "mean": [float(v) for v in mean],
        "scale": [float(v) for v in scale],
        "coef": [float(v) for v in lr.coef_[0]],
        "intercept": float(lr.intercept_[0]),
    }


def _predict(params: Mapping[str, Any], x: np.ndarray, raw: np.ndarray | None) -> np.ndarray:
    kind = params["kind"]
    n = x.shape[0] if x.ndim == 2 else (raw.size if raw is not None else 0)
    if kind == "constant":
        return _clip(np.full(n, float(params["p"])))
    if kind == "platt":
        assert raw is not None
        return _clip(1.0 / (1.0 + np.exp(-(params["a"] * _logit(raw) + params["b"]))))
    if kind == "isotonic":
        assert raw is not None
        return _clip(np.interp(raw, params["x"], params["y"]))
    z = (x - np.asarray(params["mean"])) / np.asarray(params["scale"])
    return _clip(1.0 / (1.0 + np.exp(-(z @ np.asarray(params["coef"]) + params["intercept"]))))


def _log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = _clip(p)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _cv_log_loss(
    kind: str, x: np.ndarray, raw: np.ndarray | None, y: np.ndarray, seed: int
) -> float:
    from sklearn.model_selection import KFold

    held = np.zeros(y.size)
    folds = KFold(n_splits=min(FOLDS, y.size), shuffle=True, random_state=seed)
    for train, test in folds.split(x if x.ndim == 2 and x.shape[1] else y[:, None]):
        params = _fit(kind, x[train], None if raw is None else raw[train], y[train])
        held[test] = _predict(params, x[test], None if raw is None else raw[test])
    return _log_loss(held, y)


def question_key(record: Mapping[str, Any]) -> str:
    """``<data set>:<question id>``: how a model names the questions it was fitted on."""
    return f"{record['dataset']}:{record['question_id']}"


def group_key(dataset: str, protocol: str, by: By) -> tuple[str, str]:
    """The key a record is fitted under: ``(dataset, protocol)`` or ``("*", protocol)``."""
    return (ALL_DATASETS if by == "protocol" else dataset, protocol)


def fit_group(
    records: Sequence[Mapping[str, Any]], *, seed: int = 0, min_records: int = MIN_FIT
) -> dict[str, Any]:
    """Fit one group on its calibration records (others are dropped unread).

    Returns:
        ``{"fitted": True, kind, features, params, n_calibration, right, cv_log_loss,
        calibration_ids}`` or ``{"fitted": False, "reason": ...}``.
    """
    calib = [
        r for r in records if split_of_record(r) == "calibration" and r.get("answer") is not None
    ]
    if len(calib) < min_records:
        return {
            "fitted": False,
            "reason": f"{len(calib)} answered calibration records (a fit needs {min_records})",
        }
    return fit_records(calib, seed=seed)


def fit_records(calib: Sequence[Mapping[str, Any]], *, seed: int = 0) -> dict[str, Any]:
    """Fit on exactly these answered records, whatever their split (see :func:`fit_group`)."""
    rows = [signals(r) for r in calib]
    y = np.array([float(is_right(r)) for r in calib])
    names = [
        s
        for s in SIGNALS
        if all(row[s] is not None for row in rows) and len({row[s] for row in rows}) > 1
    ]
    x = np.array([[float(row[s]) for s in names] for row in rows])  # type: ignore[arg-type]
    x = x if names else np.zeros((len(rows), 0))
    raws = [row["raw"] for row in rows]
    raw = np.array(raws, dtype=float) if all(v is not None for v in raws) else None
    kinds = [
        k
        for k in CANDIDATES
        if k == "constant" or (k == "logistic" and names) or (k != "logistic" and raw is not None)
    ]
    losses = {k: round(_cv_log_loss(k, x, raw, y, seed), 6) for k in kinds}
    kind = min(kinds, key=lambda k: (losses[k], CANDIDATES.index(k)))
    return {
        "fitted": True,
        "kind": kind,
        "features": names if kind == "logistic" else ["raw"] if kind != "constant" else [],
        "params": _fit(kind, x, raw, y),
        "n_calibration": len(calib),
        "right": int(y.sum()),
        "cv_log_loss": losses,
        "calibration_ids": sorted(question_key(r) for r in calib),
    }


def cross_fitted(
    records: Sequence[Mapping[str, Any]], *, seed: int = 0, min_records: int = MIN_FIT
) -> tuple[list[float | None], list[str]]:
    """Out-of-fold fitted confidences of answered test records (a run with no calibration ones).

    The records are split into :data:`FOLDS` folds (shuffled with ``seed``); each fold is
    scored by a model fitted (:func:`fit_records`, its own inner cross-validation) on the
    other folds only, so no record is scored by a model that saw it. What this measures is
    the fitting procedure on this many questions, not one shipped model.

    Args:
        records: Answered test records of one group.
        seed: Seed of the outer and inner folds.
        min_records: Fewest records a fold's model is fitted on.

    Returns:
        The confidence of each record (None where a fold's model cannot score it, or there
        are fewer than ``2 * min_records`` records) and the kind chosen in each fold.
    """
    from sklearn.model_selection import KFold

    out: list[float | None] = [None] * len(records)
    if len(records) < 2 * min_records:
        return out, []
    kinds = []
    folds = KFold(n_splits=FOLDS, shuffle=True, random_state=seed)
    for train, test in folds.split(np.zeros((len(records), 1))):
        model = fit_records([records[i] for i in train], seed=seed)
        kinds.append(str(model["kind"]))
        for i in test:
            out[i] = fitted_confidence(model, records[i])
    return out, kinds


def fit_models(
    records: Sequence[Mapping[str, Any]],
    *,
    by: By = "dataset",
    seed: int = 0,
    min_records: int = MIN_FIT,
) -> dict[str, Any]:
    """Fit every group of ``records`` (only their calibration split is read).

    Returns:
        ``{"by", "seed", "min_records", "models": [{dataset, protocol, ...fit_group}]}``.
    """
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for (dataset, protocol), rows in by_group(records).items():
        groups.setdefault(group_key(dataset, protocol, by), []).extend(rows)
    models = [
        {"dataset": d, "protocol": p, **fit_group(rows, seed=seed, min_records=min_records)}
        for (d, p), rows in groups.items()
    ]
    return {"by": by, "seed": seed, "min_records": min_records, "models": models}


def find_model(models: Mapping[str, Any], dataset: str, protocol: str) -> Mapping[str, Any] | None:
    """The model of ``(dataset, protocol)`` in a :func:`fit_models` result (None: none)."""
    for model in models.get("models") or []:
        if model["protocol"] == protocol and model["dataset"] in (dataset, ALL_DATASETS):
            return model
    return None


def fitted_confidence(model: Mapping[str, Any], record: Mapping[str, Any]) -> float | None:
    """The fitted probability that ``record``'s answer is right.

    None when the model was not fitted, the record has no answer, or it lacks a signal the
    model reads.

    Raises:
        ConfigError: If the model was fitted on this question (a calibration record).
    """
    if not model.get("fitted") or record.get("answer") is None:
        return None
    if question_key(record) in set(model.get("calibration_ids") or ()):
        raise ConfigError(
            f"question {record['question_id']} of {record['dataset']}/{record['protocol']} "
            "is one the confidence model was fitted on: score test records only"
        )
    row = signals(record)
    names = list(model["features"])
    if any(row[s] is None for s in names):
        return None
    x = np.array([[float(row[s]) for s in names]])  # type: ignore[arg-type]
    raw = np.array([float(row["raw"])]) if row["raw"] is not None else None
    if model["kind"] in ("platt", "isotonic") and raw is None:
        return None
    value = float(_predict(model["params"], x, raw)[0])
    return value if math.isfinite(value) else None


def write_models(run_dir: Path, models: Mapping[str, Any]) -> Path:
    """Write ``<run>/confidence_model.json`` (atomically); return its path."""
    path = run_dir / MODEL_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(models, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def read_models(run_dir: Path) -> dict[str, Any] | None:
    """The models kept in ``<run>/confidence_model.json`` (None: no such file).

    Raises:
        ConfigError: If the file is not a model file.
    """
    path = run_dir / MODEL_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path} is not JSON ({exc.msg}); delete it or refit") from exc
    if not isinstance(data, dict) or not isinstance(data.get("models"), list):
        raise ConfigError(f"{path} holds no confidence models; delete it or refit")
    return data
