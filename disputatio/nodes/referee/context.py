"""Run settings of the Tech Referee graph (its LangGraph ``context_schema``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, cast

from langgraph.runtime import Runtime

from disputatio.errors import ConfigError
from disputatio.nodes.context import AgentContext
from disputatio.nodes.referee.soundness import TIE_MARGIN
from disputatio.tools.web_search import WebSearch, web_search_from_settings

S_contra = TypeVar("S_contra", contravariant=True)


class RefereeNode(Protocol[S_contra]):
    """A referee node: takes its input state and the runtime, returns a state update."""

    def __call__(self, state: S_contra, *, runtime: Runtime[RefereeContext]) -> dict[str, Any]:
        """Run the node."""
        ...


@dataclass
class RefereeContext(AgentContext):
    """Run settings of one referee run (``None`` = take the value from settings).

    Agents and the keys of ``models`` they look up: ``planner``, ``advocate-<option>``,
    ``examiner-<option>`` (``<option>`` slugged: lower case, runs of other characters → ``-``),
    ``referee``; then their roles ``planner``, ``advocate``, ``examiner``, ``referee``.

    Attributes:
        max_options: Options compared at most (default: ``referee.max_options``).
        max_clarifications: Clarification questions at most (``referee.max_clarifications``).
        max_axes: Comparison axes at most.
        web_search: A :class:`~disputatio.tools.web_search.WebSearch` (default: the one of
            ``referee.web_search``, i.e. none unless a Tavily/Exa key is set).
        k_per_query: Corpus sections fetched per planner/advocate/examiner query.
        web_k: Web results fetched per advocate query (when a web search is set).
        max_sections: Sections shown to one agent at most.
        section_chars: Characters of each section shown to an agent.
        max_claims_checked: Opponent claims one examiner checks at most, per opponent
            (default: ``referee.max_claims_checked``).
        max_fill_rounds: Times the referee is asked again for missing cells (default:
            ``referee.max_fill_rounds``).
        tie_margin: Points of the 1-10 weighted score within which the best options are no
            clear winner (:data:`~disputatio.nodes.referee.soundness.TIE_MARGIN`, 0.5; 0
            treats only exact ties so). The ruling then recommends nothing, with low confidence.
        temperature: Sampling temperature of every agent (default: settings).
        max_tokens: Completion budget of every call (default: settings).
        structured_retries: Extra attempts when a reply is not valid JSON for its schema.
    """

    max_options: int | None = None
    max_clarifications: int | None = None
    max_axes: int = 5
    web_search: Any = None
    k_per_query: int = 3
    web_k: int = 3
    max_sections: int = 8
    section_chars: int = 800
    max_claims_checked: int | None = None
    max_fill_rounds: int | None = None
    tie_margin: float = TIE_MARGIN
    temperature: float | None = None
    max_tokens: int | None = None
    structured_retries: int = 2

    def option_cap(self) -> int:
        """Options compared at most."""
        return self.max_options or self.get_settings().referee.max_options

    def clarification_cap(self) -> int:
        """Clarification questions at most."""
        if self.max_clarifications is not None:
            return self.max_clarifications
        return self.get_settings().referee.max_clarifications

    def claims_cap(self) -> int:
        """Claims of each opponent one cross-examiner checks at most."""
        if self.max_claims_checked is not None:
            return self.max_claims_checked
        return self.get_settings().referee.max_claims_checked

    def fill_rounds(self) -> int:
        """Times the referee is asked again for missing cells."""
        if self.max_fill_rounds is not None:
            return self.max_fill_rounds
        return self.get_settings().referee.max_fill_rounds

    def close_margin(self) -> float:
        """The tie margin, checked.

        Raises:
            ConfigError: The margin is negative.
        """
        if self.tie_margin < 0:
            raise ConfigError(f"referee: tie_margin must be >= 0, got {self.tie_margin}")
        return self.tie_margin

    def get_web_search(self) -> WebSearch:
        """The injected web search, else the one of ``referee.web_search``.

        Raises:
            ConfigError: The configured engine lacks its key or its integration package.
        """
        if self.web_search is not None:
            return cast(WebSearch, self.web_search)
        return web_search_from_settings(self.get_settings().referee.web_search)

    def llm(self, agent: str, role: str) -> Any:
        """The chat model of ``agent`` with this run's temperature and token budget."""
        return self.chat_model(
            agent, role=role, temperature=self.temperature, max_tokens=self.max_tokens
        )
