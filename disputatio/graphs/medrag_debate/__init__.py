r"""The MedRAG-style two-agent debate graph.

::

    from disputatio.graphs.medrag_debate import graph, MedragContext
    out = graph.invoke(
        {"question": "...", "options": {"A": "...", "B": "..."}},
        context=MedragContext(rounds=2, k=8),
    )
    out["answer"], out["consensus_type"], out["log"]

    # a free numeric answer (GSM8K-style): agents end with \boxed{N}, equal numbers agree
    graph.invoke({"question": "...", "answer_mode": "numeric"}, context=MedragContext())

``resolve(context)`` gives the :class:`MedragConfig` a run uses (every default filled in).
"""

from disputatio.graphs.medrag_debate.graph import build_graph, graph
from disputatio.nodes.medrag.context import MedragConfig, MedragContext, resolve

__all__ = ["MedragConfig", "MedragContext", "build_graph", "graph", "resolve"]
