"""Languages the lexical (BM25) channel can analyse text in, as Postgres text-search configurations.

:data:`TEXT_SEARCH_CONFIGS` mirrors ``bm25_regconfig()`` of migration 0003, the SQL function that
picks the configuration a document's chunks are indexed with (from ``metadata.language``): an
ISO 639-1 code, or the configuration's own name, with any region suffix ignored (``pt-BR`` is
``portuguese``). ``simple`` (no stemming, no stop words) is accepted by name.
"""

from __future__ import annotations

#: ISO 639-1 code → Postgres text-search configuration (as ``bm25_regconfig`` maps them).
TEXT_SEARCH_CONFIGS: dict[str, str] = {
    "en": "english",
    "es": "spanish",
    "de": "german",
    "fr": "french",
    "it": "italian",
    "pt": "portuguese",
    "nl": "dutch",
    "da": "danish",
    "sv": "swedish",
    "no": "norwegian",
    "nb": "norwegian",
    "fi": "finnish",
    "ru": "russian",
    "tr": "turkish",
    "hu": "hungarian",
    "ro": "romanian",
    "ca": "catalan",
    "el": "greek",
    "id": "indonesian",
    "ga": "irish",
    "lt": "lithuanian",
    "eu": "basque",
    "hy": "armenian",
    "ar": "arabic",
    "hi": "hindi",
    "ne": "nepali",
    "sr": "serbian",
    "ta": "tamil",
    "yi": "yiddish",
}


def text_search_config(language: str) -> str | None:
    """The text-search configuration of ``language`` (a code or a name), or None when unknown.

    Args:
        language: ``en``, ``en-GB``, ``pt_BR``, ``english``, ``simple``...
    """
    base = language.strip().replace("_", "-").split("-", 1)[0].lower()
    if base in TEXT_SEARCH_CONFIGS:
        return TEXT_SEARCH_CONFIGS[base]
    if base == "simple" or base in TEXT_SEARCH_CONFIGS.values():
        return base
    return None


def known_languages() -> list[str]:
    """Every accepted spelling's base: the codes, then the configuration names."""
    names = sorted({*TEXT_SEARCH_CONFIGS.values(), "simple"})
    return [*TEXT_SEARCH_CONFIGS, *names]
