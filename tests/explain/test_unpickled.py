"""A raise in a method of a stand-in the package makes only while unpickling an object says
what to fill before pickling (`explain/unpickled.py`)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain import parse_cache, unpickled
from errdex.store import Store

STREAMS = {
    "wire/__init__.py": "",
    "wire/streams.py": """
        class StreamGone(Exception):
            pass


        class DetachedStream:
            \"\"\"What a message holds once it has been loaded again.\"\"\"

            def __iter__(self):
                raise StreamGone("the stream is gone")


        class SpareStream:
            def __iter__(self):
                raise StreamGone("the spare stream is gone")


        class BusyStream:
            def __init__(self):
                self.opened = False

            def __iter__(self):
                raise StreamGone("the busy stream is gone")
        """,
    "wire/message.py": """
        from .streams import BusyStream, DetachedStream, SpareStream


        class Message:
            def __init__(self, stream, busy):
                self.stream = stream
                self.busy = busy
                self.spare = SpareStream()

            def load(self):
                self._body = b"".join(self._chunks())
                return self._body

            def _chunks(self):
                for chunk in self.stream:
                    yield chunk

            def load_busy(self):
                self._held = list(self.busy)
                return self._held

            @property
            def body(self):
                return self._body

            def reply(self):
                raise NotImplementedError("a message sends no reply")

            def __getstate__(self):
                dropped = ["stream", "busy", "spare"]
                return {k: v for k, v in self.__dict__.items() if k not in dropped}

            def __setstate__(self, state):
                self.__dict__.update(state)
                self.stream = DetachedStream()
                self.busy = BusyStream()
                self.spare = SpareStream()
        """,
}


@pytest.fixture(scope="module")
def wire(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("wire"), "wire", STREAMS)


def test_a_stand_in_made_only_while_unpickling_says_to_fill_the_object_first(
    wire: Store,
) -> None:
    page = page_with_message(wire, "wire", "the stream is gone")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith(
        "Call `load()` on the `Message` before you pickle it, then use its `body`"
    )
    assert "`Message.__setstate__` at wire/message.py:" in texts[0]


def test_a_class_the_package_also_makes_elsewhere_is_no_sign_of_pickling(wire: Store) -> None:
    page = page_with_message(wire, "wire", "the spare stream is gone")
    assert not any("pickle" in s.text for s in page.solutions)


def test_a_class_with_work_of_its_own_is_no_stand_in(wire: Store) -> None:
    # BusyStream is made only while unpickling too, but it has a constructor: not the shape
    # of a stand-in whose every method raises, so the version is not scanned for it.
    page = page_with_message(wire, "wire", "the busy stream is gone")
    assert not any("pickle" in s.text for s in page.solutions)


PICKLED = textwrap.dedent(
    """
    import io


    class Large:
        def first(self):
            return 1

        def second(self):
            return 2


    class Outer:
        class Inner:
            def __setstate__(self, state):
                self.stream = InnerStand()

        def __setstate__(self, state):
            self.stream = OuterStand()


    def helper():
        return io.BytesIO()


    class Later:
        def __setstate__(self, state):
            self.stream = LaterStand()
    """
)


def test_the_stand_in_scan_parses_only_the_blocks_holding_a_setstate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the whole file is parsed only when a block cannot be cut from its text (SQLAlchemy's
    # 5,000-line modules were parsed whole for a 10-line `__setstate__`); the classes come
    # in the order a walk of the whole file meets them (each depth in file order)
    parse_cache.clear()
    monkeypatch.setattr(unpickled, "parse_module", _no_whole_parse)
    found = unpickled._stand_ins(lambda path: PICKLED, ["pkg/io.py"])
    assert list(found) == ["OuterStand", "LaterStand", "InnerStand"]
    assert [m.owner for made in found.values() for m in made] == ["Outer", "Later", "Inner"]
    assert [m.line for made in found.values() for m in made] == [19, 28, 16]


def test_a_setstate_outside_a_top_level_block_reads_the_whole_file() -> None:
    text = PICKLED + textwrap.dedent(
        """
        if True:
            class Hidden:
                def __setstate__(self, state):
                    self.stream = HiddenStand()
        """
    )
    found = unpickled._stand_ins(lambda path: text, ["pkg/io.py"])
    assert list(found) == ["OuterStand", "LaterStand", "InnerStand", "HiddenStand"]


def _no_whole_parse(text: str | None) -> None:
    raise AssertionError("the whole file was parsed")
