"""The HTTP API and the web page: one Starlette app, two ways to run it.

* ``disputatio serve`` runs :data:`disputatio.api.app.app` under uvicorn, with every debate
  checkpointed in Postgres (a killed server resumes its debates on restart).
* ``langgraph dev`` / LangGraph Platform mount the same app through ``langgraph.json``
  (``"http": {"app": ...}``) next to the graphs, with :data:`disputatio.api.auth.auth` as the
  platform's custom auth, so both expose the same routes behind the same API keys.

Modules: :mod:`~disputatio.api.app` (routes and wiring), :mod:`~disputatio.api.auth` (keys →
tenants), :mod:`~disputatio.api.errors` (the JSON error shape), :mod:`~disputatio.api.store`
(the API's tables), :mod:`~disputatio.api.runs` (debate runs, events, resume),
:mod:`~disputatio.api.rag` (ingest, query, health), :mod:`~disputatio.api.debates` (debate and
session routes).
"""
