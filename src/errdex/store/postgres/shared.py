"""The rows versions share in PostgreSQL — error identities, search texts, file contents and
word counts — written and dropped by writers that may run at the same time.

Each table is taken in key order, so writers wait for each other at most, never in a
circle. A writer keeps every search text and content its version uses locked (FOR KEY
SHARE) until it commits; dropping an unused one locks it first (FOR UPDATE, skipping
those locked) and only then looks for users, with a snapshot taken after the lock. So a
text is never dropped under a version that is about to use it, without a foreign key
checked for each of a version's sites.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

from errdex.store.contents import compress
from errdex.store.postgres.connect import RawConnection, text_array
from errdex.store.postgres.textsearch import document
from errdex.store.rows import error_columns
from errdex.store.written import SiteRow

TOTAL = ""  # the search_vocab row that counts every text

_INSERT_ERRORS = """
    INSERT INTO errors (id, project_id, kind, exception, template, module, function)
    SELECT id, %s, kind, exception, template, module, function
    FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[])
         AS e(id, kind, exception, template, module, function)
    ORDER BY id
    ON CONFLICT (id) DO NOTHING
"""
_INSERT_DOCS = """
    INSERT INTO search_docs (key, words)
    SELECT key, words::tsvector FROM unnest(%s::text[], %s::text[]) AS d(key, words)
    ORDER BY key
    ON CONFLICT (key) DO NOTHING RETURNING key
"""
_INSERT_BLOB = """
    INSERT INTO blobs (hash, size, text, outline) VALUES (%s, %s, %s, %s)
    ON CONFLICT (hash) DO NOTHING RETURNING hash
"""
_COUNT_WORDS = """
    INSERT INTO search_vocab (term, docs)
    SELECT * FROM unnest(%s::text[], %s::bigint[]) AS w ORDER BY 1
    ON CONFLICT (term) DO UPDATE SET docs = search_vocab.docs + excluded.docs
"""


def add_errors(conn: RawConnection, project_id: int, errors: Mapping[str, SiteRow]) -> None:
    """Record the identities not seen before (the first version holding them wins).

    Identities are never dropped, so none needs a lock.
    """
    present = present_keys(conn, "errors", "id", sorted(errors), lock=False)
    new = sorted((key, *error_columns(errors[key])) for key in errors.keys() - present)
    if new:
        conn.execute(_INSERT_ERRORS, [project_id, *map(text_array, zip(*new, strict=True))])


def add_docs(conn: RawConnection, texts: Mapping[str, tuple[str, str, str]]) -> Counter[str]:
    """Keep each search text (by key) stored until the commit; return the words of the
    texts this writer inserted, each counted once per text, with their number as `TOTAL`."""
    vectors: dict[str, tuple[str, frozenset[str]]] = {}

    def insert(keys: list[str]) -> set[str]:
        for key in keys:
            if key not in vectors:
                vectors[key] = document(texts[key])
        words = text_array(vectors[key][0] for key in keys)
        rows = conn.execute(_INSERT_DOCS, (text_array(keys), words)).fetchall()
        return {key for (key,) in rows}

    added: Counter[str] = Counter()
    for key in claim(conn, "search_docs", "key", list(texts), insert):
        added.update(vectors[key][1])
        added[TOTAL] += 1
    return added


def add_blobs(
    conn: RawConnection, contents: Mapping[str, bytes], outlines: Mapping[str, bytes]
) -> int:
    """Keep each content (by hash) stored until the commit, compressing only those not
    stored yet, with its outline when `outlines` has it; return how many this writer
    stored."""

    def insert(hashes: list[str]) -> set[str]:
        packed = compress([contents[h] for h in hashes])
        rows = [
            (h, len(contents[h]), blob, outlines.get(h))
            for h, blob in zip(hashes, packed, strict=True)
        ]
        inserted: set[str] = set()
        with conn.cursor() as cursor:
            cursor.executemany(_INSERT_BLOB, rows, returning=True)
            while True:  # a result set per row: the hash, or none when it was there
                if row := cursor.fetchone():
                    inserted.add(row[0])
                if not cursor.nextset():
                    return inserted

    return len(claim(conn, "blobs", "hash", list(contents), insert))


def claim(
    conn: RawConnection,
    table: str,
    column: str,
    keys: list[str],
    insert: Callable[[list[str]], set[str]],
) -> set[str]:
    """Make sure each of `keys` is in `table` and stays there until the commit: lock those
    stored, insert the others (`insert` returns those it inserted), and lock those another
    writer inserted in the meantime. Returns the keys this writer inserted."""
    inserted: set[str] = set()
    pending = sorted(set(keys))
    while pending:
        present = present_keys(conn, table, column, pending, lock=True)
        missing = [key for key in pending if key not in present]
        new = insert(missing) if missing else set()
        inserted |= new
        pending = [key for key in missing if key not in new]
    return inserted


def drop_unused(conn: RawConnection, docs: list[str], hashes: list[str]) -> Counter[str]:
    """Delete those search texts and contents that no site and no file refer to any more,
    leaving those another writer holds; return the words of the texts deleted."""
    dropped: Counter[str] = Counter()
    locked = _lock_unused(conn, "search_docs", "key", docs)
    rows = conn.execute(
        "DELETE FROM search_docs d WHERE d.key = ANY(%s::text[])"
        " AND NOT EXISTS (SELECT 1 FROM sites s WHERE s.search_key = d.key)"
        " RETURNING tsvector_to_array(d.words)",
        (text_array(locked),),
    ).fetchall()
    for (words,) in rows:
        dropped.update(words)
    dropped[TOTAL] += len(rows)
    conn.execute(
        "DELETE FROM blobs b WHERE b.hash = ANY(%s::text[])"
        " AND NOT EXISTS (SELECT 1 FROM files f WHERE f.hash = b.hash)",
        (text_array(_lock_unused(conn, "blobs", "hash", hashes)),),
    )
    return dropped


def count_words(conn: RawConnection, added: Counter[str], removed: Counter[str]) -> None:
    """Count the words of the texts `added` in and those `removed` out, word by word."""
    change = Counter(added)
    change.subtract(removed)
    changed = sorted((term, n) for term, n in change.items() if n)
    if not changed:
        return
    terms = text_array(term for term, _ in changed)
    conn.execute(_COUNT_WORDS, (terms, "{" + ",".join(str(n) for _, n in changed) + "}"))
    conn.execute(
        "DELETE FROM search_vocab WHERE term = ANY(%s::text[]) AND docs <= 0 AND term <> ''",
        (terms,),
    )


def present_keys(
    conn: RawConnection, table: str, column: str, keys: list[str], *, lock: bool
) -> set[str]:
    """Those of `keys` already in `table.column`; with `lock`, locked in key order until the
    commit, so that no other writer drops them meanwhile."""
    if not keys:
        return set()
    query = f"SELECT {column} FROM {table} WHERE {column} = ANY(%s::text[]) ORDER BY {column}"
    if lock:
        query += " FOR KEY SHARE"
    return {key for (key,) in conn.execute(query, (text_array(keys),))}


def _lock_unused(conn: RawConnection, table: str, column: str, keys: list[str]) -> list[str]:
    """Lock those of `keys` that no other transaction holds (it may be reusing them)."""
    if not keys:
        return []
    rows = conn.execute(
        f"SELECT {column} FROM {table} WHERE {column} = ANY(%s::text[])"
        f" ORDER BY {column} FOR UPDATE SKIP LOCKED",
        (text_array(sorted(keys)),),
    )
    return [key for (key,) in rows]
