"""Ingestion graph: files and folders → documents, chunks, vectors and a knowledge graph."""

from disputatio.graphs.ingest.graph import build_graph, graph

__all__ = ["build_graph", "graph"]
