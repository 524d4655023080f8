"""Checks that a store's database is whole, whichever backend holds it."""

from __future__ import annotations

from errdex.store import SqliteStore, Store

# Each row: a site whose error or text is missing (no foreign key checks these), a text or
# content that nothing refers to, or a word whose count is off.
PG_LEFTOVERS = """
    SELECT 'site error', s.error_id FROM sites s
    WHERE NOT EXISTS (SELECT 1 FROM errors e WHERE e.id = s.error_id)
    UNION ALL
    SELECT 'site text', s.search_key FROM sites s
    WHERE NOT EXISTS (SELECT 1 FROM search_docs d WHERE d.key = s.search_key)
    UNION ALL
    SELECT 'doc', key FROM search_docs d
    WHERE NOT EXISTS (SELECT 1 FROM sites s WHERE s.search_key = d.key)
    UNION ALL
    SELECT 'blob', hash FROM blobs b
    WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.hash = b.hash)
    UNION ALL
    SELECT 'count', coalesce(v.term, w.term) FROM search_vocab v FULL JOIN (
        SELECT word AS term, count(*) AS docs
        FROM search_docs, unnest(tsvector_to_array(words)) AS word GROUP BY word
        UNION ALL SELECT '', count(*) FROM search_docs
    ) w ON w.term = v.term
    WHERE v.docs IS DISTINCT FROM w.docs
"""


def assert_sound(store: Store) -> None:
    """SQLite: integrity, foreign keys and the FTS5 index check out, and every text is in
    it. PostgreSQL: every site's error and text are there, no unused text or content is
    left, and each word's count is right."""
    conn = store._conn  # type: ignore[attr-defined]
    if isinstance(store, SqliteStore):
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        conn.execute("INSERT INTO search_text (search_text) VALUES ('integrity-check')")
        (texts,) = conn.execute("SELECT count(*) FROM search_text").fetchone()
        assert conn.execute("SELECT count(*) FROM search_docs").fetchone() == (texts,)
    else:
        leftovers = conn.execute(PG_LEFTOVERS).fetchall()
        assert leftovers == []
