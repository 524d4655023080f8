"""A test of whether `**kwargs` (or `*args`) collected anything is one of the extra
arguments the call gives, not of a keyword of the parameter's name: `dumps_kwargs={}`
would put that very key in the mapping and fail the same way."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "models/__init__.py": "from models.main import Model\n",
    "models/main.py": """
        class Model:
            def json(self, *, include=None, **dumps_kwargs):
                if dumps_kwargs:
                    raise TypeError("`dumps_kwargs` keyword arguments are no longer supported.")
                return str(include)

            def pick(self, *names):
                if not names:
                    raise ValueError("give at least one name")
                return names

            def dump(self, *, indent=None):
                if indent:
                    raise TypeError("indent is no longer supported")
                return ""
        """,
}


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("models"), "models", FILES)


def test_a_kwargs_test_names_the_extra_keywords_not_a_keyword_of_its_name(
    models: Store,
) -> None:
    page = page_with_message(models, "models", "`dumps_kwargs` keyword")
    # not offered: "Pass an empty (false) value for the argument `dumps_kwargs` of `Model.json`."
    assert not any("argument `dumps_kwargs`" in s.text for s in page.solutions)
    assert page.solutions[0].text == (
        "Leave out the keyword arguments that `**dumps_kwargs` of `Model.json` collects "
        "(any keyword it does not name): the check refuses them."
    )


def test_an_args_test_asks_for_one_positional_argument(models: Store) -> None:
    page = page_with_message(models, "models", "give at least one name")
    assert page.solutions[0].text == (
        "Pass at least one of the positional arguments that `*names` of `Model.pick` "
        "collects (any beyond those it names)."
    )


def test_a_named_keyword_keeps_its_own_name(models: Store) -> None:
    page = page_with_message(models, "models", "indent is no longer supported")
    assert any("`indent`" in s.text and "`**" not in s.text for s in page.solutions)
