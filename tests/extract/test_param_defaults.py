"""A parameter's default is what the input holds only while nothing rebinds it first."""

from __future__ import annotations

import ast
import textwrap

from errdex.extract import extract_file
from errdex.extract.param_defaults import parameter_defaults, rebound_names


def defaults(source: str) -> dict[str, str]:
    func = ast.parse(textwrap.dedent(source)).body[0]
    assert isinstance(func, ast.FunctionDef)
    return parameter_defaults(func)


def test_every_way_of_rebinding_a_parameter_drops_its_default() -> None:
    found = defaults(
        """
        def f(self, a=1, b=2, c=3, d=4, e=5, g=6, h=7, k=8, m=9, n=10, *, kept=None):
            a += 1
            for b, _ in pairs:
                pass
            with open(p) as c:
                pass
            try:
                pass
            except ValueError as d:
                pass
            if (e := compute()) is None:
                pass
            del g
            def h():
                pass
            match value:
                case [k, *rest]:
                    pass
            x, (m, y) = things
            import n
            return kept
        """
    )
    assert found == {"kept": "None"}


def test_a_name_only_read_keeps_its_default() -> None:
    assert defaults(
        """
        def f(url, proxy=None, retries=3):
            if proxy is not None and retries:
                call(proxy=proxy, retries=retries)
        """
    ) == {"proxy": "None", "retries": "3"}


def test_a_rebinding_deep_in_any_block_drops_its_default() -> None:
    # every list of statements is looked into: else and finally clauses, handlers, cases,
    # loops' else, nested functions and classes
    found = defaults(
        """
        def f(a=1, b=2, c=3, d=4, e=5, g=6, h=7, kept=None):
            for _ in items:
                pass
            else:
                a = 0
            try:
                pass
            except OSError:
                b = 0
            else:
                c = 0
            finally:
                d = 0
            while waiting():
                pass
            else:
                e = 0
            match value:
                case {"x": 1}:
                    g = 0
            def inner():
                nonlocal h
                if kept:
                    h = 0
            return kept
        """
    )
    assert found == {"kept": "None"}


def test_a_file_without_walrus_reads_the_same_names_without_walking_tests() -> None:
    # `walrus=False` is asked only for a text with no `:=`: no test there binds a name, and
    # the names bound are those the full walk finds
    source = textwrap.dedent(
        """
        def f(a=1, b=2, c=3):
            if a is None and compute(b):
                c = 4
            while b:
                for b in items:
                    pass
        """
    )
    func = ast.parse(source).body[0]
    assert isinstance(func, ast.FunctionDef)
    assert ":=" not in source
    assert rebound_names(func, walrus=False) == rebound_names(func) == {"b", "c"}


def test_a_walrus_in_a_test_rebinds_only_when_tests_are_walked() -> None:
    # the flag decides: with it off, a `:=` in an `if` test is not seen (so it must be on
    # for any text holding one)
    func = ast.parse("def f(timeout=5):\n    if (timeout := g()):\n        pass\n").body[0]
    assert isinstance(func, ast.FunctionDef)
    assert rebound_names(func) == {"timeout"}
    assert rebound_names(func, walrus=False) == set()


def test_a_walrus_in_a_files_test_drops_the_parameters_default() -> None:
    # the reader tells the file's `:=` itself: the default is no longer what the check reads
    text = textwrap.dedent(
        """
        def wait(timeout=5, limit=3):
            if (timeout := fetch()) > limit:
                raise ValueError("too long")
        """
    )
    read = extract_file("pkg/mod.py", text.encode()).readings[4]
    assert read.defaults == {"limit": "3"}
