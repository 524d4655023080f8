"""The callers the sites of one function share are stored once per version
(`function_parts`) and come back in every site, in each backend, written here or aside; a
site stored with its callers inside (by an older errdex) reads as it did."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
from store_checks import assert_sound
from store_samples import FILES, PIECEWISE, PROJECT, TOO_LONG, UNSUPPORTED, as_indexed, version_info

from errdex.facts import Condition, ConditionKind
from errdex.linked_facts import CallerLink, IndexedSite
from errdex.store import Store, open_store
from errdex.store.function_parts import FunctionParts, PartsSplitter

# def __post_init__(self):
#     if not self.lazy:
#         self.validate()          # line 3: calls the site's function
VALIDATE_CALLERS = (
    CallerLink(
        function="Config.__post_init__",
        module="demo.config",
        file="demo/config.py",
        line=3,
        calls="Config.validate",
        guard=(Condition(test="self.lazy", kind=ConditionKind.IF, holds=False, line=2),),
    ),
)


def _with_callers(site: IndexedSite, links: tuple[CallerLink, ...]) -> IndexedSite:
    """The site as the linker gives it: its function's one tuple of callers."""
    callers = tuple(f"{c.module}.{c.function}" for c in links if c.depth == 1)
    return msgspec.structs.replace(site, caller_links=links, callers=callers)


# Two sites of Config.validate (one tuple of callers, as the linker memoizes it), one of
# another function with the same callers in a tuple of its own, one with none.
SECOND = msgspec.structs.replace(
    PIECEWISE,
    id="0123456789abcdef",
    site=msgspec.structs.replace(PIECEWISE.site, line=7, end_line=7),
)
SITES = (
    _with_callers(PIECEWISE, VALIDATE_CALLERS),
    _with_callers(SECOND, VALIDATE_CALLERS),
    _with_callers(UNSUPPORTED, (*VALIDATE_CALLERS,)),  # a tuple of its own
    TOO_LONG,
)


def _rows(store: Store, sql: str) -> list[Any]:
    with store._guard() as conn:  # type: ignore[attr-defined]
        return [tuple(row) for row in conn.execute(sql).fetchall()]


def test_a_function_s_callers_are_stored_once_and_read_back_in_each_site(store: Store) -> None:
    store.write_version(version_info("1.0"), SITES, FILES)

    stored = store.list_sites(PROJECT, "1.0")
    assert sorted((as_indexed(s) for s in stored), key=lambda s: s.site.line) == sorted(
        SITES, key=lambda s: s.site.line
    )
    assert [as_indexed(s) for s in store.get_error(SECOND.id)] == [SITES[1]]
    # one part for Config.validate's two sites (the equal tuple of another function's may
    # share it or have its own); none for a site without callers
    parts = _rows(store, "SELECT id, data FROM function_parts ORDER BY id")
    assert [number for number, _ in parts] in ([1], [1, 2])
    assert msgspec.msgpack.decode(bytes(parts[0][1]), type=FunctionParts) == FunctionParts(
        caller_links=VALIDATE_CALLERS, callers=("demo.config.Config.__post_init__",)
    )
    sites = _rows(store, "SELECT line, parts, data FROM sites ORDER BY line")
    numbers = [(line, number) for line, number, _ in sites]
    assert numbers[:3] == [(3, None), (6, 1), (7, 1)]
    assert numbers[3] in ((14, 1), (14, 2))
    for _, _, data in sites:
        kept = msgspec.msgpack.decode(bytes(data), type=IndexedSite)
        assert kept.caller_links == () and kept.callers == ()
    assert_sound(store)


def test_writing_the_version_again_replaces_its_parts(store: Store) -> None:
    store.write_version(version_info("1.0"), SITES, FILES)
    store.write_version(version_info("1.0"), SITES[:1], FILES)

    assert _rows(store, "SELECT id FROM function_parts") == [(1,)]
    assert [as_indexed(s) for s in store.list_sites(PROJECT, "1.0")] == [SITES[0]]
    store.delete_version(PROJECT, "1.0")
    assert _rows(store, "SELECT id FROM function_parts") == []


def test_a_site_stored_with_its_callers_inside_reads_as_it_did(store: Store) -> None:
    """A site an older errdex stored: its callers in `data`, no part."""
    store.write_version(version_info("1.0"), SITES[:1], FILES)
    with store._guard() as conn:  # type: ignore[attr-defined]
        conn.execute("UPDATE sites SET data = ?, parts = NULL", (msgspec.msgpack.encode(SITES[0]),))
        conn.execute("DELETE FROM function_parts")

    assert [as_indexed(s) for s in store.list_sites(PROJECT, "1.0")] == [SITES[0]]


def test_a_version_written_aside_has_the_parts_written_here(tmp_path: Path) -> None:
    many = [
        _with_callers(s, links)
        for n in range(1_200)  # more than a chunk: parts come in later chunks too
        for s, links in [(_numbered(n), VALIDATE_CALLERS if n % 3 else ())]
    ]
    found = {}
    for name, aside in [("here", False), ("aside", True)]:
        with open_store(str(tmp_path / f"{name}.db")) as store:
            write = store.write_version_aside if aside else store.write_version
            write(version_info("1.0"), many, FILES)
            found[name] = (
                [as_indexed(s) for s in store.list_sites(PROJECT, "1.0")],
                _rows(store, "SELECT line, parts, data FROM sites ORDER BY id"),
                _rows(store, "SELECT id, data FROM function_parts ORDER BY id"),
            )
    assert found["aside"] == found["here"]
    assert sorted(found["here"][0], key=lambda s: s.site.line) == many
    assert len(found["here"][2]) == 1


def _numbered(n: int) -> IndexedSite:
    return msgspec.structs.replace(
        PIECEWISE,
        id=f"{n:016x}",
        site=msgspec.structs.replace(PIECEWISE.site, line=10 + n, end_line=10 + n),
    )


def test_the_splitter_numbers_each_function_s_part_once() -> None:
    splitter = PartsSplitter()
    first = splitter.chunk(list(SITES[:2]))
    second = splitter.chunk(list(SITES[2:]))

    assert [number for number, _ in first.parts] == [1]
    assert first.numbers == [1, 1]
    # the same callers in another tuple (its part, or the equal one before), and a site
    # without any
    assert [number for number, _ in second.parts] in ([], [2])
    assert second.numbers in ([1, None], [2, None])
    assert all(site.caller_links == () == site.callers for site in first.sites)
    assert second.sites[1] is TOO_LONG  # nothing to take out: the site as it is


def test_a_site_whose_callers_differ_from_its_function_s_gets_a_part_of_its_own() -> None:
    splitter = PartsSplitter()
    odd = msgspec.structs.replace(SITES[1], callers=())  # the same links, other callers
    split = splitter.chunk([SITES[0], odd, SITES[1]])

    parts = {
        number: msgspec.msgpack.decode(data, type=FunctionParts).callers
        for number, data in split.parts
    }
    assert [parts[n] for n in split.numbers if n is not None] == [
        SITES[0].callers,
        (),
        SITES[1].callers,
    ]
