"""Fakes of the log-probability tests: replies with ``logprobs``, an OpenAI-compatible endpoint."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any

import httpx
from langchain_core.messages import AIMessage, BaseMessage

BASE_URL = "http://scripted-llm.test/v1"


def logprobs_content(dist: Mapping[str, float], *, lead: str | None = None) -> list[dict[str, Any]]:
    """``logprobs.content`` of a reply whose answer token has the alternatives ``dist``.

    ``dist``: token → probability (the first token is the one generated). ``lead``: a token
    generated before the answer (listed alone).
    """
    tokens = list(dist)
    top = [{"token": t, "logprob": math.log(p), "bytes": []} for t, p in dist.items()]
    answer = {"token": tokens[0], "logprob": math.log(dist[tokens[0]]), "top_logprobs": top}
    if lead is None:
        return [answer]
    return [
        {"token": lead, "logprob": -0.01, "top_logprobs": [{"token": lead, "logprob": -0.01}]},
        answer,
    ]


def lp_reply(dist: Mapping[str, float], **kw: Any) -> AIMessage:
    """An AIMessage as ChatOpenAI returns it when bound with ``logprobs=True``."""
    content = logprobs_content(dist, **kw)
    text = "".join(str(c["token"]) for c in content)
    return AIMessage(
        content=text,
        response_metadata={"logprobs": {"content": content}},
        usage_metadata={"input_tokens": 50, "output_tokens": len(content), "total_tokens": 52},
    )


def prompt_text(messages: list[BaseMessage]) -> str:
    """The user turn of a label prompt."""
    return str(messages[-1].content)


def completion(dist: Mapping[str, float] | None, text: str = "") -> dict[str, Any]:
    """An OpenAI chat completion body (``dist`` None: no ``logprobs``, as some servers do)."""
    choice: dict[str, Any] = {
        "index": 0,
        "message": {"role": "assistant", "content": text or (next(iter(dist)) if dist else "")},
        "finish_reason": "length",
    }
    if dist is not None:
        choice["logprobs"] = {"content": logprobs_content(dist)}
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 0,
        "model": "scripted",
        "choices": [choice],
        "usage": {"prompt_tokens": 40, "completion_tokens": 1, "total_tokens": 41},
    }


def openai_endpoint(
    answer: Callable[[dict[str, Any]], dict[str, Any]], requests: list[dict[str, Any]]
) -> Any:
    """A ``ChatOpenAI`` whose HTTP calls go to ``answer(request body)`` (no network).

    Every request body is appended to ``requests``.
    """
    from langchain_openai import ChatOpenAI
    from pydantic import SecretStr

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        body["_path"] = request.url.path
        requests.append(body)
        return httpx.Response(200, json=answer(body))

    return ChatOpenAI(
        model="scripted",
        base_url=BASE_URL,
        api_key=SecretStr("test"),
        max_retries=0,
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),
    )
