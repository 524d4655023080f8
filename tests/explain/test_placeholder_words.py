"""A message's placeholders in a solution: the value when the index knows it (a module
constant, a class's constant, a local assigned a literal once), else the user's value named
(`KEY`); never the code in braces. A lookup still puts the user's own value in."""

from __future__ import annotations

import ast
from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.advice import fill_values, message_advice
from errdex.explain.placeholder_words import assigned_once, placeholders, word_for
from errdex.store import Store

PKG = {
    "pkg/__init__.py": "",
    "pkg/tasks.py": """
        TASK_TOKENS = {"query": "<q>", "action": "<a>"}
        VALID_TASKS = set(TASK_TOKENS.keys())


        def render(task):
            if task not in VALID_TASKS:
                raise ValueError(f"Invalid task: '{task}'. Valid tasks are: {list(VALID_TASKS)}")
            return task
        """,
    "pkg/urls.py": """
        def make(**kwargs):
            allowed = {"scheme": str, "port": int}
            for key, value in kwargs.items():
                if not isinstance(value, allowed[key]):
                    expected = allowed[key].__name__
                    seen = type(value).__name__
                    raise TypeError(
                        f"Argument {key!r} must be {expected} but got {seen}. Use the right type."
                    )
        """,
    "pkg/resample.py": """
        class Resampler:
            _METHODS = ("scipy", "soxr")

            def __init__(self, method):
                if method not in self._METHODS:
                    raise ValueError(
                        f"Unknown method {method!r}. Use one of: {list(self._METHODS)}."
                    )
        """,
    "pkg/registry.py": """
        KINDS = ["plain", "fancy"]


        def register(name):
            KINDS.append(name)


        def pick(kind):
            if kind not in KINDS:
                raise ValueError(f"Unknown kind {kind!r}. Use one of the kinds: {KINDS}.")
        """,
    "pkg/template.py": """
        def check(text, wanted):
            if "{" not in text:
                raise ValueError(f"Bad template {text!r}. Use {{content}} in it, or {wanted}.")
        """,
    # a constant of a package's `__init__.py`, imported by the package's name
    "pkg/modes/__init__.py": """
        MODES = ("fast", "slow")


        def check(mode):
            if mode is None:
                raise ValueError("no mode")
        """,
    "pkg/runner.py": """
        from .modes import MODES


        def run(mode):
            if mode not in MODES:
                raise ValueError(f"Unknown mode {mode!r}. Use one of: {list(MODES)}.")
        """,
    # `self` of a nested class's method is not the outer class: its constant is not read
    "pkg/nested.py": """
        class Outer:
            _SHAPES = ("round", "flat")

            class Inner:
                def check(self, shape):
                    if shape not in self._SHAPES:
                        raise ValueError(f"Bad shape {shape!r}. Use one of: {list(self._SHAPES)}.")
        """,
    # a form feed splits a line as `str.splitlines` reads the file (old modules have them)
    "pkg/feeds.py": "\f\nFEEDS = ('rss', 'atom')\n\n\ndef pick(feed):\n"
    "    if feed not in FEEDS:\n"
    '        raise ValueError(f"Unknown feed {feed!r}. Use one of: {list(FEEDS)}.")\n',
    "pkg/names.py": """
        def parse(decls):
            name = None
            for decl in decls:
                name = decl
            raise TypeError(f"No option for {name}. Did you mean to pass '--{name}'?")
        """,
}


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("pkg"), "pkg", PKG)


def test_a_module_constant_is_shown_as_the_message_prints_it(pkg: Store) -> None:
    page = page_with_message(pkg, "pkg", "Invalid task")
    (said,) = [s.text for s in page.solutions if "Valid tasks" in s.text]
    # the set's members in a fixed order, no braces
    assert "“Valid tasks are: ['action', 'query']”" in said
    assert "{" not in said


def test_the_users_values_are_named_and_a_lookup_fills_them(pkg: Store) -> None:
    page = page_with_message(pkg, "pkg", "Argument ")
    (said,) = [s for s in page.solutions if "as the message says" in s.text]
    assert "{" not in said.text
    assert said.text.startswith("Give argument `KEY` a value that is `EXPECTED`, as the message")
    assert "“Argument KEY must be EXPECTED but got SEEN.”" in said.text
    assert said.fills == {"KEY": "{key!r}", "EXPECTED": "{expected}", "SEEN": "{seen}"}
    filled = fill_values(page, {"key!r": "'port'", "expected": "int", "seen": "str"})
    (text,) = [s.text for s in filled.solutions if "as the message says" in s.text]
    assert text.startswith("Give argument `'port'` a value that is `int`")
    assert "“Argument 'port' must be int but got str.”" in text


def test_a_class_constant_read_through_self(pkg: Store) -> None:
    page = page_with_message(pkg, "pkg", "Unknown method")
    texts = " ".join(s.text for s in page.solutions)
    assert "['scipy', 'soxr']" in texts
    assert "{" not in texts


def test_a_nested_classs_self_is_not_the_outer_class(pkg: Store) -> None:
    page = page_with_message(pkg, "pkg", "Bad shape")
    texts = " ".join(s.text for s in page.solutions)
    assert "round" not in texts


def test_a_constant_after_a_form_feed(pkg: Store) -> None:
    page = page_with_message(pkg, "pkg", "Unknown feed")
    texts = " ".join(s.text for s in page.solutions)
    assert "['rss', 'atom']" in texts


def test_a_constant_imported_from_a_package_init(pkg: Store) -> None:
    page = page_with_message(pkg, "pkg", "Unknown mode")
    texts = " ".join(s.text for s in page.solutions)
    assert "['fast', 'slow']" in texts
    assert "{" not in texts


def test_a_constant_the_module_appends_to_is_not_shown_as_its_literal(pkg: Store) -> None:
    # `register` adds kinds at run time: the literal is not all the message prints
    page = page_with_message(pkg, "pkg", "Unknown kind")
    (said,) = [
        s.text for s in page.solutions if "as the message says" in s.text or "Do what" in s.text
    ]
    assert said.endswith("“Use one of the kinds: KINDS.”")


def test_a_literal_brace_of_the_message_reads_as_it_prints(pkg: Store) -> None:
    page = page_with_message(pkg, "pkg", "Bad template")
    texts = [s.text for s in page.solutions]
    assert "Do what the message says: “Use {content} in it, or WANTED.”" in texts


def test_code_in_braces_is_no_placeholder() -> None:
    text = "pattern `[0-9]{1,3}` {6} {{x}} '{\"mode\": 1}' {name!r} {len(xs):>4}"
    found = [text[p.start : p.end] for p in placeholders(text)]
    assert found == ["{name!r}", "{len(xs):>4}"]


@pytest.mark.parametrize(
    ("expr", "word"),
    [
        ("key", "KEY"),
        ("self.name.title()", "NAME"),
        ('", ".join(map(repr, self.choices))', "CHOICES"),
        ("type(self).__name__", "CLASS_NAME"),
        ("[m.name for m in KVCacheLayout]", "KV_CACHE_LAYOUT"),
        ("quant_config.get_min_capability()", "MIN_CAPABILITY"),
        ("self._describe_range()", "DESCRIBE_RANGE"),
        ("e", "ERROR"),
    ],
)
def test_the_word_for_a_users_value(expr: str, word: str) -> None:
    assert word_for(ast.parse(expr, mode="eval").body) == word


def test_a_local_changed_in_place_is_not_fixed() -> None:
    source = "def f(a):\n    xs = [1]\n    ys = [2]\n    ys.append(a)\n"
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    assert assigned_once(function, "xs")
    assert not assigned_once(function, "ys")  # appended to
    assert not assigned_once(function, "a")  # a parameter


@pytest.mark.parametrize(
    "message",
    [
        "Min num mm items is greater than max mm items: {a} > {b}",
        "Required response_template fields missing from parsed output: {missing}",
        "least distance fit failed",
        # what lacks or is wrong, named short enough to read as a requirement's name
        "Required fields missing: {missing}",
        "Least count invalid: {count}",
    ],
)
def test_a_comparison_is_no_stated_minimum(message: str) -> None:
    assert not any(a.requires for a in message_advice(message))


def test_a_stated_minimum_still_is() -> None:
    (advice,) = message_advice("Minimum capability: {cap}.")
    assert advice.requires == ("capability", "{cap}")
