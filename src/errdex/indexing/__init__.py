"""Indexing: read a source, extract (cached, in parallel), link, and store one version.

Extraction takes two rounds: every file, then the files that call a raising helper of
another file, again with those calls kept (`helpercalls`). The pipeline itself
(`pipeline`) is imported when first used: what only reads a report need not load it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from errdex.indexing.report import PARTIAL_MARK, IndexReport, ProgressHook, is_partial
from errdex.lazy_names import lazy_names

if TYPE_CHECKING:
    from errdex.indexing.pipeline import PIPELINE_VERSION, index_source

__all__ = [
    "PARTIAL_MARK",
    "PIPELINE_VERSION",
    "IndexReport",
    "ProgressHook",
    "index_source",
    "is_partial",
]


__getattr__ = lazy_names(
    globals(),
    {"PIPELINE_VERSION": "errdex.indexing.pipeline", "index_source": "errdex.indexing.pipeline"},
)
