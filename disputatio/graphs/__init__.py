"""StateGraph assembly only: one folder per graph; nodes live in :mod:`disputatio.nodes`.

:mod:`disputatio.graphs.registry` holds one entry per graph (what the API, the CLI and the eval
need to run it); :mod:`disputatio.graphs.inputs` the shipped protocols' request → input shapes.
"""
