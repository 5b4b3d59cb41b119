"""The run context shared by the agent graphs, for callers above the graphs (CLI, API, eval).

:class:`AgentContext` holds what every agent graph's context has (models, retriever, settings,
tenant, collection); each graph's own context class extends it and is exported by the graph's
package (``disputatio.graphs.medrag_debate.MedragContext``,
``disputatio.graphs.ingest.IngestContext``, ...), so code above the graphs never imports
:mod:`disputatio.nodes`.
"""

from disputatio.nodes.context import AgentContext

__all__ = ["AgentContext"]
