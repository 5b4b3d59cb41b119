"""The in-memory ledger, the chain rule, and idempotent replays of a resumed RDC run."""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import replace
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from disputatio.graphs.rdc import RdcContext, build_graph
from disputatio.nodes.rdc.outbox import entry, flush
from disputatio.settings import Settings
from disputatio.storage.ledger import (
    GENESIS_HASH,
    KEY_FIELD,
    InMemoryLedger,
    LedgerEntry,
    canonical_json,
    entry_hash,
    jsonable,
    verify_entries,
)
from disputatio.testing import ScriptedChatModel

from .builders import FixedRetriever, ballot, case_data, move


def test_hash_is_sha256_of_prev_hash_and_canonical_json() -> None:
    ledger = InMemoryLedger()
    first = ledger.append("t", "move", {"b": 1, "a": [1.5, "é"]})
    assert first.seq is not None and first.created_at is not None
    body = (
        f'{{"created_at":"{first.created_at}","idx":0,"kind":"move",'
        f'"payload":{{"a":[1.5,"é"],"b":1}},"seq":{first.seq},"thread_id":"t"}}'
    )
    assert first.prev_hash == GENESIS_HASH
    assert first.hash == hashlib.sha256((GENESIS_HASH + body).encode()).hexdigest()
    assert first.created_at.endswith("+00:00")
    second = ledger.append("t", "verdict", {})
    assert second.idx == 1 and second.prev_hash == first.hash
    assert ledger.verify("t").ok and ledger.verify("t").entries == 2


def test_threads_are_independent_and_empty_threads_do_not_verify() -> None:
    ledger = InMemoryLedger()
    ledger.append("a", "x", {})
    assert ledger.append("b", "x", {}).idx == 0
    result = ledger.verify("missing")
    assert not result.ok and result.entries == 0 and "no ledger entries" in result.reason


def test_keys_make_appends_idempotent() -> None:
    ledger = InMemoryLedger()
    one = ledger.append("t", "move", {"n": 1}, key="k1")
    again = ledger.append("t", "move", {"n": 999}, key="k1")
    assert again == one and one.payload[KEY_FIELD] == "k1"
    assert len(ledger.entries("t")) == 1


@pytest.mark.parametrize(
    "tamper",
    [
        lambda chain: chain.__setitem__(1, replace(chain[1], kind="vote")),
        lambda chain: chain.__setitem__(1, replace(chain[1], payload={"n": 2})),
        lambda chain: chain.pop(1),
        lambda chain: chain.insert(1, chain.pop(2)),
    ],
    ids=["kind", "payload", "deleted", "reordered"],
)
def test_tampering_is_detected(tamper: Any) -> None:
    ledger = InMemoryLedger()
    for n in range(4):
        ledger.append("t", "move", {"n": n})
    tamper(ledger.raw("t"))
    result = ledger.verify("t")
    assert not result.ok and result.first_bad_idx == 1


def test_seq_and_created_at_are_hashed() -> None:
    ledger = InMemoryLedger()
    for n in range(3):
        ledger.append("t", "move", {"n": n})
    chain = ledger.raw("t")
    chain[1] = replace(chain[1], created_at="2020-01-01T00:00:00.000000+00:00")
    assert ledger.verify("t").first_bad_idx == 1
    ledger2 = InMemoryLedger()
    for n in range(3):
        ledger2.append("t", "move", {"n": n})
    chain2 = ledger2.raw("t")
    chain2[1] = replace(chain2[1], seq=(chain2[1].seq or 0) + 100)
    result = ledger2.verify("t")
    assert not result.ok and result.first_bad_idx in (1, 2)


def test_truncation_is_detected_against_the_recorded_head() -> None:
    ledger = InMemoryLedger()
    for n in range(4):
        ledger.append("t", "move", {"n": n})
    ledger.raw("t").pop()  # the chain that is left is internally sound
    result = ledger.verify("t")
    assert not result.ok and "truncated" in result.reason and result.first_bad_idx == 3


def _rehashed(entries: list[LedgerEntry], payload: dict[str, Any]) -> list[LedgerEntry]:
    """Rewrite entry 1 on, re-hashing the chain consistently (what a forger would do)."""
    out = entries[:1]
    for e in entries[1:]:
        prev = out[-1].hash
        data = payload if e.idx == 1 else e.payload
        h = entry_hash(prev, e.thread_id, e.idx, e.kind, data, seq=e.seq, created_at=e.created_at)
        out.append(replace(e, payload=data, prev_hash=prev, hash=h))
    return out


def test_a_rehashed_rewrite_is_detected_by_the_head_and_by_the_anchor() -> None:
    ledger = InMemoryLedger()
    for n in range(3):
        last = ledger.append("t", "move", {"n": n})
    anchor = (last.idx, last.hash)
    forged = _rehashed(ledger.entries("t"), {"n": 99})
    # internally sound: only the anchors can tell
    assert verify_entries("t", forged).ok
    result = verify_entries("t", forged, head=ledger.head("t"))
    assert not result.ok and "rewritten" in result.reason
    # a forger who also rewrote the head table is still caught by the verdict's anchor
    forged_head = (forged[-1].idx, forged[-1].hash)
    result = verify_entries("t", forged, head=forged_head, anchor=anchor)
    assert not result.ok and "anchor" in result.reason
    assert verify_entries("t", ledger.entries("t"), head=ledger.head("t"), anchor=anchor).ok


def test_payloads_are_made_json_safe() -> None:
    data = jsonable({"nan": float("nan"), "inf": float("-inf"), "neg0": -0.0, "t": (1, 2)})
    assert data == {"nan": None, "inf": None, "neg0": 0.0, "t": [1, 2]}
    assert canonical_json(data) == '{"inf":null,"nan":null,"neg0":0.0,"t":[1,2]}'
    with pytest.raises(TypeError):
        jsonable({"x": object()})


def test_concurrent_appends_keep_one_chain() -> None:
    ledger = InMemoryLedger()
    workers = [
        threading.Thread(target=lambda i=i: [ledger.append("t", "x", {"i": i}) for _ in range(50)])
        for i in range(4)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert ledger.verify("t").ok and ledger.verify("t").entries == 200


def test_flushing_the_outbox_twice_appends_once() -> None:
    ledger = InMemoryLedger()
    box = [entry("run:1", "move", {"a": 1}), entry("run:2", "graph_delta", {"b": 2})]
    assert flush(ledger, "t", box, 0) == 2
    assert flush(ledger, "t", box, 0) == 2  # a resumed node replays its flush
    assert [e.kind for e in ledger.entries("t")] == ["move", "graph_delta"]


def test_interrupted_and_resumed_run_writes_each_entry_once(unit_settings: Settings) -> None:
    empty = move("nothing", [])
    models = {
        name: ScriptedChatModel(name=name, script=[empty, empty, empty, ballot("brucellosis")])
        for name in ("infectious", "autoimmune")
    }
    ledger = InMemoryLedger()
    ctx = RdcContext(
        models=models,
        retriever=FixedRetriever(),
        settings=unit_settings,
        specialists=list(models),
        max_rounds=1,
        entropy_stop=0.0,
        voi_stop=0.0,
        ledger=ledger,
    )
    app = build_graph().compile(checkpointer=InMemorySaver(), interrupt_before=["jury"])
    config: Any = {"configurable": {"thread_id": "resume-1"}}
    app.invoke({"case": case_data()}, config, context=ctx)
    # replaying every flush of the run so far (what a crash-and-resume does) adds nothing
    # beyond the entries still waiting in the outbox
    state = app.get_state(config).values
    waiting = len(state["outbox"]) - state["ledger_cursor"]
    before = len(ledger.entries("resume-1"))
    flush(ledger, "resume-1", state["outbox"], 0)
    flush(ledger, "resume-1", state["outbox"], 0)
    assert len(ledger.entries("resume-1")) == before + waiting
    out = app.invoke(None, config, context=ctx)
    keys = [e.payload[KEY_FIELD] for e in ledger.entries("resume-1")]
    assert len(keys) == len(set(keys)) and keys[-1].endswith(":verdict")
    assert ledger.verify("resume-1").ok
    assert json.loads(json.dumps(out["verdict"]))["top"] == out["verdict"]["top"]
    # a finished thread refuses a second debate
    with pytest.raises(Exception, match="already holds a debate"):
        app.invoke({"case": case_data()}, config, context=ctx)
