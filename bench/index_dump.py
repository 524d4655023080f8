"""Whether two index databases hold the same facts: a dump of each, compared line by line.

    python bench/index_dump.py A.db [B.db] [--out DUMP.txt]

With one database, prints (or writes to `--out`) its dump; with two, compares them and
prints the first lines that differ, and exits 1 when they do. A dump has one line per
row of every table that indexing writes, in a fixed order: versions (without the time of
indexing and the seconds it took), errors, every site in insertion order (its id, its
columns and its whole stored record decoded, so conditions, links, variants and shown
texts are all compared), the search texts, the stored files and blobs. What a run cannot
repeat (the time it ran, its duration, the catalog's instance) is left out, so two
indexings of the same source by code that extracts and links alike give equal dumps:
the check that a change to indexing's speed lost no fact.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

_UNREPEATABLE_STATS = ("seconds",)


def _plain(value: Any) -> Any:
    """A decoded value as JSON can print it (bytes as hex)."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _line(table: str, row: Any) -> str:
    return f"{table}\t{json.dumps(_plain(row), ensure_ascii=False, sort_keys=False)}"


def _site_data(data: bytes, parts: bytes | None) -> Any:
    """A site's record with its function's part put back (`store.function_parts`): the
    same whether an errdex stored it apart or inside the site."""
    site = msgspec.msgpack.decode(data)
    if parts is not None:
        site.update(msgspec.msgpack.decode(parts))
    return site


def _parts_column(conn: sqlite3.Connection) -> str:
    """The column of a site's part, NULL in a database written before there were parts."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'function_parts'").fetchone():
        return (
            "(SELECT f.data FROM function_parts f"
            " WHERE f.version_id = s.version_id AND f.id = s.parts)"
        )
    return "NULL"


def dump(path: Path) -> Iterator[str]:
    """The database's facts, one line a row, in a fixed order."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        for row in conn.execute(
            "SELECT p.name, v.label, v.revision, v.date, v.source_kind, v.source,"
            " v.link_template, v.stats, v.console_scripts, v.defined_names"
            " FROM versions v JOIN projects p ON p.id = v.project_id ORDER BY p.name, v.label"
        ):
            stats = json.loads(row[7])
            for key in _UNREPEATABLE_STATS:
                stats.pop(key, None)
            names = hashlib.sha256(row[9] or b"").hexdigest()
            yield _line("version", [*row[:7], stats, row[8], names])
        for row in conn.execute("SELECT * FROM errors ORDER BY id"):
            yield _line("error", row)
        for row in conn.execute(
            "SELECT s.id, s.version_id, s.error_id, d.key, s.file, s.line, s.end_line,"
            f" s.function, s.kind, s.exception, s.message, s.data, {_parts_column(conn)}"
            " FROM sites s JOIN search_docs d ON d.id = s.search_id ORDER BY s.id"
        ):
            yield _line("site", [*row[:11], _site_data(row[11], row[12])])
        for row in conn.execute(
            "SELECT d.key, t.message, t.reasons, t.exception"
            " FROM search_docs d JOIN search_text t ON t.rowid = d.id ORDER BY d.key"
        ):
            yield _line("search", row)
        for row in conn.execute(
            "SELECT version_id, path, hash FROM files ORDER BY version_id, path"
        ):
            yield _line("file", row)
        for row in conn.execute("SELECT hash, size, text FROM blobs ORDER BY hash"):
            yield _line("blob", [row[0], row[1], hashlib.sha256(row[2]).hexdigest()])
    finally:
        conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path, nargs="?")
    parser.add_argument("--out", type=Path, help="write the (first) dump here")
    parser.add_argument("--show", type=int, default=5, help="differing lines to print")
    args = parser.parse_args()
    for path in (args.first, args.second):
        if path is not None and not path.is_file():
            raise SystemExit(f"{path}: no such database")
    first = list(dump(args.first))
    if args.out is not None:
        args.out.write_text("\n".join(first) + "\n", encoding="utf-8")
    if args.second is None:
        if args.out is None:
            sys.stdout.write("\n".join(first) + "\n")
        return
    second = list(dump(args.second))
    if not any(line.startswith("site\t") for line in (*first, *second)):
        raise SystemExit("neither database holds a site: nothing to compare (did indexing fail?)")
    counts = {
        name: (sum(1 for line in lines if line.startswith("site\t")), len(lines))
        for name, lines in (("first", first), ("second", second))
    }
    digest = [
        hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16] for lines in (first, second)
    ]
    print(f"{args.first.name}: {counts['first'][0]} sites, {counts['first'][1]} lines, {digest[0]}")
    print(
        f"{args.second.name}: {counts['second'][0]} sites, {counts['second'][1]} lines, {digest[1]}"
    )
    differing = [
        (number, a, b) for number, (a, b) in enumerate(zip(first, second, strict=False)) if a != b
    ]
    if not differing and len(first) == len(second):
        print("identical")
        return
    print(f"differ: {len(differing)} lines of the common length differ")
    for number, a, b in differing[: args.show]:
        print(f"line {number}:\n  - {a[:600]}\n  + {b[:600]}")
    sys.exit(1)


if __name__ == "__main__":
    main()
