"""A local sentence-transformers model run by ONNX Runtime, as exported or quantised to int8.

``onnx:all-MiniLM-L6-v2`` (the default embedding model; or ``onnx:<folder>``) names the same
model as ``local:…``; its transformer (eager attention) is exported once to ONNX
(``torch.onnx.export``, offline, ~6 s with torch's import) into the model cache
(``<model cache>/onnx/<folder name>-<key>/model.onnx``, the key from the weights' path, size and
time) and then run by ``onnxruntime``, with the folder's own ``tokenizer.json`` (the
``tokenizers`` library) and its pooling (mean or CLS) and L2 normalisation done in numpy. The
vectors equal the torch model's to ~1e-7 (``tests/integration/test_embeddings_onnx.py``), so a
database built with either is searched with the other unchanged. Beside spaCy in an ingestion
worker it encodes ~1.5x faster than torch (docs/scale_out.md, "ONNX Runtime and int8
embeddings"); alone, about as fast. ``onnx-int8:…`` runs a copy with its weights quantised to
int8 (ONNX Runtime's dynamic quantisation, made once from the export): ~1.8x faster passes on a
CPU with VNNI, and *other* vectors (slightly lower retrieval quality, measured there).

Exporting needs torch, transformers and the ``onnx`` package (all installed with disputatio);
running needs only ``onnxruntime`` and ``tokenizers``.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import logging
import os
import threading
import warnings
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from disputatio.errors import ModelError
from disputatio.models.embeddings import MAX_BATCH_TOKENS, encode_in_passes

logger = logging.getLogger(__name__)

_sessions: dict[str, OnnxEncoder] = {}
_lock = threading.Lock()


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _weights(folder: Path) -> Path:
    for name in ("model.safetensors", "pytorch_model.bin"):
        if (folder / name).is_file():
            return folder / name
    raise ModelError(f"no model weights (model.safetensors) in {folder}")


def onnx_file(folder: Path, cache_dir: Path, int8: bool = False) -> Path:
    """Where the ONNX export of the model in ``folder`` lives (exported once if missing).

    Args:
        folder: A sentence-transformers folder (its transformer, tokenizer and pooling).
        cache_dir: The model cache (``Settings.model_cache_dir``).
        int8: The export with its weights quantised to int8 (``onnx-int8:``), made once from
            the float one by ONNX Runtime's dynamic quantisation (other vectors: measure
            retrieval with them before use, docs/scale_out.md).

    Returns:
        The ``model.onnx`` (or ``model-int8.onnx``) path.

    Raises:
        ModelError: If the folder has no weights or the export fails.
    """
    weights = _weights(folder)
    stat = weights.stat()
    key = hashlib.sha256(
        f"{folder.resolve()}|{stat.st_size}|{stat.st_mtime_ns}".encode()
    ).hexdigest()[:12]
    target = cache_dir / "onnx" / f"{folder.name}-{key}" / "model.onnx"
    if not target.is_file():
        export_onnx(folder, target)
    if not int8:
        return target
    quantised = target.with_name("model-int8.onnx")
    if not quantised.is_file():
        quantise_int8(target, quantised)
    return quantised


def quantise_int8(source: Path, target: Path) -> None:
    """Quantise the weights of an ONNX export to int8 (ONNX Runtime's dynamic quantisation).

    Raises:
        ModelError: If the quantisation fails.
    """
    from onnxruntime.quantization import QuantType, quantize_dynamic

    tmp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    logger.info("quantising %s to int8 (once) at %s", source, target)
    try:
        quantize_dynamic(str(source), str(tmp), weight_type=QuantType.QInt8)
        os.replace(tmp, target)
    except Exception as exc:  # onnx and onnxruntime raise many kinds; say which model failed
        tmp.unlink(missing_ok=True)
        raise ModelError(f"cannot quantise {source} to int8: {exc}") from exc


def export_onnx(folder: Path, target: Path) -> None:
    """Export the transformer of the sentence-transformers model in ``folder`` to ``target``.

    The file is written beside ``target`` and renamed into place, so a process that reads it
    never sees half a file and two processes exporting at once both end with a whole one.

    Raises:
        ModelError: If torch, sentence-transformers or onnx is missing or the export fails.
    """
    try:
        import torch
        from transformers import AutoModel
    except ImportError as exc:
        raise ModelError(
            f"exporting {folder.name} to ONNX needs torch and transformers: {exc}"
        ) from exc
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    logger.info("exporting %s to ONNX (once) at %s", folder.name, target)
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    try:
        # eager attention: its graph runs ~17% faster on ONNX Runtime than the SDPA one
        model = AutoModel.from_pretrained(
            str(folder), local_files_only=True, attn_implementation="eager"
        ).eval()

        # BERT-like models take token types; MPNet and others do not
        names = ["input_ids", "attention_mask"]
        if "token_type_ids" in inspect.signature(model.forward).parameters:
            names.append("token_type_ids")

        class LastHidden(torch.nn.Module):
            """The transformer with positional inputs, returning its last hidden state."""

            def __init__(self) -> None:
                super().__init__()
                self.inner = model

            def forward(self, *inputs: Any) -> Any:
                return self.inner(**dict(zip(names, inputs, strict=True))).last_hidden_state

        ids = torch.ones((2, 8), dtype=torch.long)
        example = (ids, torch.ones_like(ids), torch.zeros_like(ids))[: len(names)]
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the tracer's notes on shapes it treats as fixed
            torch.onnx.export(
                LastHidden().eval(),
                example,
                str(tmp),
                input_names=names,
                output_names=["last_hidden_state"],
                dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*names, "last_hidden_state"]},
                opset_version=17,
                dynamo=False,
            )
        os.replace(tmp, target)
    except Exception as exc:  # torch's exporter raises many kinds; say which model failed
        tmp.unlink(missing_ok=True)
        raise ModelError(f"cannot export {folder.name} to ONNX: {exc}") from exc


class OnnxEncoder:
    """One ONNX Runtime session, tokenizer and pooling for a sentence-transformers folder.

    Args:
        folder: The sentence-transformers folder (tokenizer, pooling and length settings).
        model_file: Its ONNX export (:func:`onnx_file`).
        threads: ONNX Runtime intra-op threads (0: one per core).
    """

    def __init__(self, folder: Path, model_file: Path, threads: int = 0) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.max_seq_length = int(
            _read_json(folder / "sentence_bert_config.json").get("max_seq_length") or 512
        )
        pooling = _read_json(folder / "1_Pooling" / "config.json")
        self.cls_pooling = bool(pooling.get("pooling_mode_cls_token"))
        unsupported = ("pooling_mode_max_tokens", "pooling_mode_mean_sqrt_len_tokens")
        if any(pooling.get(k) for k in unsupported):
            raise ModelError(f"{folder.name}: only mean or CLS pooling runs on ONNX Runtime")
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(self.max_seq_length)
        self.tokenizer.no_padding()
        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        self.session = ort.InferenceSession(
            str(model_file), options, providers=["CPUExecutionProvider"]
        )
        self.inputs = {i.name for i in self.session.get_inputs()}
        self.dimension = int(self.session.get_outputs()[0].shape[-1])

    def token_ids(self, texts: list[str]) -> list[list[int]]:
        """Each text's token ids (special tokens in, truncated to the model's length)."""
        return [enc.ids for enc in self.tokenizer.encode_batch(texts)]

    def encode(self, ids: list[list[int]]) -> Any:
        """L2-normalised vectors of token id lists, in one forward pass (a float32 array)."""
        import numpy as np

        width = max(len(x) for x in ids)
        tokens = np.zeros((len(ids), width), dtype=np.int64)
        mask = np.zeros_like(tokens)
        for row, seq in enumerate(ids):
            tokens[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        feed = {"input_ids": tokens, "attention_mask": mask}
        if "token_type_ids" in self.inputs:
            feed["token_type_ids"] = np.zeros_like(tokens)
        last = self.session.run(None, feed)[0]
        if self.cls_pooling:
            vectors = last[:, 0]
        else:
            weights = mask[..., None].astype(last.dtype)
            vectors = (last * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-12)


class OnnxEmbeddings(Embeddings):
    """A sentence-transformers model run by ONNX Runtime (``onnx:<name>``), offline, on the CPU.

    Loaded once per process and shared by every instance with the same export; texts are
    encoded in passes of similar length within a padded-token budget, as
    :class:`~disputatio.models.embeddings.LocalEmbeddings` does.

    Args:
        folder: Folder of a sentence-transformers model.
        cache_dir: Where its ONNX export is kept (:func:`onnx_file`).
        batch_size: Most texts per forward pass.
        max_batch_tokens: Most padded tokens per forward pass.
        threads: ONNX Runtime intra-op threads (0: one per core; ``models.embedding_threads``).
        int8: Run the int8-quantised export (``onnx-int8:<name>``; other vectors).
    """

    def __init__(
        self,
        folder: Path,
        cache_dir: Path,
        batch_size: int = 64,
        max_batch_tokens: int = MAX_BATCH_TOKENS,
        threads: int = 0,
        int8: bool = False,
    ) -> None:
        self.path = Path(folder)
        self.cache_dir = Path(cache_dir)
        self.int8 = int8
        self.batch_size = batch_size
        self.max_batch_tokens = max_batch_tokens
        self.threads = threads
        self._encoder: OnnxEncoder | None = None

    @property
    def encoder(self) -> OnnxEncoder:
        """The loaded :class:`OnnxEncoder` (exported and loaded on first use)."""
        if self._encoder is not None:
            return self._encoder
        with _lock:
            # keyed by the export itself: another model cache has (and makes) its own
            model_file = onnx_file(self.path, self.cache_dir, int8=self.int8)
            key = f"{model_file}|{self.threads}"
            if key not in _sessions:
                _sessions[key] = OnnxEncoder(self.path, model_file, self.threads)
            self._encoder = _sessions[key]
            return self._encoder

    def warm(self) -> None:
        """Load the model and run one short forward pass (what a first call would pay for)."""
        self.embed_documents(["warm-up"])

    @property
    def dimension(self) -> int:
        """Output dimension of the model."""
        return self.encoder.dimension

    def token_lengths(self, texts: list[str]) -> list[int]:
        """Tokens of each text as the model sees it (special tokens in, truncated)."""
        return [len(ids) for ids in self.encoder.token_ids(texts)]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed ``texts`` (L2-normalised), in passes of similar length."""
        if not texts:
            return []
        encoder = self.encoder
        ids = encoder.token_ids(texts)
        return encode_in_passes(
            [len(x) for x in ids],
            self.batch_size,
            self.max_batch_tokens,
            lambda batch: encoder.encode([ids[i] for i in batch]),
        )

    def embed_query(self, text: str) -> list[float]:
        """Embed one query."""
        return self.embed_documents([text])[0]
