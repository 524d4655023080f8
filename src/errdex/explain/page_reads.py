"""One page's reads of the catalog, each asked once.

A page's rules ask the store the same things again and again: the sites of the error's
file (its twins, its related errors, the paths of the same error), the rows of one error
id, a file's text, a project's versions. Each is a query and a decoding of every row it
returns; within one page the answers cannot change, so each is read once. The rows are
frozen structures, so handing the same list's items to every rule is safe.

The catalog's own lists (the projects, a project's versions) are the same for every page
until something is written: they are kept across pages under the store's generation, read
once per page (a write gives a new one, in every process), instead of read for each.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, cast

from errdex.explain.across_pages import AcrossPages
from errdex.store.base import Store

# the reads a page repeats; every other method goes to the store as it is
_KEPT = frozenset(
    {
        "neighbours",
        "get_error",
        "file_text",
        "versions",
        "projects",
        "public_path_of",
        "defined_names",
        "kept_paths",
        "version_paths",
    }
)


# the reads whose answers only a write changes: kept across pages
_CATALOG = frozenset({"versions", "projects", "defined_names", "kept_paths", "version_paths"})
_MOST_KEPT = 256


# under the one generation last seen (a write gives a new one, dropping the old answers)
_ACROSS_PAGES: AcrossPages[Any] = AcrossPages(_MOST_KEPT)


class _PageReads:
    def __init__(self, store: Store) -> None:
        self._store = store
        self._answers: dict[Hashable, Any] = {}
        self._generation: str | None = None

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._store, name)
        if name not in _KEPT:
            return method
        return self._kept(name, method)

    def _kept(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def read(*args: Hashable, **keywords: Hashable) -> Any:
            key = (name, args, tuple(sorted(keywords.items())))
            if key not in self._answers:
                self._answers[key] = self._read(key, method, args, keywords)
            answer = self._answers[key]
            # a fresh list each time: a rule may sort or extend what it was given
            return list(answer) if isinstance(answer, list) else answer

        return read

    def _read(
        self, key: Hashable, method: Callable[..., Any], args: tuple[Any, ...], keywords: Any
    ) -> Any:
        if key[0] not in _CATALOG:  # type: ignore[index]
            return method(*args, **keywords)
        if self._generation is None:  # (a copy of a database may share its tokens)
            self._generation = f"{self._store.location}\n{self._store.generation()}"
        answer = _ACROSS_PAGES.get(key, scope=self._generation)
        if answer is None:
            answer = method(*args, **keywords)
            _ACROSS_PAGES.put(key, answer, scope=self._generation)
        return answer


# A store by what it answers: `errdex.show(..., db=reads)` takes it as the open store it is.
Store.register(_PageReads)


def page_reads(store: Store) -> Store:
    """`store`, its repeated reads answered once for the page being built (a store that
    answers so already is given as it is: its caller reads what the page read)."""
    if isinstance(store, _PageReads):
        return cast(Store, store)
    return cast(Store, _PageReads(store))
