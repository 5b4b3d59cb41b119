"""The sub-question tree: built from the orchestrator's plan within the depth/breadth limits.

Nodes are plain dicts ``{id, question, parent, depth, children}`` keyed by id (``root``, ``1``,
``1.2``...). The limits are enforced here, whatever the model proposed: nodes deeper than
``max_depth`` and children beyond ``max_breadth`` are dropped; so are sub-questions that restate
their parent (compared as lower-case words, the root without its options) or ask nothing ("Yes",
"Yes or no?": no word but yes/no/or/maybe/true/false); and a node with a single usable child is
not decomposed (its one sub-question would only restate it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from disputatio.state.debate import ROOT, SubQuestionPlan

_WORD_RE = re.compile(r"\w+")
#: Words that make no question on their own ("Yes", "Yes or no?").
_NO_QUESTION = frozenset({"yes", "no", "or", "and", "maybe", "true", "false"})


def _key(text: str) -> tuple[str, ...]:
    """The lower-case words of ``text`` (punctuation and spacing do not tell questions apart)."""
    return tuple(_WORD_RE.findall(text.lower()))


def _node(node_id: str, question: str, parent: str | None, depth: int) -> dict[str, Any]:
    return {"id": node_id, "question": question, "parent": parent, "depth": depth, "children": []}


def build_tree(
    question: str,
    plan: Sequence[SubQuestionPlan],
    *,
    max_depth: int,
    max_breadth: int,
    bare_question: str | None = None,
) -> dict[str, dict[str, Any]]:
    """Build the tree rooted at ``question`` from the proposed sub-questions.

    Args:
        question: The user's question (node ``root``).
        plan: The proposed sub-questions of the root, possibly nested.
        max_depth: Deepest level kept (0 = the root only).
        max_breadth: Children kept per node.
        bare_question: The root's question without what was appended to it (its options): a
            sub-question restating either form is dropped.

    Returns:
        Node id → node dict, in breadth-first-compatible insertion order.
    """
    nodes = {ROOT: _node(ROOT, question, None, 0)}

    def add(parent: str, subs: Sequence[SubQuestionPlan], depth: int) -> None:
        if depth > max_depth:
            return
        seen = {_key(nodes[parent]["question"])}
        if parent == ROOT and bare_question is not None:
            seen.add(_key(bare_question))
        kept: list[SubQuestionPlan] = []
        for sub in subs:
            key = _key(sub.question)
            asks = any(word not in _NO_QUESTION for word in key)
            if asks and key not in seen and len(kept) < max_breadth:
                seen.add(key)
                kept.append(sub)
        if len(kept) < 2:
            return
        for i, sub in enumerate(kept, 1):
            node_id = str(i) if parent == ROOT else f"{parent}.{i}"
            nodes[node_id] = _node(node_id, sub.question.strip(), parent, depth)
            nodes[parent]["children"].append(node_id)
            add(node_id, sub.subquestions, depth + 1)

    add(ROOT, plan, 1)
    return nodes


def leaves(nodes: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Ids of the nodes without children."""
    return [nid for nid, node in nodes.items() if not node["children"]]


def ready_internal(nodes: Mapping[str, Mapping[str, Any]], results: Mapping[str, Any]) -> list[str]:
    """Unanswered internal nodes whose children are all answered."""
    return [
        nid
        for nid, node in nodes.items()
        if node["children"]
        and nid not in results
        and all(child in results for child in node["children"])
    ]


def tree_output(
    nodes: Mapping[str, Mapping[str, Any]], results: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The tree as a list of node dicts with their answers (for the graph's output)."""
    out = []
    for nid, node in nodes.items():
        res = results.get(nid, {})
        out.append(
            {
                **{k: node[k] for k in ("id", "parent", "depth", "question", "children")},
                **{
                    k: res.get(k)
                    for k in (
                        "answer",
                        "citations",
                        "unverified",
                        "confidence",
                        "agreement",
                        "status",
                        "debated",
                        "rounds",
                    )
                },
            }
        )
    return out
