"""Ingestion graph: files and folders → documents, chunks, vectors and a knowledge graph.

::

    from disputatio.graphs.ingest import IngestContext, graph
    out = graph.invoke({"paths": ["docs/"], "tenant": "acme"}, context=IngestContext())
    out["summary"]
"""

from disputatio.graphs.ingest.graph import build_graph, graph
from disputatio.nodes.ingest.context import IngestContext

__all__ = ["IngestContext", "build_graph", "graph"]
