"""An error whose class name says what the value handed in is not (`UnmappedInstanceError`),
raised with that value as its only argument by a public call, asks for a value that is: "a
mapped instance", given where the user gives it; not for a value the function computed, nor
for one an operator or a private method receives."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "orm/__init__.py": """
        from orm.session import Session as Session
        from orm.session import object_session as object_session
        """,
    "orm/exc.py": """
        class UnmappedInstanceError(Exception):
            def __init__(self, obj, msg=None):
                super().__init__(msg or f"Class {type(obj).__name__!r} is not mapped")


        class UnmappedClassError(Exception):
            pass
        """,
    "orm/session.py": """
        from orm import exc


        def instance_state(obj):
            return obj._state


        def wrapped(obj):
            return [obj]


        def object_session(instance):
            try:
                state = instance_state(instance)
            except AttributeError as err:
                raise exc.UnmappedInstanceError(instance) from err
            return state.session


        class Session:
            def delete(self, instance):
                try:
                    state = instance_state(instance)
                except AttributeError as err:
                    raise exc.UnmappedInstanceError(instance) from err
                return state

            def __contains__(self, instance):
                try:
                    state = instance_state(instance)
                except AttributeError as err:
                    raise exc.UnmappedInstanceError(instance) from err
                return state is not None

            def _flush(self, obj):
                if not hasattr(obj, "_state"):
                    raise exc.UnmappedInstanceError(obj)

            def merge(self, instance):
                instance = wrapped(instance)
                if not hasattr(instance, "_state"):
                    raise exc.UnmappedInstanceError(instance)
                return instance

            def bind_for(self, mapper):
                if not hasattr(mapper, "_mapper"):
                    raise exc.UnmappedClassError(mapper, f"no mapper on {mapper}")
                return mapper._mapper
        """,
}


@pytest.fixture(scope="module")
def orm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("orm"), "orm", FILES)


def _lacked(store: Store, function: str) -> list[str]:
    page = page_in_function(store, "orm", function)
    return [s.text for s in page.solutions if "says that value is not" in s.text]


def test_a_public_method_asks_for_the_value_the_class_name_says(orm: Store) -> None:
    assert _lacked(orm, "Session.delete") == [
        "Give `orm.Session.delete()` a mapped instance as `instance`: the error is raised "
        "with the value given there (line 26), and its class, `UnmappedInstanceError`, says "
        "that value is not a mapped instance."
    ]


def test_a_public_function_asks_for_it_too(orm: Store) -> None:
    (said,) = _lacked(orm, "object_session")
    assert said.startswith("Give `orm.object_session()` a mapped instance as `instance`:")


def test_an_operator_or_a_private_method_gets_none(orm: Store) -> None:
    # `obj in session` and `Session._flush` are no calls a user writes with that argument
    assert _lacked(orm, "Session.__contains__") == []
    assert _lacked(orm, "Session._flush") == []


def test_a_value_the_function_computed_gets_none(orm: Store) -> None:
    # `instance` is rebound to what `wrapped` made of it: not the value handed in
    assert _lacked(orm, "Session.merge") == []


def test_a_raise_with_a_message_of_its_own_gets_none(orm: Store) -> None:
    # the message says what failed: the class name is not all the error says
    assert _lacked(orm, "Session.bind_for") == []
