"""Structured output with retries, robust to small local models.

Local models served by llama.cpp honour ``method="json_schema"`` (grammar-constrained), but a
small model can still ramble until the token limit. :func:`structured_invoke` retries such
failures with a reminder to be brief, and raises :class:`~disputatio.errors.ModelError` with a
one-line reason when every attempt failed.
"""

from __future__ import annotations

import json
import time
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from pydantic import BaseModel, ValidationError

from disputatio.errors import ModelError
from disputatio.models.accounting import usage_record
from disputatio.state.reducers import merge_usage

T = TypeVar("T", bound=BaseModel)


class StructuredOutputError(ModelError):
    """No attempt produced a valid instance; ``usage`` still counts every attempt's tokens."""

    def __init__(self, message: str, usage: dict[str, dict[str, Any]]) -> None:
        super().__init__(message)
        self.usage = usage


BRIEF_REMINDER = (
    "Your previous reply was not valid JSON for the schema or was too long. Reply again with "
    "one short JSON object only; keep every string field brief."
)


def structured_invoke(
    llm: BaseChatModel,
    schema: type[T],
    messages: list[BaseMessage],
    *,
    agent: str,
    role: str,
    retries: int = 2,
) -> tuple[T, dict[str, dict[str, Any]]]:
    """Ask ``llm`` for an instance of ``schema``, retrying malformed or truncated replies.

    Args:
        llm: The chat model.
        schema: Pydantic model of the answer.
        messages: The prompt.
        agent: Agent name for accounting.
        role: Agent role for accounting.
        retries: Extra attempts after the first.

    Returns:
        ``(instance, usage)``.

    Raises:
        StructuredOutputError: If no attempt produced a valid instance (a ``ModelError`` that
            carries the usage of the failed attempts).
    """
    runnable = llm.with_structured_output(schema, method="json_schema", include_raw=True)
    usage: dict[str, dict[str, Any]] = {}
    prompt = list(messages)
    last_error = "no attempt"
    for _ in range(retries + 1):
        t0 = time.perf_counter()
        try:
            out = runnable.invoke(prompt)
        except (ValidationError, json.JSONDecodeError, ValueError) as exc:
            # the OpenAI client raises LengthFinishReasonError (a ValueError-free Exception
            # subclass in some versions); both land here or below
            last_error = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
            out = None
        except Exception as exc:
            if type(exc).__name__ not in ("LengthFinishReasonError", "OutputParserException"):
                raise
            last_error = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
            out = None
        raw = out.get("raw") if isinstance(out, dict) else None
        message = raw if isinstance(raw, AIMessage) else None
        usage = merge_usage(usage, usage_record(agent, role, message, time.perf_counter() - t0))
        parsed = out.get("parsed") if isinstance(out, dict) else None
        if isinstance(parsed, schema):
            return parsed, usage
        if isinstance(out, dict) and out.get("parsing_error") is not None:
            last_error = f"parsing error: {str(out['parsing_error']).splitlines()[0][:160]}"
        prompt = [*messages, HumanMessage(BRIEF_REMINDER)]
    raise StructuredOutputError(
        f"{agent} ({role}) gave no valid {schema.__name__}: {last_error}", usage
    )
