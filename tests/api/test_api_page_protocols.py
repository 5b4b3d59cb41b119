"""The page's protocol choices come from ``GET /debate/protocols`` (the graph registry): in
headless Chromium, the shipped protocols keep their labels and order, a registered toy protocol
is offered and runs from the page, and each choice shows the inputs its entry takes."""

from __future__ import annotations

import pytest
from toy_protocol import toy_registered

from disputatio.graphs import registry

from .conftest import KEY_A, LiveServer
from .test_api_page import CHROMIUM, signed_in

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not CHROMIUM, reason="no chromium executable (apt-get install chromium)"),
]

CHOICES = "() => [...document.querySelectorAll('#protocol option')].map((o) => [o.value, o.text])"


def test_the_page_offers_the_registered_protocols_and_runs_the_toy(live: LiveServer) -> None:
    with toy_registered(), signed_in(live.url) as page:
        page.wait_for_selector("#protocol option[value='toy']", state="attached")
        choices = page.evaluate(CHOICES)
        served = registry.api_protocols()
        assert [value for value, _ in choices] == list(served)  # the registry's order
        assert [text for _, text in choices] == [s.label or p for p, s in served.items()]
        page.select_option("#protocol", "toy")
        assert page.is_visible("#options-box") and page.is_hidden("#case-box")
        page.fill("#question", "Is this an echo?")
        page.fill("#options", "A=yes\nB=no")
        page.click("#start")
        page.wait_for_selector("#status:has-text('done')", timeout=60_000)
        assert "Echo: Is this an echo?" in page.inner_text("#answer")
        case_id = page.evaluate("state.caseId")
        with live.client(KEY_A) as client:
            session = client.get(f"/sessions/{case_id}").json()
        assert session["protocol"] == "toy"
        assert session["request"]["options"] == {"A": "yes", "B": "no"}  # lettered: a mapping


def test_each_choice_shows_the_inputs_its_entry_takes(live: LiveServer) -> None:
    with signed_in(live.url) as page:
        for protocol, spec in registry.api_protocols().items():
            page.select_option("#protocol", protocol)
            takes_case = not spec.needs_question
            assert page.is_visible("#case-box") == takes_case, protocol
            assert page.is_visible("#options-box") == bool(spec.option_forms), protocol
            assert page.evaluate("document.querySelector('#question').required") != takes_case
