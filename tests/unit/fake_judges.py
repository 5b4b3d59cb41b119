"""A scripted claim judge for the checker's tests: one answer, and what it was asked."""

from __future__ import annotations


class RecordingJudge:
    """A judge that gives every claim the same P(yes) and keeps what it was asked.

    Attributes:
        asked: ``(claim, window, context)`` of each call, in order.
    """

    def __init__(self, p_yes: float) -> None:
        self.p_yes = p_yes
        self.asked: list[tuple[str, str, str]] = []

    def __call__(self, claim: str, window: str, context: str) -> float:
        self.asked.append((claim, window, context))
        return self.p_yes
