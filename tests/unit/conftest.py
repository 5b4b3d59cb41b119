"""Unit tests check logic and orchestration with fakes: the claim checker there is the lexical one.

The default ``hybrid`` checker embeds with the real embedding model; the integration tests use
it (``tests/integration``), the unit tests must not load a model for it.
"""

from __future__ import annotations

import os

os.environ.setdefault("DISPUTATIO_GROUNDING__CHECKER", "lexical")
