"""Which files a few files of a package import, read from their import statements: followed
by name through `__init__` re-exports and through the attributes read off a module, one
level, then down the bases of the classes reached."""

from __future__ import annotations

import pytest

from errdex.match.import_graph import (
    definitions_at,
    imports_reached,
    module_files,
    outline,
    with_imports,
)

PACKAGE = {
    "orm/__init__.py": b"",
    "orm/relations.py": (
        b"from .. import util\n"
        b"from ..errors import ConfigError\n"
        b"def check(a, b):\n"
        b"    if a is b:\n"
        b"        util.warn('relationship %s will copy column %s' % (a, b))\n"
        b"        raise ConfigError('same table')\n"
    ),
    "util/__init__.py": (
        b"from .langhelpers import warn as warn\n"
        b"from .langhelpers import memoized\n"
        b"from .queues import Queue\n"
        b"from .compat import *\n"
    ),
    "util/langhelpers.py": (
        b"import warnings\nfrom .compat import py311\n"
        b"def warn(msg):\n    warnings.warn(msg)\n"
        b"def memoized(fn):\n    return fn\n"
    ),
    "util/queues.py": b"from .compat import py311\nclass Queue:\n    pass\n",
    "util/compat.py": b"py311 = True\n",
    "errors.py": b"from .base import BaseError\nclass ConfigError(BaseError):\n    pass\n",
    "base.py": b"from .root import RootError\nclass BaseError(RootError):\n    pass\n",
    "root.py": b"from .util import Queue\nclass RootError(Exception):\n    pass\n",
    "__init__.py": b"",
}


def test_a_module_imported_whole_is_followed_for_the_names_read_off_it() -> None:
    modules = module_files(PACKAGE)
    kept = with_imports(PACKAGE, ["orm/relations.py"], modules, levels=1)
    # `util.warn` leads through util's re-export to langhelpers, and nowhere else in util;
    # the star import of compat is followed only if compat's text holds a name wanted.
    assert kept == {"orm/relations.py", "util/__init__.py", "util/langhelpers.py", "errors.py"}


def test_past_the_levels_only_the_bases_of_the_classes_reached_are_followed() -> None:
    modules = module_files(PACKAGE)
    kept = with_imports(PACKAGE, ["orm/relations.py"], modules, levels=1, base_levels=3)
    assert {"base.py", "root.py"} <= kept  # ConfigError's base, and that one's
    assert "util/queues.py" not in kept  # root.py imports it, but not for a base


def test_a_submodule_an_init_binds_is_needed_for_what_the_importer_reads_off_it() -> None:
    package = {
        **PACKAGE,
        "util/__init__.py": PACKAGE["util/__init__.py"] + b"from . import queues\n",
        "orm/pool.py": b"from ..util import queues\ndef make():\n    return queues.Queue()\n",
    }
    reached = imports_reached(package, {"orm/pool.py": None}, module_files(package), levels=1)
    assert reached["util/queues.py"] == frozenset({"Queue"})  # not the whole module


def test_a_submodule_taken_under_another_name_is_needed_for_what_is_read_off_that_name() -> None:
    package = {
        **PACKAGE,
        "util/__init__.py": PACKAGE["util/__init__.py"] + b"from . import queues\n",
        "orm/pool.py": (
            b"from ..util import queues as util_queues\n"
            b"def make():\n    return util_queues.Queue()\n"
        ),
    }
    reached = imports_reached(package, {"orm/pool.py": None}, module_files(package), levels=1)
    assert reached["util/queues.py"] == frozenset({"Queue"})  # not the whole module


SESSION = (
    b"from .loading import load_on_ident\n"
    b"from .persistence import save_obj\n"
    b"class Session:\n"
    b"    def merge(\n"
    b"        self,\n"
    b"        instance,\n"
    b"    ) -> object:\n"
    b'        """Merge.\n'
    b"\n"
    b'Text at column 0 in a docstring."""\n'
    b"        if instance is None:\n"
    b"            raise ValueError('nothing to merge')\n"
    b"        return load_on_ident(instance)\n"
    b"    def flush(self):\n"
    b"        save_obj(self)\n"
)


def test_a_line_in_a_method_with_its_signature_over_several_lines_is_that_methods() -> None:
    # `) -> object:` and a docstring's line at column 0 end no method.
    names = definitions_at(SESSION, [12])
    assert names is not None and {"ValueError", "load_on_ident"} <= names
    assert "Session" not in names and "save_obj" not in names  # not the whole class


def test_a_class_that_is_no_exception_is_not_followed_for_all_its_body_uses() -> None:
    package = {
        **PACKAGE,
        "orm/session.py": SESSION.replace(b"\nText at column 0", b"        Text"),
        "orm/loading.py": b"def load_on_ident(x):\n    return x\n",
        "orm/persistence.py": b"def save_obj(x):\n    return x\n",
        "orm/scoping.py": b"from .session import Session\ndef make():\n    return Session()\n",
    }
    modules = module_files(package)
    reached = imports_reached(package, {"orm/scoping.py": frozenset({"make"})}, modules, levels=2)
    assert "orm/session.py" in reached  # what `make` uses
    # Session's methods are cut from the subset's text: what they import is not needed
    assert "orm/persistence.py" not in reached and "orm/loading.py" not in reached


def test_a_block_ends_at_a_code_line_no_deeper_than_its_indent() -> None:
    from errdex.match.import_graph import dedent_at

    text = (
        "class A:\n"
        "    def f(self,\n"
        "    ):\n"  # a closing bracket ends no block
        "        x = 1\n"
        "\n"
        "    # a comment ends none either\n"
        "        y = 2\n"
        "    def g(self): ...\n"
        "\tdef h(self): ...\n"  # a tab counts as one character, as the outline counts it
        "z = 3\n"
    )

    def ends(indent: int, strings: list[int], origin: int = 0) -> list[str]:
        found, at = [], 0
        while (at := dedent_at(text, at, len(text), indent, strings, origin)) < len(text):
            found.append(text[at : text.index("\n", at)])
        return found

    assert ends(4, []) == ["    def f(self,", "    def g(self): ...", "\tdef h(self): ...", "z = 3"]
    assert ends(0, []) == ["z = 3"]
    g = text.index("    def g")
    # a line inside a string spanning lines ends nothing; the bounds count from `origin`
    assert ends(4, [g - 10 - 1, g - 10 + 1], origin=10) == [
        "    def f(self,",
        "\tdef h(self): ...",
        "z = 3",
    ]


def test_a_page_break_is_a_blank_line_and_starts_the_indentation_again() -> None:
    """The rule the skeleton reads blocks by too (`textscan.shallow_line`)."""
    from errdex.match.import_graph import dedent_at

    text = "def f(x):\n    y = x\n\f\n  \f\n\f    return y\n\fdef g(x):\n    pass\n"
    first = dedent_at(text, 0, len(text), 0, [])
    assert text[first:].startswith("\fdef g(x):")


def test_what_a_file_reads_off_a_module_is_searched_only_for_the_statements_followed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An `__init__` re-exporting many modules is followed for a few names: the attributes
    # read off each module it binds whole are looked for only in the statements that bind
    # a name wanted (the others are never followed), not in all of them.
    import errdex.match.import_graph as graph

    package = {
        **PACKAGE,
        "util/__init__.py": PACKAGE["util/__init__.py"] + b"from . import queues, compat\n",
        "orm/pool.py": b"from ..util import queues\ndef make():\n    return queues.Queue()\n",
    }
    searched: list[str] = []
    read_off = graph._read_off

    def counted(text: str, alias: str) -> frozenset[str]:
        searched.append(alias)
        return read_off(text, alias)

    monkeypatch.setattr(graph, "_read_off", counted)
    reached = imports_reached(package, {"orm/pool.py": None}, module_files(package), levels=1)
    assert reached["util/queues.py"] == frozenset({"Queue"})
    assert "compat" not in searched


def test_the_outline_lists_each_top_level_def_and_class_to_the_next_statement() -> None:
    # The cutter of a module imported for a few names reads its definitions off the outline
    # (one scan of the module, not one more of its own): a docstring's line at column 0
    # ends none, an assignment is no definition, `async def` is a def.
    data = (
        b"import os\n"
        b"def first():\n"
        b'    """Text\n'
        b"class NotOne: at column 0 in a docstring\n"
        b'    """\n'
        b"LIMIT = 3\n"
        b"async def second():\n"
        b"    pass\n"
        b"class Third(Exception):\n"
        b"    pass\n"
    )
    text = data.decode()
    found = [(d.kind, d.name, text[d.start : d.end]) for d in outline(data).definitions]
    assert found == [
        ("def", "first", text[text.index("def first") : text.index("LIMIT")]),
        ("def", "second", text[text.index("async def") : text.index("class Third")]),
        ("class", "Third", text[text.index("class Third") :]),
    ]
