"""Import spaCy without torch: its NER pipeline does not use torch, but thinc loads it.

``import spacy`` imports thinc, whose ``thinc.compat`` imports torch when it is installed (to
offer it as a backend), about 1.2 s of start-up alone and 2–3 s beside another busy process,
for pipelines that never call it: the small English one runs on thinc's NumPy ops. The
embedding model runs on ONNX Runtime by default, so nothing else in an ingestion process
needs torch.

:func:`import_spacy` refuses torch to ``thinc.compat`` alone (a finder that looks at who
imports), so thinc records ``has_torch = False``; any other module, in any thread, imports
torch as usual. Only for the shipped pipeline: a configured one may be a transformer pipeline
that needs torch.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import threading
from collections.abc import Sequence
from types import FrameType, ModuleType

_LOCK = threading.Lock()


class _NoTorchForThinc(importlib.abc.MetaPathFinder):
    """A finder that fails ``import torch`` when ``thinc.compat`` asks, and only then."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "torch" and not fullname.startswith("torch."):
            return None
        frame: FrameType | None = sys._getframe(1)
        while frame is not None and str(frame.f_globals.get("__name__", "")).startswith(
            ("importlib", "_frozen_importlib")
        ):
            frame = frame.f_back
        if frame is not None and frame.f_globals.get("__name__") == "thinc.compat":
            raise ModuleNotFoundError("torch is not loaded for spaCy", name=fullname)
        return None


def import_spacy(*, without_torch: bool) -> ModuleType:
    """``spacy``, imported without letting thinc load torch when ``without_torch``.

    Has no effect when spaCy (or thinc) is already imported, or torch is.

    Args:
        without_torch: Keep torch out of thinc (the shipped NER pipeline does not use it).
    """
    if not without_torch or "thinc.compat" in sys.modules or "torch" in sys.modules:
        import spacy

        return spacy
    finder = _NoTorchForThinc()
    with _LOCK:
        sys.meta_path.insert(0, finder)
        try:
            import spacy
        finally:
            sys.meta_path.remove(finder)
    return spacy
