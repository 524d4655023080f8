"""Ways out through the user's own objects: what sets `self.X` (the constructor keyword of
the class or of a base it passes it on to, a public method of the class that sets the
attribute), the keys of a mapping the user passes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

TERM = {
    "term/__init__.py": "",
    "term/console.py": """
        class NoAltScreen(Exception):
            pass


        class Console:
            def __init__(self, width=80, quiet=False):
                self.width = width
                self.quiet = quiet
                self._is_alt_screen = False
                self._title = None
                self._buffer_index = 0

            def _check_buffer(self):
                if self.quiet:
                    return
                if self._buffer_index == 0:
                    raise ValueError("the buffer is empty")
                if self.width < 10:
                    raise ValueError("the console is too narrow")

            def set_alt_screen(self, enable: bool = True) -> bool:
                changed = False
                if self.is_terminal and not self.legacy_windows:
                    self.write("\\x1b[?1049h")
                    changed = True
                    self._is_alt_screen = enable
                return changed

            def clear_title(self):
                self._title = None

            def shutdown(self):
                self._stream = None

            def close_stream(self):
                self._stream = None

            def open_stream(self, stream):
                if self._stream is not None:
                    raise ValueError("a stream is open already")
                self._stream = stream

            @property
            def is_alt_screen(self) -> bool:
                return self._is_alt_screen

            def update_screen(self, lines):
                if not self.is_alt_screen:
                    raise NoAltScreen("Alt screen must be enabled to call update_screen")
                self.write(lines)

            def title(self):
                if self._title is None:
                    raise ValueError("no title was set")
                return self._title
        """,
    "term/client.py": """
        class TooManyRedirects(Exception):
            pass


        class BaseClient:
            def __init__(self, *, timeout=5.0, max_redirects=20):
                self.timeout = timeout
                self.max_redirects = max_redirects


        class Client(BaseClient):
            def __init__(self, *, timeout=5.0, max_redirects=20, verify=True):
                super().__init__(timeout=timeout, max_redirects=max_redirects)
                self.verify = verify

            def send(self, request):
                return self._send_handling_redirects(request, [])

            def _send_handling_redirects(self, request, history):
                while True:
                    if len(history) > self.max_redirects:
                        raise TooManyRedirects("Exceeded maximum allowed redirects.")
                    history = history + [request]

            def _check(self, depth):
                if depth > 3:
                    raise ValueError("too deep")
        """,
    "term/prompts.py": """
        def parse_prompt(prompt):
            if isinstance(prompt, str):
                return prompt
            if "text" in prompt or "tokens" in prompt:
                return prompt
            raise TypeError("Prompt dictionary must contain text or tokens")


        def _parse_dec_prompt(prompt):
            if "prompt" in prompt or "prompt_token_ids" in prompt:
                return prompt
            raise TypeError("Decoder prompt must contain text or tokens")


        def _scaled(size, factor):
            if size > factor:
                raise ValueError("size above the factor")


        def connect(url, **kwargs):
            if "strategy" in kwargs:
                return "mock"
            if url.startswith("x"):
                raise ValueError("x urls are not supported")
            return url


        def render(options):
            if "color" not in options:
                raise KeyError("options need a color")
            if "blink" in options:
                raise ValueError("blinking is not supported")
        """,
}


@pytest.fixture(scope="module")
def term(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("term"), "term", TERM)


def solutions_of(store: Store, message: str) -> list[tuple[str | None, str]]:
    """(kind, text) of each solution on the page of the site whose message starts so."""
    return [(s.kind, s.text) for s in page_with_message(store, "term", message).solutions]


def test_a_public_method_that_sets_the_attribute_a_property_returns(term: Store) -> None:
    assert solutions_of(term, "Alt screen must be enabled") == [
        (
            "input",
            "Call `set_alt_screen()` on your `Console` first: it sets `self._is_alt_screen` "
            "from its argument `enable` (`True` by default), when `self.is_terminal and not "
            "self.legacy_windows`.",
        )
    ]


def test_a_method_that_sets_another_value_is_no_way_out(term: Store) -> None:
    # `clear_title` sets `_title` to None: the check fails all the same
    assert solutions_of(term, "no title was set") == []


def test_a_method_named_for_the_attribute_sets_it_for_itself(term: Store) -> None:
    # `shutdown` drops the stream on the way to something else: no fix
    assert solutions_of(term, "a stream is open already") == [
        (
            "input",
            "Call `close_stream()` on your `Console` first: it sets `self._stream` to `None`.",
        )
    ]


def test_a_constructor_keyword_passed_on_to_a_base_bounds_a_private_method(term: Store) -> None:
    assert solutions_of(term, "Exceeded maximum allowed redirects") == [
        ("input", "Pass the argument `max_redirects` of `Client` at least `len(history)`.")
    ]


def test_a_private_methods_own_argument_is_not_the_users(term: Store) -> None:
    assert solutions_of(term, "too deep") == []


def test_a_private_methods_own_bookkeeping_of_constructor_keywords(term: Store) -> None:
    # the width compared with a constant, in a method the user does not call: the class's
    # own consistency, not a limit on what the user made happen
    assert solutions_of(term, "the console is too narrow") == []
    # `quiet=True` skips the check, but a console that writes nothing is no fix for it
    assert solutions_of(term, "the buffer is empty") == []


def test_the_keys_a_mapping_the_user_passes_must_hold(term: Store) -> None:
    assert solutions_of(term, "Prompt dictionary must contain")[0] == (
        "input",
        "Make the argument `prompt` of `parse_prompt` contain one of `'text'`, `'tokens'`.",
    )
    # a private function's mapping: whatever passes it on, its keys are the data given
    assert solutions_of(term, "Decoder prompt must contain") == [
        (
            "input",
            "Make the value passed as `prompt` (it reaches `_parse_dec_prompt`) contain one of "
            "`'prompt'`, `'prompt_token_ids'`.",
        )
    ]
    assert solutions_of(term, "size above the factor") == []
    # an earlier exit for a key is another use of the function, no fix of this check
    assert all("strategy" not in t for _, t in solutions_of(term, "x urls are not supported"))
    assert solutions_of(term, "options need a color") == [
        ("input", "Make the argument `options` of `render` contain `'color'`.")
    ]
    assert solutions_of(term, "blinking is not supported") == [
        ("input", "Leave `'blink'` out of the argument `options` of `render`.")
    ]
