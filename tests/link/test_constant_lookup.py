"""Namespace.resolve_constant: an attribute of a local or of an object of the module is no
constant, without a lookup; one of a module of the version still is, imported or not."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link.resolve import Namespace

FILES = {
    "pkg/__init__.py": """
        LIMIT = 3

        def check(x, shape):
            if x.shape != shape or sub.SIZE > LIMIT or errors.CODE:
                raise ValueError("bad")
        """,
    "pkg/sub.py": """
        SIZE = 4
        """,
    "pkg/errors.py": """
        CODE = 7
        """,
    "pkg/star.py": """
        from pkg.sub import *

        def f(x):
            return x.SIZE
        """,
}


def _names() -> Namespace:
    return Namespace([extract_file(p, textwrap.dedent(t).encode()) for p, t in FILES.items()])


def test_an_attribute_of_a_local_is_no_constant() -> None:
    names = _names()
    init = names.modules["pkg"]
    assert names.resolve_constant(init, "x.shape") is None
    assert names.resolve_constant(init, "LIMIT") == (3, init)


def test_a_submodule_named_without_an_import_is_still_read() -> None:
    names = _names()
    init = names.modules["pkg"]
    assert names.resolve_constant(init, "sub.SIZE") == (4, names.modules["pkg.sub"])
    assert names.resolve_constant(init, "errors.CODE") == (7, names.modules["pkg.errors"])
    # a name a star import may bind is looked up as before
    star = names.modules["pkg.star"]
    assert names.resolve_constant(star, "SIZE") == (4, names.modules["pkg.sub"])
