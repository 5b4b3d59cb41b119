"""Test doubles for users and for our own orchestration tests.

:class:`ScriptedChatModel` replays a fixed script of replies, records every prompt it saw, and
behaves like a small local model: ``bind_tools`` is accepted but tool calls come back as text,
and ``with_structured_output`` parses the scripted JSON into the schema. Give each parallel
agent its own instance so the script order never depends on scheduling.

It also records what each call RECEIVED besides the prompt (``received``: the temperature,
max_tokens, stop sequences and extra request body in force), like a real client would send
them. Copies made with ``model_copy(update=...)`` (how
:func:`disputatio.models.chat.configure_model` applies a temperature to a model object) share
the script, its cursor and the records.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

#: A scripted reply: text, a message, a pydantic object / dict (sent as JSON), an exception to
#: raise, or a function of the prompt returning any of those.
Reply = (
    str | AIMessage | BaseModel | dict[str, Any] | Exception | Callable[[list[BaseMessage]], Any]
)


class ScriptExhaustedError(AssertionError):
    """The model was called more often than its script allows."""


class _Cursor:
    """Script position shared by a model and its copies."""

    def __init__(self) -> None:
        self.value = 0
        self.lock = threading.Lock()


class ScriptedChatModel(BaseChatModel):
    """A chat model that replays ``script`` in order.

    Attributes:
        script: Replies, consumed one per call.
        name: Label used in error messages.
        repeat_last: Keep returning the last reply when the script runs out (else raise).
        prompts: Every prompt received, in order (for assertions).
        received: Per call, the generation parameters received: ``{temperature, max_tokens,
            stop, extra_body, kwargs}`` (same order as ``prompts``).
        temperature: Sampling temperature in force (set by the caller, recorded only).
        max_tokens: Completion budget in force (recorded only).
        stop: Stop sequences in force (recorded; a ``stop`` passed at call time wins).
        extra_body: Extra request body in force, e.g. ``{"repeat_penalty": 1.2}`` (recorded).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    script: list[Any] = Field(default_factory=list)
    name: str = "scripted"
    repeat_last: bool = False
    prompts: list[list[BaseMessage]] = Field(default_factory=list)
    received: list[dict[str, Any]] = Field(default_factory=list)
    temperature: float | None = None
    max_tokens: int | None = None
    stop: list[str] | None = None
    extra_body: dict[str, Any] | None = None
    _cursor: _Cursor = PrivateAttr(default_factory=_Cursor)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def calls(self) -> int:
        """How many times the model was called."""
        return len(self.prompts)

    def _next(self, messages: list[BaseMessage], received: dict[str, Any]) -> Any:
        with self._cursor.lock:
            self.prompts.append(list(messages))
            self.received.append(received)
            if self._cursor.value >= len(self.script):
                if self.repeat_last and self.script:
                    reply = self.script[-1]
                else:
                    raise ScriptExhaustedError(
                        f"{self.name}: call {self._cursor.value + 1} but the script has "
                        f"{len(self.script)} replies"
                    )
            else:
                reply = self.script[self._cursor.value]
            self._cursor.value += 1
        if callable(reply) and not isinstance(reply, BaseModel | type):
            reply = reply(messages)
        if isinstance(reply, Exception):
            raise reply
        return reply

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        received = {
            "temperature": kwargs.pop("temperature", self.temperature),
            "max_tokens": kwargs.pop("max_tokens", self.max_tokens),
            "stop": stop if stop is not None else self.stop,
            "extra_body": kwargs.pop("extra_body", self.extra_body),
            "kwargs": dict(kwargs),
        }
        reply = self._next(messages, received)
        if isinstance(reply, AIMessage):
            message = reply
        else:
            if isinstance(reply, BaseModel):
                text = reply.model_dump_json()
            elif isinstance(reply, dict):
                text = json.dumps(reply)
            else:
                text = str(reply)
            n_in = sum(len(str(m.content).split()) for m in messages)
            message = AIMessage(
                content=text,
                usage_metadata={
                    "input_tokens": n_in,
                    "output_tokens": len(text.split()),
                    "total_tokens": n_in + len(text.split()),
                },
            )
        return ChatResult(generations=[ChatGeneration(message=message)])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, AIMessage]:
        """Accept tools like a local model does: calls come back as text in the content."""
        return self

    def with_structured_output(
        self, schema: Any, *, include_raw: bool = False, **kwargs: Any
    ) -> Runnable[Any, Any]:
        """Parse the scripted JSON reply into ``schema``."""

        def parse(message: AIMessage) -> Any:
            error: Exception | None = None
            parsed: Any = None
            try:
                data = json.loads(str(message.content))
                if isinstance(schema, type) and issubclass(schema, BaseModel):
                    parsed = schema.model_validate(data)
                else:
                    parsed = data
            except Exception as exc:  # reported like langchain does with include_raw
                if not include_raw:
                    raise
                error = exc
            if include_raw:
                return {"raw": message, "parsed": parsed, "parsing_error": error}
            return parsed

        return self | RunnableLambda(parse)
