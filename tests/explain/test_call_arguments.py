"""Ways out through the arguments of the user's own call: a value of the closed set the
check accepts before "leave it out"; no keyword named for an attribute it does not decide
alone (`is_flag and isinstance(self.type, ...)`, a test of the keyword such as
`inspect.isasyncgen(stream)`); no empty value for what the code then iterates or uses."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function, page_with_message

from errdex.store import Store

FILES = {
    "args/__init__.py": """
        from args.layout import Align, Block, Budget, Limit, Option, Stream, Switch
        from args.layout import Body, Quiet, Toggle, render
        """,
    "args/layout.py": """
        import inspect


        class Align:
            def __init__(self, renderable, vertical=None):
                if vertical is not None and vertical not in ("top", "middle", "bottom"):
                    raise ValueError(f"invalid value for vertical: {vertical!r}")
                self.renderable = renderable
                self.vertical = vertical


        class Limit:
            def __init__(self, size=None):
                if size is not None and size > 10:
                    raise ValueError("size too large")
                self.size = size


        class Option:
            def __init__(self, decls, is_flag=False, type=None, prompt=None):
                self.secondary = [d for d in decls if "/" in d]
                self.type = type
                self.is_bool_flag = is_flag and isinstance(self.type, bool)
                self.prompt = prompt
                if not self.is_bool_flag and self.secondary:
                    raise TypeError("Secondary flag is not valid for non-boolean flag.")
                if self.is_bool_flag and self.prompt:
                    raise TypeError("A boolean flag takes no prompt.")


        class Switch:
            def __init__(self, is_flag=False, type=None, prompt=None):
                self.type = type
                self.is_bool_flag = is_flag and isinstance(self.type, bool)
                self.prompt = prompt
                if self.is_bool_flag and self.prompt:
                    raise TypeError("A boolean switch takes no prompt.")


        DEFAULT_SIZE = 16


        class Block:
            def __init__(self, size=None):
                self.size = size or DEFAULT_SIZE
                if self.size % 4 != 0:
                    raise ValueError("size must be a multiple of 4")


        class Budget:
            def __init__(self, limit=None):
                self.limit = limit or DEFAULT_SIZE

            def spend(self):
                if self.limit:
                    raise RuntimeError("a limit is set")


        class Toggle:
            def __init__(self, on=False):
                self.on = on

            def check(self):
                if self.on:
                    raise RuntimeError("turned on")


        class Stream:
            def __init__(self, stream):
                self._stream = stream
                self._consumed = False
                self._is_generator = inspect.isasyncgen(stream)

            async def __aiter__(self):
                if self._consumed and self._is_generator:
                    raise RuntimeError("The content has already been streamed.")
                self._consumed = True
                async for part in self._stream:
                    yield part


        class Source:
            def __init__(self, source):
                self._consumed = False
                self._is_generator = inspect.isasyncgen(source)

            async def __aiter__(self):
                if self._consumed and self._is_generator:
                    raise RuntimeError("The source has already been read.")
                self._consumed = True
                yield b""


        class Body:
            def __init__(self, parts, chunked=False):
                self._parts = parts
                self._used = False
                self._many = bool(parts)

            def __iter__(self):
                if self._used and self._many:
                    raise RuntimeError("The parts were read already.")
                self._used = True
                for part in self._parts:
                    yield part


        class Quiet:
            def __init__(self, parts):
                self._parts = parts
                self._used = False
                self._many = bool(parts)

            def __iter__(self):
                if self._used and self._many:
                    raise RuntimeError("Read once only.")
                self._used = True
                if not self._parts:
                    return
                for part in self._parts:
                    yield part


        def render(items, sep=None):
            if items:
                raise ValueError("Give the items to the renderer, not here.")
            return sep
        """,
}


@pytest.fixture(scope="module")
def args(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("args"), "args", FILES)


def test_a_value_of_the_closed_set_comes_before_leaving_it_out(args: Store) -> None:
    page = page_in_function(args, "args", "Align.__init__")
    first = page.solutions[0]
    assert first.text == (
        "Pass the argument `vertical` of `Align` as one of `'top'`, `'middle'`, `'bottom'`, "
        "or leave it out (it is None by default)."
    )
    assert first.fix is not None
    assert first.fix.after.endswith("Align(renderable=RENDERABLE, vertical='top')")


def test_no_closed_set_keeps_leaving_it_out(args: Store) -> None:
    page = page_in_function(args, "args", "Limit.__init__")
    assert not any(" as one of " in s.text for s in page.solutions)
    assert page.solutions[0].text.startswith("Leave the argument `size` of `Limit` out")


def test_a_keyword_that_decides_a_conjunction_only_one_way(args: Store) -> None:
    # `is_bool_flag = is_flag and isinstance(self.type, bool)`: a true `is_flag` does not
    # make it true, the type decides too
    page = page_with_message(args, "args", "Secondary flag is not valid")
    assert not any("`is_flag`" in s.text for s in page.solutions)
    # a false `is_flag` does make it false
    page = page_with_message(args, "args", "A boolean switch takes no prompt")
    assert any(
        "an empty (false) value for the argument `is_flag`" in s.text
        or "Pass `False` for the argument `is_flag`" in s.text
        for s in page.solutions
    )
    # ... but where the guard before reads it too (`not self.is_bool_flag and
    # self.secondary`, a `--x/--no-x` option), the prompt is the way out
    page = page_with_message(args, "args", "A boolean flag takes no prompt")
    assert not any("`is_flag`" in s.text for s in page.solutions)
    assert any("`prompt`" in s.text for s in page.solutions)


def test_a_keyword_with_a_fallback_decides_only_when_given(args: Store) -> None:
    # `size or DEFAULT_SIZE`: a given size is the attribute, so its form is the way out
    page = page_in_function(args, "args", "Block.__init__")
    assert any(
        "the argument `size` of `Block` as a multiple of `4`" in s.text for s in page.solutions
    )
    # an empty `limit` gives way to the fallback, which is set: no way out
    page = page_in_function(args, "args", "Budget.spend")
    assert not any("`limit`" in s.text for s in page.solutions)


def test_a_keyword_as_it_is_decides_both_ways(args: Store) -> None:
    page = page_in_function(args, "args", "Toggle.check")
    assert any("the argument `on` of `Toggle`" in s.text for s in page.solutions)


def test_a_test_of_the_keyword_is_not_the_keyword(args: Store) -> None:
    # `_is_generator = inspect.isasyncgen(stream)`: an empty `stream` is nonsense
    page = page_in_function(args, "args", "Stream.__aiter__")
    assert not any("empty (false) value" in s.text for s in page.solutions)
    # nor where the object keeps no other use of it
    page = page_in_function(args, "args", "Source.__aiter__")
    assert not any("empty (false) value" in s.text for s in page.solutions)


def test_no_empty_value_for_what_the_object_iterates(args: Store) -> None:
    # `_many = bool(parts)`: false for an empty `parts`, but `__iter__`
    # iterates `self._parts`, the content the object was made for
    page = page_in_function(args, "args", "Body.__iter__")
    assert not any("empty (false) value for the argument `parts`" in s.text for s in page.solutions)
    # a use after an exit on a test of it is guarded
    page = page_in_function(args, "args", "Quiet.__iter__")
    assert any("empty (false) value for the argument `parts`" in s.text for s in page.solutions)
    # a function's own argument tested as it is may be left empty
    page = page_in_function(args, "args", "render")
    assert any("empty (false) value for the argument `items`" in s.text for s in page.solutions)
