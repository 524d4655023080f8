"""A message that ends with the advice its callers hand the raising function: the sentences
they fill in, read as instructions, are its ways out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

ROLES = {
    "roles/__init__.py": "",
    "roles/_coerce.py": """
        class RoleImpl:
            name = "role"

            def _implicit_coercions(self, element, argname=None):
                self._raise_for_expected(element, argname)

            def _raise_for_expected(self, element, argname=None, advice=None, code=None):
                msg = "%s expected for argument %r; got %r." % (self.name, argname, element)
                if advice:
                    msg += " " + advice
                raise ValueError(msg)

            def _raise_plain(self, element, label=None):
                msg = "%s expected, got %r." % (self.name, element)
                if label:
                    msg += " " + label
                raise TypeError(msg)


        class FromImpl(RoleImpl):
            def _raise_for_expected(self, element, argname=None, advice=None, code=None):
                if not advice and isinstance(element, list):
                    advice = (
                        "To make a FROM clause from a %s object, use the .subquery() method."
                        % (type(element),)
                    )
                    code = "89ve"
                super()._raise_for_expected(element, argname, advice=advice, code=code)


        class ColumnImpl(RoleImpl):
            def _raise_for_expected(self, element, argname=None, **kw):
                if isinstance(element, dict):
                    advice = "Use the .scalar_values() method."
                else:
                    advice = None
                super()._raise_for_expected(element, argname, advice=advice, **kw)

            def check(self, element):
                self._raise_for_expected(element, advice=f"Did you mean to say select({element})?")

            def check_code(self, element):
                self._raise_for_expected(element, code="b8d9")

            def label(self, element):
                self._raise_plain(element, label="column label")
        """,
}


@pytest.fixture(scope="module")
def roles(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("roles"), "roles", ROLES)


def test_the_advice_callers_fill_in_is_offered_in_their_words(roles: Store) -> None:
    page = page_with_message(roles, "roles", "{self.name} expected for argument")
    assert page.solutions[0].text == (
        "Pass what the advice the message ends with names: `RoleImpl._raise_for_expected` "
        "adds `advice` to it, which its callers fill in for the kinds of object they "
        "recognise, each saying what to pass instead: “To make a FROM clause from a … object, "
        "use the .subquery() method.” (line 25); “Use the .scalar_values() method.” "
        "(line 35); “Did you mean to say select(…)?” (line 41)."
    )


def test_no_advice_where_the_callers_fill_in_none(roles: Store) -> None:
    # a label a caller hands it is no instruction
    page = page_with_message(roles, "roles", "{self.name} expected, got")
    assert not any(s.text.startswith("Pass what the advice") for s in page.solutions)
