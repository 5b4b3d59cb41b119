"""Option log-probabilities (``disputatio.models.logprobs``), through an OpenAI-compatible path."""

from __future__ import annotations

import math
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from disputatio.errors import ConfigError
from disputatio.models.logprobs import (
    LogprobsUnavailableError,
    option_logprobs,
    read_option_logprobs,
    token_label,
)

from .logprob_fakes import BASE_URL, completion, lp_reply, openai_endpoint

YES_NO = ["yes", "no"]
# what llama.cpp's server returned for "Is the sky blue? ... Answer:" (qwen2.5-coder-1.5b)
LLAMA_CPP = {
    "Yes": math.exp(-0.1582),
    "No": math.exp(-2.4399),
    "yes": math.exp(-2.9658),
    "no": math.exp(-5.5852),
    "YES": math.exp(-7.2839),
}


def lse(*values: float) -> float:
    return math.log(sum(math.exp(v) for v in values))


@pytest.mark.parametrize(
    ("token", "labels", "expected"),
    [
        ("Yes", YES_NO, "yes"),
        (" yes", YES_NO, "yes"),
        ("NO.", YES_NO, "no"),
        ("may", ["yes", "no", "maybe"], "maybe"),
        ("A", list("ABCD"), "A"),
        (" (B", list("ABCD"), "B"),
        ("**C", list("ABCD"), "C"),
        ("a", list("ABCD"), None),  # the article, not option A
        ("Answer", list("ABCD"), None),
        ("Not", YES_NO, None),
        ("", YES_NO, None),
    ],
)
def test_token_label_reads_labels_whatever_their_spelling(
    token: str, labels: list[str], expected: str | None
) -> None:
    assert token_label(token, labels) == expected


def test_every_spelling_of_a_label_adds_to_its_log_probability() -> None:
    scores = read_option_logprobs(lp_reply(LLAMA_CPP), YES_NO)
    assert scores.logprobs["yes"] == pytest.approx(lse(-0.1582, -2.9658, -7.2839), abs=1e-6)
    assert scores.logprobs["no"] == pytest.approx(lse(-2.4399, -5.5852), abs=1e-6)
    assert scores.missing == () and scores.found and scores.position == 0


def test_the_answer_position_is_the_first_label_token_after_a_lead() -> None:
    reply = lp_reply({"B": 0.6, "A": 0.3, "C": 0.1}, lead="**")
    scores = read_option_logprobs(reply, list("ABCD"))
    assert scores.position == 1 and scores.token == "B"
    assert scores.logprobs["B"] == pytest.approx(math.log(0.6))
    assert scores.logprobs["A"] == pytest.approx(math.log(0.3))


def test_a_label_not_listed_gets_the_smallest_listed_log_probability() -> None:
    scores = read_option_logprobs(lp_reply({"A": 0.7, "B": 0.2, "The": 0.05}), list("ABCD"))
    assert scores.missing == ("C", "D")
    assert scores.logprobs["C"] == scores.logprobs["D"] == pytest.approx(math.log(0.05))
    assert scores.floor == pytest.approx(math.log(0.05))


def test_a_reply_listing_no_label_is_not_found() -> None:
    scores = read_option_logprobs(lp_reply({"The": 0.9, "I": 0.1}), YES_NO)
    assert not scores.found and scores.position == -1 and scores.missing == ("yes", "no")


def test_a_reply_without_logprobs_names_the_endpoint() -> None:
    with pytest.raises(LogprobsUnavailableError, match="my-server:8000"):
        read_option_logprobs(AIMessage(content="yes"), YES_NO, endpoint="model at my-server:8000")
    assert issubclass(LogprobsUnavailableError, ConfigError)  # stops an eval run at once


def test_option_logprobs_through_an_openai_compatible_endpoint() -> None:
    requests: list[dict[str, Any]] = []
    model = openai_endpoint(lambda _body: completion({"No": 0.7, "Yes": 0.2, "no": 0.1}), requests)
    scores = option_logprobs(model, [HumanMessage("Is it? Answer:")], YES_NO, top_logprobs=5)
    assert scores["no"] == pytest.approx(math.log(0.8))
    assert scores["yes"] == pytest.approx(math.log(0.2))
    (body,) = requests
    assert body["_path"].endswith("/chat/completions")
    assert body["logprobs"] is True and body["top_logprobs"] == 5
    assert body["temperature"] == 0.0
    assert (body.get("max_completion_tokens") or body.get("max_tokens")) == 2


def test_an_openai_compatible_endpoint_without_logprobs_is_named_in_the_error() -> None:
    model = openai_endpoint(lambda _body: completion(None, "yes"), [])
    with pytest.raises(LogprobsUnavailableError) as err:
        option_logprobs(model, [HumanMessage("Is it? Answer:")], YES_NO)
    assert BASE_URL in str(err.value) and "'scripted'" in str(err.value)
