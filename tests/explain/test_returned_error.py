"""An error a call on the user's argument returned, raised as it is: the page says to
correct that argument, whose faults the raised error's message lists."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.explain.page import Page
from errdex.store import Store

FILES = {
    "orm/__init__.py": "from orm.main import Model\n",
    "orm/main.py": """
        def validate(cls, data):
            errors = [k for k in data if k.startswith("_")]
            return dict(data), set(data), (ValueError(errors) if errors else None)


        class Model:
            def __init__(self, **data):
                values, fields, error = validate(self.__class__, data)
                if error:
                    raise error
                self.values = values

            @classmethod
            def from_obj(cls, obj):
                obj = dict(vars(obj))
                values, fields, error = validate(cls, obj)
                if error:
                    raise error
                return cls(**values)

            def _handle(self, error):
                if error:
                    raise error
        """,
}


@pytest.fixture(scope="module")
def orm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("orm"), "orm", FILES)


def page_of(store: Store, function: str) -> Page:
    return page_in_function(store, "orm", function)


def test_the_argument_the_returned_error_judged_is_to_correct(orm: Store) -> None:
    assert page_of(orm, "Model.from_obj").solutions[0].text == (
        "Correct the `obj` you pass to `Model.from_obj`: `validate(cls, obj)` (line 17) "
        "checks it and returns the error raised here, whose message lists the values it "
        "refused."
    )
    assert (
        page_of(orm, "Model.__init__")
        .solutions[0]
        .text.startswith(
            "Correct the keyword arguments (`**data`) you pass to `Model`: "
            "`validate(self.__class__, data)` (line 9) checks them"
        )
    )


def test_an_error_handed_in_is_no_call_of_the_users_input(orm: Store) -> None:
    assert not any(s.text.startswith("Correct") for s in page_of(orm, "Model._handle").solutions)
