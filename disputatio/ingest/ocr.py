"""Optical character recognition engines for scanned pages and images.

Two engines implement :class:`OcrEngine`:

* :class:`RapidOcrEngine` runs RapidOCR (PaddleOCR models on onnxruntime) locally; its models ship
  inside the ``rapidocr-onnxruntime`` wheel, so it works offline. It also scores its readings
  (:class:`ScoringOcrEngine`).
* :class:`RemoteVisionOcr` sends the image to an OpenAI-compatible ``/chat/completions`` endpoint
  serving a vision model (for example DeepSeek-OCR under vLLM).

Ingestion does not call an engine directly: it reads images through a LangChain blob parser,
:class:`~disputatio.ingest.ocr_parser.OcrBlobParser` wraps an engine into one.
"""

from __future__ import annotations

import base64
import io
import logging
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import httpx

from disputatio.errors import ModelError
from disputatio.ingest.util import one_line

if TYPE_CHECKING:
    from PIL import Image

logger = logging.getLogger(__name__)

DEFAULT_VISION_OCR_PROMPT = (
    "Convert the document in this image to markdown. Transcribe the text exactly, in reading "
    "order; keep headings and tables; do not add commentary."
)
"""Default instruction sent with the image to a remote vision model."""


@runtime_checkable
class OcrEngine(Protocol):
    """Anything that turns an image into text."""

    def ocr_image(self, image: Image.Image) -> str:
        """Recognise the text in ``image``.

        Args:
            image: A Pillow image (any mode).

        Returns:
            The recognised text, lines separated by newlines ("" when there is none).
        """
        ...


@dataclass(frozen=True)
class OcrReading:
    """What an engine read on one image.

    Attributes:
        text: The recognised text, lines separated by newlines ("" when there is none).
        confidence: Mean recognition score (0-1) of the text boxes kept, or None when the engine
            gives no scores or kept no box.
    """

    text: str
    confidence: float | None = None


@runtime_checkable
class ScoringOcrEngine(OcrEngine, Protocol):
    """An :class:`OcrEngine` that also says how sure it is of what it read."""

    def recognize(self, image: Image.Image) -> OcrReading:
        """Recognise the text in ``image`` with its mean confidence.

        Args:
            image: A Pillow image (any mode).

        Returns:
            The text (as :meth:`ocr_image` returns it) and its mean confidence.
        """
        ...


def _join_boxes(boxes: list[tuple[float, float, float, str]]) -> str:
    """Join recognised boxes in reading order: lines top-to-bottom, boxes left-to-right.

    Args:
        boxes: ``(top, bottom, left, text)`` per recognised box.

    Returns:
        One line per visual line; boxes on a line joined by a space.
    """
    lines: list[list[tuple[float, float, float, str]]] = []
    for box in sorted(boxes, key=lambda b: (b[0], b[2])):
        top, bottom = box[0], box[1]
        if lines:
            last = lines[-1]
            line_top = min(b[0] for b in last)
            line_bottom = max(b[1] for b in last)
            overlap = min(bottom, line_bottom) - max(top, line_top)
            if overlap > 0.5 * min(bottom - top, line_bottom - line_top):
                last.append(box)
                continue
        lines.append([box])
    return "\n".join(" ".join(b[3] for b in sorted(line, key=lambda b: b[2])) for line in lines)


class RapidOcrEngine:
    """Local OCR with RapidOCR; the model is loaded once, on first use, thread-safely.

    Args:
        min_score: Boxes recognised with a lower confidence are dropped.
        **options: Extra keyword arguments for ``RapidOCR()`` (e.g. ``intra_op_num_threads``).
    """

    name = "rapidocr"
    """The engine's name in the metadata of parsed documents."""

    def __init__(self, min_score: float = 0.5, **options: Any) -> None:
        self.min_score = min_score
        self.options = options
        self._engine: Any = None
        self._lock = threading.Lock()

    def _get_engine(self) -> Any:
        with self._lock:
            if self._engine is None:
                try:
                    from rapidocr_onnxruntime import RapidOCR
                except ImportError as exc:
                    raise ModelError(f"RapidOCR is not installed: {one_line(exc)}") from exc
                logger.info("loading RapidOCR models")
                self._engine = RapidOCR(**self.options)
            return self._engine

    def recognize(self, image: Image.Image) -> OcrReading:
        """Recognise the text in ``image`` with RapidOCR.

        Args:
            image: A Pillow image (converted to RGB).

        Returns:
            Recognised lines in reading order ("" when nothing was found) and the mean score of
            the boxes kept (None when none was).
        """
        import numpy as np

        engine = self._get_engine()
        result, _elapsed = engine(np.asarray(image.convert("RGB")))
        boxes: list[tuple[float, float, float, str]] = []
        scores: list[float] = []
        for points, text, score in result or []:
            if float(score) < self.min_score or not str(text).strip():
                continue
            ys = [float(p[1]) for p in points]
            xs = [float(p[0]) for p in points]
            boxes.append((min(ys), max(ys), min(xs), str(text).strip()))
            scores.append(float(score))
        confidence = sum(scores) / len(scores) if scores else None
        return OcrReading(_join_boxes(boxes), confidence)

    def ocr_image(self, image: Image.Image) -> str:
        """Recognise the text in ``image`` with RapidOCR.

        Args:
            image: A Pillow image (converted to RGB).

        Returns:
            Recognised lines in reading order, or "" when nothing was found.
        """
        return self.recognize(image).text


class RemoteVisionOcr:
    """OCR through a vision model behind an OpenAI-compatible ``/chat/completions`` endpoint.

    Args:
        base_url: API root, e.g. ``http://localhost:8000/v1``.
        model: Model name to request, e.g. ``deepseek-ai/DeepSeek-OCR``.
        api_key: Optional bearer token.
        prompt: The instruction sent with the image.
        timeout: Request timeout in seconds.
        max_tokens: Optional cap on the generated tokens.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        prompt: str = DEFAULT_VISION_OCR_PROMPT,
        *,
        timeout: float = 120.0,
        max_tokens: int | None = None,
    ) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.api_key = api_key
        self.prompt = prompt
        self.timeout = timeout
        self.max_tokens = max_tokens
        self.name = f"remote:{model}"

    def _payload(self, image: Image.Image) -> dict[str, Any]:
        buffer = io.BytesIO()
        image.convert("RGB").save(buffer, format="PNG")
        data_url = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
        payload: dict[str, Any] = {
            "model": self.model,
            "temperature": 0,
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "image_url", "image_url": {"url": data_url}},
                        {"type": "text", "text": self.prompt},
                    ],
                }
            ],
        }
        if self.max_tokens is not None:
            payload["max_tokens"] = self.max_tokens
        return payload

    def ocr_image(self, image: Image.Image) -> str:
        """Send ``image`` to the vision model and return its transcription.

        Args:
            image: A Pillow image (sent as a PNG data URL).

        Returns:
            The model's answer text, stripped.

        Raises:
            ModelError: The endpoint is unreachable, answers an error, or answers nonsense.
        """
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        try:
            response = httpx.post(
                self.url, json=self._payload(image), headers=headers, timeout=self.timeout
            )
            response.raise_for_status()
            content = response.json()["choices"][0]["message"]["content"]
        except httpx.HTTPStatusError as exc:
            code = exc.response.status_code
            raise ModelError(f"vision OCR at {self.url} answered HTTP {code}") from exc
        except httpx.HTTPError as exc:
            raise ModelError(f"vision OCR at {self.url} unreachable: {one_line(exc)}") from exc
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise ModelError(f"vision OCR at {self.url} gave an unexpected answer") from exc
        if isinstance(content, list):
            content = "".join(
                str(part.get("text", "")) for part in content if isinstance(part, dict)
            )
        return str(content or "").strip()
