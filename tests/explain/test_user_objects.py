"""Ways out through the user's own objects: a hook on the type a function was given, a
keyword of an argument's class, an instance where a
class was passed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.hooks import _may_call_hook
from errdex.store import Store

LAB = {
    "lab/__init__.py": "",
    "lab/schema.py": """
        def _apply(modify, field, schema):
            modify(schema, field)


        def field_schema(field_type, field):
            schema = {}
            if field_type is int:
                schema["type"] = "integer"
            else:
                modify_schema = getattr(field_type, "__modify_schema__", None)
                if modify_schema:
                    _apply(modify_schema, field, schema)
            if schema:
                return schema
            raise ValueError(f"no schema for {field}")


        def encode(value):
            out = []
            if hasattr(value, "__lab_encode__"):
                value.__lab_encode__(out)
            if not out:
                raise TypeError("cannot encode the value")
            return out


        def describe(value):
            name = getattr(value, "__qualname__", None)
            info = getattr(value, "__lab_info__", None)
            if info is not None:
                print(info)
            if name is None:
                raise TypeError("a value without a name")
            return name
        """,
    "lab/types.py": """
        class Kind:
            pass


        TEXT = Kind()


        def to_kind(ty):
            if isinstance(ty, Kind):
                return ty
            if ty is str or ty is None:
                return TEXT
            if issubclass(ty, Kind):
                raise AssertionError(f"an uninstantiated kind ({ty})")
            return TEXT


        def check_kind(ty):
            if issubclass(ty, Kind):
                raise TypeError(f"a kind class ({ty})")
            return ty
        """,
    "lab/core.py": """
        class Command:
            def __init__(self, name):
                self.name = name


        class Chain(Command):
            def __init__(self, name, chain=False, strict=True):
                super().__init__(name)
                self.chain = chain
                self.strict = strict
                self.count = len(name)

            def add(self, cmd):
                _check_nested(self, cmd)
                _check_strict(self, cmd)


        def _check_nested(base: "Chain", cmd: Command) -> None:
            if not base.chain or not isinstance(cmd, Chain):
                return
            raise RuntimeError("a group under a chained group")


        def _check_strict(base: "Chain", cmd: Command) -> None:
            if base.strict and cmd.name.startswith("_"):
                raise RuntimeError("a private name under a strict group")


        def _check_count(base: "Chain") -> None:
            if base.count > 3:
                raise RuntimeError("a long name")
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("objects"), "lab", LAB)


def texts(store: Store, message: str) -> list[str]:
    return [s.text for s in page_with_message(store, "lab", message).solutions]


def test_a_hook_read_by_getattr_that_fills_what_the_check_tests(lab: Store) -> None:
    found = [t for t in texts(lab, "no schema for {field}") if "__modify_schema__" in t]
    assert found == [
        "Define `__modify_schema__` on your type (the `field_type` this function was given): "
        "the function looks it up and calls it with `schema` (line 13), which the check tests "
        "before the error is raised."
    ]


def test_a_hook_tested_by_hasattr_and_called_on_the_object(lab: Store) -> None:
    assert any(
        t.startswith("Define `__lab_encode__`") for t in texts(lab, "cannot encode the value")
    )


def test_a_hook_given_nothing_the_check_tests_and_a_python_dunder_are_no_way_out(
    lab: Store,
) -> None:
    assert not any(t.startswith("Define") for t in texts(lab, "a value without a name"))


def test_a_class_where_an_instance_is_taken_is_instantiated(lab: Store) -> None:
    found = texts(lab, "an uninstantiated kind ({ty})")
    assert found[0] == (
        "Pass an instance, not the class, for the argument `ty` of `to_kind`: write "
        "`YourType()` where you wrote `YourType` (line 10 takes an instance of `Kind` as it is)."
    )
    # the exit for None returns the default type instead: no way out of this one
    assert not any("None" in t for t in found)


def test_no_exit_for_instances_says_nothing_of_instantiating(lab: Store) -> None:
    assert not any("instance" in t for t in texts(lab, "a kind class ({ty})"))


def test_a_flag_of_the_argument_s_class_left_out(lab: Store) -> None:
    assert texts(lab, "a group under a chained group")[0] == (
        "If you made the `Chain`: make it without `chain=True` (leave `chain` out: it is "
        "`False` by default); the check at line 20 reads `base.chain`, which `Chain(...)` "
        "sets from its keyword `chain`."
    )


def test_a_flag_on_by_default_is_not_turned_off(lab: Store) -> None:
    # an `if` around the work, and a default that is on: no change of design is offered
    assert not any("strict" in t for t in texts(lab, "a private name under a strict group"))


def test_an_attribute_computed_from_a_keyword_is_no_way_out(lab: Store) -> None:
    assert not any("Chain" in t for t in texts(lab, "a long name"))


@pytest.mark.parametrize(
    ("body", "calls"),
    [
        ("x = getattr (obj, name)", True),
        ("value = obj . __errdex_hook__ (\n  x)", True),
        ("super().__init__(x)\nself.__class__", False),  # Python's own names
        ("name = '__hook__'\nreturn name", False),  # named, not called
        ("return x", False),
    ],
)
def test_a_function_is_read_for_hooks_only_when_its_text_may_call_one(
    body: str, calls: bool
) -> None:
    assert _may_call_hook(body) is calls
