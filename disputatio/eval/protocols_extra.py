"""The protocols added to ``eval run`` beside the debates and their baselines.

* ``du_debate`` / ``sc_du``: GSM8K as Du et al. (2023) ran it, and self-consistency at its
  actual calls (:mod:`disputatio.eval.du_debate`; numeric questions only);
* ``rag_found`` / ``rag_read``: the single RAG agent with leak-free retrieved evidence, or with
  the question's own context (:mod:`disputatio.eval.evidence`; ``rag_read`` only on questions
  that ship a context: BioASQ, PubMedQA);
* ``<s>_logprob``, ``<s>_calibrated``, ``<s>_calibrated_fit`` for ``<s>`` in ``cot``, ``rag``,
  ``read``: log-probability verdicts, uncalibrated, contextually calibrated (content-free
  prior) and with biases fitted on the calibration split (:mod:`disputatio.eval.logprob`).

Order matters (the runner answers a question's protocols in registry order): a debate before
the self-consistency matching it, and ``<s>_calibrated`` before the two that read its scores.
"""

from __future__ import annotations

from disputatio.eval.du_debate import du_debate, sc_du
from disputatio.eval.evidence import evidence_protocol
from disputatio.eval.logprob import logprob_protocol, protocol_name
from disputatio.eval.protocols import ProtocolSpec

_SETTING_WORDS = {
    "cot": "no evidence",
    "rag": "leak-free retrieved evidence",
    "read": "the question's own context",
}
_METHOD_WORDS = {
    "calibrated": "contextual calibration (content-free prior)",
    "logprob": "uncalibrated",
    "calibrated_fit": "biases fitted on the calibration split",
}


def _logprob_specs() -> list[ProtocolSpec]:
    specs = []
    for setting, words in _SETTING_WORDS.items():
        siblings: list[str] = []
        for suffix, method in _METHOD_WORDS.items():
            specs.append(
                ProtocolSpec(
                    protocol_name(setting, suffix),
                    f"log-probability verdict, {words}, {method}",
                    logprob_protocol(setting, suffix),
                    retrieval=setting == "rag",
                    matched_to=tuple(siblings),
                    needs_context=setting == "read",
                )
            )
            siblings.append(protocol_name(setting, suffix))
    return specs


def extra_protocols() -> list[ProtocolSpec]:
    """The added protocols, in the order the runner must answer them."""
    return [
        ProtocolSpec(
            "du_debate",
            "Du et al.'s debate: 3 agents, 2 rounds, majority of the last round",
            du_debate,
            retrieval=False,
            numeric=True,
            numeric_only=True,
        ),
        ProtocolSpec(
            "sc_du",
            "self-consistency of Du's prompt at du_debate's actual calls",
            sc_du,
            retrieval=False,
            numeric=True,
            matched_to=("du_debate",),
            numeric_only=True,
        ),
        ProtocolSpec(
            "rag_found",
            "single agent, retrieved evidence without the question's own snippets",
            evidence_protocol("rag"),
            retrieval=True,
        ),
        ProtocolSpec(
            "rag_read",
            "single agent reading the question's own context",
            evidence_protocol("read"),
            retrieval=False,
            needs_context=True,
        ),
        *_logprob_specs(),
    ]
