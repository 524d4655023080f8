"""One lock for the threads of a process that build syntax trees.

Python 3.11 keeps the recursion depth of `ast`'s tree building in state that all threads
share (CPython gh-106905): two threads parsing at once (`ast.parse`, `ast.literal_eval` of
a text) can fail with `SystemError: AST constructor recursion depth mismatch`. A page's
rules parse the site's code, and pages are built in threads (the web's pool, the model
enrichment's workers), so each page is built holding this lock: the work is CPU-bound under
the GIL, little is lost. A lookup reads a paste's quoted values under it too (the web runs
lookups in threads). Extraction runs in processes of its own and needs none."""

from __future__ import annotations

import threading

__all__ = ["SYNTAX_TREES"]

# Re-entrant: a page built while another is being built (a related error) takes it again.
SYNTAX_TREES = threading.RLock()
