"""The CLI's printing and exports, on the verdict of a scripted debate."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from disputatio.argumentation import DebateGraph
from disputatio.cli import rdc as cli
from disputatio.graphs.rdc import RdcContext, graph
from disputatio.settings import Settings
from disputatio.storage.ledger import InMemoryLedger
from disputatio.testing import ScriptedChatModel

from .builders import FixedRetriever, ballot, case_data, claim, move


def test_exports_and_tables(
    unit_settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = [
        move("dairy", [claim("c", ["sec-brucella-1"], {"brucellosis": 0.7})]),
        move("", []),
        move("", []),
        ballot("brucellosis", "q_fever", "adult_onset_still"),
    ]
    ctx = RdcContext(
        models={"infectious": ScriptedChatModel(script=script)},
        retriever=FixedRetriever(),
        settings=unit_settings,
        specialists=["infectious"],
        max_rounds=1,
        turns_per_phase=1,
        ledger=InMemoryLedger(),
    )
    out = graph.invoke({"case": case_data()}, context=ctx)
    cli.write_exports(tmp_path, out["graph"], out["verdict"])
    jsonld = json.loads((tmp_path / "debate.jsonld").read_text())
    ids = {item.get("@id") for item in jsonld["@graph"]}
    assert "t1.infectious.c" in ids and "@context" in jsonld
    root = ET.fromstring((tmp_path / "debate.graphml").read_text())
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    assert len(root.findall(".//g:node", ns)) == len(DebateGraph.from_dict(out["graph"]))
    assert json.loads((tmp_path / "verdict.json").read_text())["top"] == out["verdict"]["top"]
    cli.print_verdict(out["verdict"])
    printed = capsys.readouterr().out
    assert "Differential" in printed and "Test plan" in printed
    assert "t3_marrow" in printed  # the test excluded by the risk limit is named
    assert "minimal counter-evidence" in printed
    # Δ_ik(T): the outcomes that would reverse a top pair, with their test and outcome
    text = " ".join(printed.split())  # rich wraps long lines
    reversing = [r for r in out["verdict"]["what_would_change_our_mind"]["test_pairs"]
                 if r["reverses"]]  # fmt: skip
    assert reversing
    for r in reversing[:6]:
        assert f"{r['test']} = {r['outcome']} would reverse {r['pair'][0]} over {r['pair'][1]}" in (
            text
        )
    assert "evidence whose defeat flips the verdict:" in text and "support of" in text
