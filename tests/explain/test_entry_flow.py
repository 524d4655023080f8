"""A check in a helper on a value a public call hands down through every chain of callers:
a loop over the user's mapping or list, a literal default, a helper many callers reach.
The way out names the nearest public calls and the part of their argument that reaches
the check."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "form/__init__.py": "from form.api import Request, Upload, dive, plan, render, show, tag\n",
    "form/_fields.py": """
        class Field:
            def __init__(self, name, value):
                if not isinstance(name, str):
                    raise TypeError(f"Invalid type for name: {name!r}")
                self.name = name


        def fields(data):
            for name, value in data.items():
                yield Field(name=name, value=value)


        def check_part(part):
            if part.startswith("::"):
                raise ValueError("A part cannot start with '::'")
            return part


        def parts(items):
            for item in items:
                check_part(item)
            return items


        def mark(text):
            if "[/]" in text:
                raise ValueError("A closing tag has nothing to close")
            return text


        def marked(text):
            return mark(text.strip())


        def _prepared(text):
            return mark(text)


        def check_label(label):
            if not label.isidentifier():
                raise ValueError("A label must be an identifier")
            return label


        def check_depth(depth):
            if not isinstance(depth, int):
                raise TypeError("A depth must be an int")
            return depth


        def _one(depth):
            return check_depth(depth)


        def _two(depth):
            return _one(depth)


        def _three(depth):
            return _two(depth)


        def _four(depth):
            return _three(depth)


        def check_list(value, name):
            if not isinstance(value, list):
                raise TypeError(f"{name} must be a list")
            return value


        def _plan(first, second):
            check_list(first, "first")
            check_list(second, "second")


        def labels(keys):
            for at, key in enumerate(keys):
                check_label(key)
        """,
    "form/api.py": """
        from form._fields import _four, _plan, fields, labels, mark, marked, parts


        class Request:
            def __init__(self, data=None):
                self.fields = list(fields(data or {}))


        class Upload:
            def __init__(self, paths):
                self.paths = parts(paths)


        def render(body):
            return mark(body)


        def show(body):
            return marked(body)


        def dive(depth):
            return _four(depth)


        def plan(first, second):
            return _plan(first, second)


        def tag(keys):
            return labels(keys)


        def close():
            raise NotImplementedError("closing is not supported")
        """,
}


@pytest.fixture(scope="module")
def form(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("form"), "form", FILES)


def test_a_key_of_the_users_mapping_handed_down_by_a_loop_names_the_mapping(
    form: Store,
) -> None:
    # `Request(data=...)` hands `data or {}` to `fields`, which gives each key to `Field`
    page = page_with_message(form, "form", "Invalid type for name")
    assert page.solutions[0].text == (
        "Make each key of the mapping `data` you pass to `form.Request` a `str`: each "
        "reaches `Field` as `name`, which raises at line 5 for any other value (“Invalid "
        "type for name: NAME”)."
    )


def test_an_item_of_the_users_list_names_the_list(form: Store) -> None:
    page = page_with_message(form, "form", "A part cannot start")
    assert any(
        s.text.startswith(
            "Change each item of `paths` you pass to `form.Upload`: each reaches `check_part` "
            "as `part`, and the check at line 15 fails"
        )
        for s in page.solutions
    )


def test_the_nearest_public_calls_of_every_chain_are_named(form: Store) -> None:
    # `mark` is reached from `_prepared` (private, which nothing calls), `render` (as it
    # is) and `marked` (a value it computed): the first chain alone reaches no public call;
    # `render` hands the text on as it is
    page = page_with_message(form, "form", "A closing tag has nothing")
    assert page.solutions[0].text.startswith(
        "Change the argument `body` you pass to `form.render`: it reaches `mark` as `text`"
    )


def test_an_enumerated_item_names_the_list(form: Store) -> None:
    page = page_with_message(form, "form", "A label must be")
    assert page.solutions[0].text.startswith(
        "Change each item of `keys` you pass to `form.tag`: each reaches "
        "`check_label` as `label`, and the check at line 41 fails when"
    )


def test_a_public_call_five_calls_up_is_named(form: Store) -> None:
    # `dive` → `_four` → `_three` → `_two` → `_one` → `check_depth`: past the three calls
    # a page shows, through the callers the linker keeps for the walk
    page = page_with_message(form, "form", "A depth must be")
    assert page.solutions[0].text == (
        "Pass `depth` to `form.dive` as an `int`: it reaches `check_depth` as `depth`, which "
        "raises at line 48 for any other value (“A depth must be an int”)."
    )


def test_no_public_call_is_named_where_a_caller_gives_the_check_two_values(
    form: Store,
) -> None:
    # `_plan` checks `first` and then `second` with one helper: the message names which,
    # the call the linker kept is only one of them
    page = page_with_message(form, "form", "{name} must be a list")
    assert not any("`form.plan`" in s.text for s in page.solutions)
