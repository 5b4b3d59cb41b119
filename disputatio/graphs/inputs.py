"""Requests → graph inputs of the shipped debate protocols (used by :mod:`.registry`).

A *request* is what a caller asks a protocol, as a plain mapping: ``question``, ``options``
(``{letter: text}`` or a list of names), ``case`` (an RDC CASE), ``axes`` and ``constraints``
(the referee's). It is the body of ``POST /debate/start`` (without ``protocol``) or the
arguments of ``disputatio ask``.

Each protocol has two functions here:

* a *check* (``request -> stored request``): what the protocol keeps of a request, refusing a
  wrong shape with :class:`InvalidRequest` (the API answers it as a 422 naming the field). The
  caller checks the common parts first: a question (its length) for protocols that need one,
  answer options for those that need them (``GraphSpec.needs_question``/``needs_options``);
* an *input builder* (``(stored request, case id) -> graph input``): the case id is the API's
  run id, or None where there is none (``disputatio ask``).

Nothing here imports a graph, a node or a web framework: these are plain dict shapes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class InvalidRequest(ValueError):
    """A request a protocol cannot take.

    Attributes:
        field: The offending field (``options``, ``case.hypotheses``...).
        message: Why, for the caller.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def question_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """The default check: keep the question, and the options when there are any."""
    out: dict[str, Any] = {"question": request["question"]}
    if request.get("options"):
        out["options"] = request["options"]
    return out


def question_inputs(request: Mapping[str, Any], case_id: str | None) -> dict[str, Any]:
    """The default input builder: ``{"question", "options"}`` (options None when not given)."""
    return {"question": request["question"], "options": request.get("options")}


# --- hierarchical (graph ``debate``) ----------------------------------------------------------


def debate_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """Options are ``{letter: text}`` (or none); they are kept even when None."""
    if isinstance(request.get("options"), list):
        raise InvalidRequest("options", "give options as {letter: text}")
    return {"question": request["question"], "options": request.get("options")}


# --- medrag (graph ``medrag_debate``) ---------------------------------------------------------


def medrag_inputs(request: Mapping[str, Any], case_id: str | None) -> dict[str, Any]:
    """Question and options; the case id (when there is one) is the debate's question id."""
    out = {"question": request["question"], "options": request["options"]}
    if case_id is not None:
        out["question_id"] = case_id
    return out


# --- referee ----------------------------------------------------------------------------------

_REFEREE_EXTRAS = ("options", "axes", "constraints")


def referee_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """Options are a list of names; options, axes and constraints are kept when given."""
    if isinstance(request.get("options"), dict):
        raise InvalidRequest("options", "give the referee's options as a list of names")
    out: dict[str, Any] = {"question": request["question"]}
    out.update({k: request[k] for k in _REFEREE_EXTRAS if request.get(k)})
    return out


def referee_inputs(request: Mapping[str, Any], case_id: str | None) -> dict[str, Any]:
    """The question is the referee's ``query``; options, axes, constraints when given."""
    out: dict[str, Any] = {"query": request["question"]}
    out.update({k: request[k] for k in _REFEREE_EXTRAS if request.get(k)})
    return out


# --- rdc --------------------------------------------------------------------------------------


def rdc_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """A valid CASE (stored as JSON); the question shown for it is its title, else its id."""
    from pydantic import ValidationError

    from disputatio.state.rdc import Case

    if request.get("case") is None:
        raise InvalidRequest("case", "the rdc protocol needs a CASE object")
    try:
        case = Case.model_validate(request["case"])
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "body"
        raise InvalidRequest(f"case.{where}", str(first.get("msg", "invalid"))) from None
    return {"case": case.model_dump(mode="json"), "question": case.title or case.id}


def rdc_inputs(request: Mapping[str, Any], case_id: str | None) -> dict[str, Any]:
    """The CASE, and the case id as the ledger's thread."""
    return {"case": request["case"], "thread_id": case_id}


def rdc_server_context(settings: Any) -> dict[str, Any]:
    """What a server adds to the RDC context: the Postgres ledger of its database."""
    from disputatio.storage.ledger import PostgresLedger

    return {"ledger": PostgresLedger(settings)}
