"""`disputatio rdc calibrate` over the shipped worked cases, and the CLI's bad-input errors."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from disputatio.argumentation import evaluate
from disputatio.cli import rdc as cli
from disputatio.errors import ConfigError
from disputatio.nodes.rdc.calibrate import calibration_report, labelled_case
from disputatio.nodes.rdc.case import read_case_file

CASES = resources.files("disputatio") / "data" / "cases"


def _paths() -> list[Path]:
    return sorted(Path(str(p)) for p in CASES.iterdir() if p.name.endswith(".json"))


def _root() -> typer.Typer:
    root = typer.Typer()
    root.add_typer(cli.rdc_app, name="rdc")

    @root.callback()
    def _main() -> None:
        """Test root."""

    return root


def test_the_shipped_cases_have_ground_truth_and_a_non_medical_domain() -> None:
    cases = [read_case_file(p) for p in _paths()]
    assert len(cases) >= 5 and all(c.gold for c in cases)
    assert {c.domain for c in cases} - {"medical"}, "at least one non-medical case"
    assert {e.source for c in cases for e in c.evidence} >= {"measurement", "second_hand"}


def test_the_report_scores_default_fit_and_leave_one_out() -> None:
    paths = _paths()
    report = calibration_report(paths)
    assert report["cases"] == len(paths)
    default = evaluate([labelled_case(read_case_file(p)) for p in paths])
    assert report["default"]["brier"] == pytest.approx(default.brier)
    assert report["fitted"]["brier"] <= report["default"]["brier"]
    assert 0.0 <= report["leave_one_out"]["brier"] <= 2.0


def test_calibrate_cli_prints_json_and_refuses_bad_input(tmp_path: Path) -> None:
    paths = [str(p) for p in _paths()]
    result = CliRunner().invoke(_root(), ["rdc", "calibrate", *paths, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["cases"] == len(paths)
    nogold = json.loads(Path(paths[0]).read_text())
    nogold["gold"] = None
    (tmp_path / "nogold.json").write_text(json.dumps(nogold))
    with pytest.raises(ConfigError, match="no gold"):
        calibration_report([Path(paths[1]), tmp_path / "nogold.json"])
    with pytest.raises(ConfigError, match="at least two"):
        calibration_report([Path(paths[1])])
    bad = CliRunner().invoke(_root(), ["rdc", str(tmp_path / "missing.json")])
    assert isinstance(bad.exception, ConfigError) and "cannot read case file" in str(bad.exception)
    knob = CliRunner().invoke(_root(), ["rdc", paths[0], "--semantics", "preferred"])
    assert isinstance(knob.exception, ConfigError) and "semantics" in str(knob.exception)


def test_calibrate_cli_reads_a_directory_of_cases_and_prints_the_toml_section(
    tmp_path: Path,
) -> None:
    """A directory stands for its CASE.json files; the hint names the ``[rdc]`` TOML section
    (rich markup once swallowed it)."""
    folder = Path(str(CASES))
    result = CliRunner().invoke(_root(), ["rdc", "calibrate", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["cases"] == len(_paths())
    table = CliRunner().invoke(_root(), ["rdc", "calibrate", str(folder)])
    assert table.exit_code == 0, table.output
    fitted = json.loads(result.output)["fitted"]
    assert f"[rdc] quality_alpha = {fitted['alpha']:g}" in " ".join(table.output.split())
    empty = CliRunner().invoke(_root(), ["rdc", "calibrate", str(tmp_path), str(tmp_path)])
    assert isinstance(empty.exception, ConfigError) and "no CASE.json" in str(empty.exception)


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--specialists", " , "], "names no specialist"),
        (["--specialists", "infectious,autoimmune,infectious"], "named twice: infectious"),
        (["--max-tokens", "0"], "max_tokens"),
        (["--max-tokens", "-5"], "max_tokens"),
    ],
)
def test_rdc_run_refuses_bad_knobs_before_any_model_or_database(
    extra: list[str], needle: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each bad knob is a one-line ConfigError raised before the checkpointer is opened (a
    negative token budget once reached the model server as an HTTP 400)."""
    import disputatio.storage.checkpoint as checkpoint

    def no_database(*_: object, **__: object) -> None:
        raise AssertionError("the database was opened before the knobs were checked")

    monkeypatch.setattr(checkpoint, "open_checkpointer", no_database)
    result = CliRunner().invoke(_root(), ["rdc", _paths()[0].as_posix(), *extra])
    assert isinstance(result.exception, ConfigError), result.output
    assert needle in str(result.exception)
