"""A second extraction made from the first (`extract/again.py`): the facts a whole second
extraction makes, with only the top-level statements the kept calls change walked again."""

from __future__ import annotations

import textwrap

import msgspec
import pytest

import errdex.extract as extract
from errdex.extract import extract_again, extract_first_hidden
from errdex.extract.again import spliced
from errdex.extract.skeleton import MIN_SKELETON_BYTES
from errdex.facts import FileFacts
from samples import QUIET_FUNCTIONS

_encode = msgspec.msgpack.Encoder().encode

HEAD = """
import logging

from pkg.checks import require

LIMIT = 3
log = logging.getLogger(__name__)


class LimitError(ValueError):
    def __init__(self, limit):
        super().__init__(f"over the limit of {limit}")
        self.limit = limit


class Store:
    def __init__(self, path: str) -> None:
        self.path = path

    def get(self, key: str) -> str:
        if not key:
            raise KeyError("no key given")
        return self.path + key

    def put(self, key: str, value: str) -> None:
        require(key != value, "the key and the value must differ")
        self.items = [key, value]


def fetch(store: Store, key: str) -> str:
    if len(key) > LIMIT:
        raise LimitError(LIMIT)
    return store.get(key)


def connect(url: str) -> str:
    require(url.startswith("http"), "the url must start with http")
    return url
"""


def _both(source: str, names: tuple[str, ...] = ("require",)) -> tuple[FileFacts, FileFacts]:
    """The second extraction made from the first, and made whole; asserts the first may
    be started from."""
    data = textwrap.dedent(source).encode()
    assert len(data) > MIN_SKELETON_BYTES
    first, may_start, _ = extract_first_hidden("pkg/client.py", data)
    assert may_start
    whole = extract_again("pkg/client.py", data, names)
    made = extract_again("pkg/client.py", data, names, lambda: first)
    assert whole is not None and made is not None
    return made, whole


def _spliced(source: str) -> FileFacts | None:
    """`again.spliced` of the file keeping the calls of `require`."""
    data = textwrap.dedent(source).encode()
    first, _, _ = extract_first_hidden("pkg/client.py", data)
    text = extract.decode_source(data)
    skeleton = extract.build_skeleton(text)
    assert skeleton is not None
    return spliced(
        "pkg/client.py", text, skeleton, extract.build_skeleton(text, ("require",)), first
    )


def _not_walked_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make a whole second extraction fail the test."""

    def whole(*args: object, **kwargs: object) -> FileFacts:
        raise AssertionError("extracted whole")

    monkeypatch.setattr(extract, "_extract_text", whole)


def test_the_spliced_facts_are_those_of_the_whole_second_extraction() -> None:
    made, whole = _both(QUIET_FUNCTIONS + HEAD)
    assert _encode(made) == _encode(whole)
    assert [(c.callee, c.function) for c in made.calls] == [
        ("require", "Store.put"),
        ("require", "connect"),
    ]


def test_only_the_statements_that_change_are_parsed_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = textwrap.dedent(QUIET_FUNCTIONS + HEAD).encode()
    first, _, _ = extract_first_hidden("pkg/client.py", source)
    parsed: list[str] = []
    real = extract.again._parse

    def spy(text: str, path: str) -> object:
        parsed.append(text)
        return real(text, path)

    monkeypatch.setattr(extract.again, "_parse", spy)
    _not_walked_whole(monkeypatch)
    again = extract_again("pkg/client.py", source, ("require",), lambda: first)
    assert again is not None and len(parsed) == 1
    # the quiet functions are stubs, and the statements the call changes are whole
    assert "return x + 7" not in parsed[0] and "def quiet_7(): ..." in parsed[0]
    assert 'require(url.startswith("http")' in parsed[0]


def test_a_change_in_a_constructor_whose_class_texts_are_read_is_extracted_whole() -> None:
    """A raise reads a member of the class (`self.reason`): its texts read its constructor."""
    source = (
        QUIET_FUNCTIONS
        + HEAD
        + """
class Checker:
    def __init__(self, reason: str) -> None:
        require(reason, "a reason must be given")
        self.reason = reason

    def check(self, ok: bool) -> None:
        if not ok:
            raise ValueError(self.reason)
"""
    )
    assert _spliced(source) is None
    made, whole = _both(source)
    assert _encode(made) == _encode(whole)


def test_the_imports_of_a_body_walked_now_come_with_those_walked_before() -> None:
    """`local_imports`: a function's own imports walked, then those read from the text of
    the blanked bodies; one that moves from the second part to the first moves there."""
    source = (
        QUIET_FUNCTIONS.replace(
            "def quiet_3(x):\n", "def quiet_3(x):\n    from pkg.late import later\n"
        )
        + """
def ready(x):
    from pkg.early import sooner
    if not x:
        raise ValueError("not ready")
    return sooner(x)
"""
        + HEAD.replace(
            "def connect(url: str) -> str:\n",
            "def connect(url: str) -> str:\n    from pkg.net import opened\n",
        ).replace("    return url\n", "    return opened(url)\n")
    )
    assert _spliced(source) is not None
    made, whole = _both(source)
    assert _encode(made) == _encode(whole)
    first, _, _ = extract_first_hidden("pkg/client.py", textwrap.dedent(source).encode())
    assert list(first.local_imports) == ["sooner", "later", "opened"]
    assert list(made.local_imports) == ["sooner", "opened", "later"]


def test_a_class_whose_base_the_file_defines_apart_is_walked_with_it() -> None:
    """A reading follows a base the file defines: a class walked again has its bases
    walked too (their unchanged methods keep their facts)."""
    source = (
        QUIET_FUNCTIONS
        + HEAD.replace('require(key != value, "the key and the value must differ")', "...")
        + """
class Cached(Store):
    def keep(self, key: str) -> None:
        require(key, "a key must be given")
        self.kept = key
"""
    )
    assert _spliced(source) is not None
    made, whole = _both(source)
    assert _encode(made) == _encode(whole)


def test_a_first_extraction_whose_skeleton_did_not_parse_is_not_started_from() -> None:
    """A string line at column 0 ends the scan's function early: the skeleton fails to
    parse and the whole text is parsed; a second extraction cannot start from that."""
    broken = '''
def describe(x):
    text = """
an example at column 0
"""
    return text + x
'''
    data = (QUIET_FUNCTIONS + broken).encode()
    facts, may_start, _ = extract_first_hidden("pkg/client.py", data)
    assert facts.error is None and not may_start
    assert extract_first_hidden("pkg/client.py", QUIET_FUNCTIONS.encode())[1]


def test_a_method_not_walked_is_read_again_when_another_sets_what_it_tests() -> None:
    """A reading tells which methods set an attribute its line tests: the tail of `reset`,
    blanked at first, sets `path` once its call is kept, so `get`'s reading changes too."""
    source = QUIET_FUNCTIONS + HEAD.replace(
        "    def get(self, key: str) -> str:\n        if not key:\n",
        "    def get(self, key: str) -> str:\n        if self.path is None:\n"
        '            raise ValueError("the store is closed")\n        if not key:\n',
    ).replace(
        "    def put(self",
        "    def reset(self) -> None:\n"
        "        if self.path is None:\n"
        '            raise ValueError("the store is reset already")\n'
        "        self.path = None\n"
        '        require(self.path is None, "the store must be reset")\n\n'
        "    def put(self",
    )
    made, whole = _both(source)
    assert _encode(made) == _encode(whole)
    first, _, _ = extract_first_hidden("pkg/client.py", textwrap.dedent(source).encode())
    line = next(s.line for s in made.sites if s.message and "closed" in s.message.text)
    assert made.readings[line] != first.readings[line]  # `reset` now among the setters


def test_the_hidden_text_is_what_the_skeleton_blanked() -> None:
    """Only a helper called in the blanked bodies and tails can change a second extraction:
    the text a first extraction hands on for the second round to choose its files by."""
    source = textwrap.dedent(QUIET_FUNCTIONS + HEAD)
    facts, may_start, hidden = extract.extract_first_hidden("pkg/client.py", source.encode())
    assert may_start and facts.sites
    assert "return x + 599" in hidden  # a quiet body
    assert "return self.path + key" in hidden  # the tail after `Store.get`'s raise
    assert 'raise KeyError("no key given")' not in hidden  # parsed: its calls are walked
    assert 'require(key != value, "the key and the value must differ")' in hidden  # no site
    # a file parsed whole hides nothing
    assert extract.extract_first_hidden("pkg/small.py", HEAD.encode())[2] == ""
