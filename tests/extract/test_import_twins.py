"""Import twins: a module-level name two branches of one `if` or `try` bind by two imports
(a compiled module's and its Python twin's); the one the imports keep is the last."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file


def twins(source: str) -> tuple[dict[str, str], dict[str, str]]:
    facts = extract_file("pkg/util.py", textwrap.dedent(source).encode())
    return dict(facts.imports), dict(facts.import_twins)


def test_an_if_else_keeps_the_last_and_records_the_other() -> None:
    imports, found = twins(
        """
        import typing
        from ._has_c import HAS_C

        if typing.TYPE_CHECKING or not HAS_C:
            from ._py_util import distill as distill
        else:
            from pkg.cext.util import (
                distill as distill,
            )
        """
    )
    assert imports["distill"] == "pkg.cext.util.distill"
    assert found == {"distill": "pkg._py_util.distill"}


def test_a_try_s_fallback_has_the_tried_import_as_its_twin() -> None:
    imports, found = twins(
        """
        try:
            from ._speedups import escape
        except ImportError:
            from ._native import escape
        """
    )
    assert imports["escape"] == "pkg._native.escape"
    assert found == {"escape": "pkg._speedups.escape"}


def test_one_import_or_a_fallback_to_a_value_has_no_twin() -> None:
    _, found = twins(
        """
        from ._native import quote

        try:
            from ._speedups import escape
        except ImportError:
            escape = None

        def later():
            if True:
                from ._other import quote
        """
    )
    assert found == {}


def test_an_import_only_a_type_checker_runs_is_no_twin() -> None:
    # the `TYPE_CHECKING` body names stubs the program never imports: the name is bound by
    # the `else` alone, so the link must not take the stub module for the compiled one
    imports, found = twins(
        """
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from ._stubs import distill
        else:
            from ._c import distill
        """
    )
    assert imports["distill"] == "pkg._c.distill"
    assert found == {}
