"""A way out through an argument of a base class's constructor: the page names the
subclasses a user makes instead of drawing a call of the base, which does not run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "params/__init__.py": "from params.core import Argument, Option, Parameter, Plain\n",
    "params/core.py": """
        class Parameter:
            def __init__(self, decls=None, nargs=1):
                if nargs < 0:
                    raise ValueError("nargs must not be negative here")
                self.decls = decls
                self.nargs = nargs

            def parse_decls(self, decls):
                \"\"\"Left to the subclasses.\"\"\"
                raise NotImplementedError()


        class Option(Parameter):
            def parse_decls(self, decls):
                return decls


        class Argument(Parameter):
            def parse_decls(self, decls):
                return decls[:1]


        class Plain:
            def __init__(self, nargs=1):
                if nargs < 0:
                    raise ValueError("plain nargs must not be negative here")
                self.nargs = nargs
        """,
}


@pytest.fixture(scope="module")
def params(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("params"), "params", FILES)


def test_a_base_class_names_its_subclasses_and_draws_no_call(params: Store) -> None:
    page = page_with_message(params, "params", "nargs must not be negative")
    assert page.solutions[0].text.endswith(
        " `Parameter` is a base class: you make one of its subclasses, `Option` or "
        "`Argument`, and give the argument to it."
    )
    assert page.example_fix is None


def test_a_class_a_user_constructs_keeps_its_call(params: Store) -> None:
    page = page_with_message(params, "params", "plain nargs must not be negative")
    assert "base class" not in page.solutions[0].text
    assert page.example_fix is not None and "Plain(nargs=" in page.example_fix.after
