"""Which files to extract a second time so that calls of other files' raising helpers count.

A call of a raising helper with a message (a literal, or a module constant's name) is a site
of its own once linked. The
skeleton blanks the bodies that hold no site word, and one file alone cannot know that a call
in such a body reaches a raising helper of another file. Once every file of a version is
extracted, its raising helpers are known: a file that calls one of them by name is extracted
again with those names kept (`extract_again`, in the worker pool). That extraction is cached
under a key made of the file's content key and the names, so it is reused across runs and
across versions whose helpers the file calls are the same.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from errdex.extract.shapes import NOT_HELPERS
from errdex.extract.skeleton import MIN_SKELETON_BYTES
from errdex.facts import FileFacts
from errdex.indexing.called_names import called_reversed, unpacked
from errdex.link import cross_file_helper_names


def names_to_keep(
    items: Sequence[tuple[str, bytes]],
    facts: Sequence[FileFacts],
    called: Mapping[str, bytes] | None = None,
) -> dict[str, tuple[str, ...]]:
    """For each file that calls a raising helper of another file, those helpers' names.

    `facts` are the files' first extractions, in the order of `items`. A file parsed whole
    (too small for a skeleton, see `MIN_SKELETON_BYTES`) has all its calls already; a name
    the linker cannot tie to one helper, or one whose calls are never recorded (`NOT_HELPERS`),
    is not worth a second extraction. `called` holds, by path, the names the extraction
    worker found in the text the file's skeleton blanked (`called_names.packed` of
    `skeleton.hidden_text`), where alone a call changes what a second extraction makes; for
    the others (facts from the cache) they are found here anywhere in the text, a superset.
    Either way the worker tells which files really change.
    """
    names = cross_file_helper_names(list(facts)) - NOT_HELPERS
    if not names:
        return {}
    reversed_names = {name.encode()[::-1] for name in names if name.isascii()}
    found: dict[str, tuple[str, ...]] = {}
    for (path, data), file_facts in zip(items, facts, strict=True):
        if file_facts.error is not None or len(data) < MIN_SKELETON_BYTES:
            continue
        found_before = called.get(path) if called is not None else None
        calls = called_reversed(data) if found_before is None else unpacked(found_before)
        hits = reversed_names.intersection(calls)
        if not hits:
            continue
        own = {helper.name for helper in file_facts.helpers}  # the skeleton keeps their calls
        wanted = {name[::-1].decode() for name in hits} - own
        if wanted:
            found[path] = tuple(sorted(wanted))
    return found


def again_key(content_key: str, names: Sequence[str]) -> str:
    """The cache key of a second extraction: the file's content key and the names kept."""
    digest = hashlib.blake2b(content_key.encode(), digest_size=16)
    for name in names:
        digest.update(b"\0" + name.encode())
    return "again-" + digest.hexdigest()
