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


class ReadingJudge(RecordingJudge):
    """A judge that, like the 1.5B, says yes only when the claim (or passage) holds ``needle``.

    The checker's restatements are tested with it: the asker's number put as the window's
    range, a month as its span of months, a clause read as its sentence.

    Args:
        needle: The words the judge needs to see.
        in_window: Look for them in the passage, not the claim.
    """

    def __init__(self, needle: str, in_window: bool = False) -> None:
        super().__init__(0.9)
        self.needle = needle
        self.in_window = in_window

    def __call__(self, claim: str, window: str, context: str) -> float:
        self.asked.append((claim, window, context))
        return 0.9 if self.needle in (window if self.in_window else claim) else 0.2
