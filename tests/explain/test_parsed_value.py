"""A validator whose `try` parses, compiles or looks up what it read from the field's value
(`re.compile(text)` where `text = v.strip()`; `DURATIONS[unit.lower()]` where `unit`
was cut from the value) failed on the data: the way out is a value of the form the call
takes, or whose piece is a key of the table, said as the field's value in the data. A
`try` that does anything else with what it read, or a table the program fills itself,
says nothing of the kind. So does a web route's handler whose `request.json()` fails: the
way out is a body of valid JSON sent to its route."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain.build import build_page
from errdex.explain.page import Page
from errdex.store import Store

FILES = {
    "shapes/__init__.py": "",
    "shapes/errors.py": """
        class TextError(ValueError):
            pass


        class RegexError(ValueError):
            pass


        class UnitError(ValueError):
            pass


        class CodecError(ValueError):
            pass
        """,
    "shapes/models.py": """
        import re

        from shapes import errors

        CODECS = {}


        def validator(*fields):
            return lambda f: f


        def register_codec(name, codec):
            CODECS[name] = codec


        class Rule:
            @validator("pattern")
            def check_pattern(cls, v):
                text = v.strip()
                try:
                    return re.compile(text)
                except re.error:
                    raise errors.RegexError()

            @validator("targets")
            def check_targets(cls, v):
                for key, name in v.items():
                    if key.startswith("~"):
                        try:
                            re.compile(key[1:])
                        except re.error:
                            raise errors.RegexError()
                return v

            @validator("checked")
            def check_checked(cls, v, field):
                try:
                    field.check(v)
                    return re.compile(v)
                except re.error:
                    raise errors.RegexError()

            @validator("codec")
            def check_codec(cls, v):
                try:
                    return CODECS[v]
                except KeyError:
                    raise errors.CodecError()
        """,
    "shapes/rules.py": """
        import re
        from ast import literal_eval

        from shapes import errors


        def compile_rule(rule):
            try:
                return re.compile(rule)
            except re.error as e:
                raise errors.RegexError(f"bad rule: {e}")


        def read_arguments(text):
            words = text.strip()
            try:
                return literal_eval(words)
            except SyntaxError:
                raise errors.TextError(f"cannot read {words!r}")
        """,
    "shapes/server.py": """
        import json

        from fastapi import APIRouter, HTTPException, Request

        router = APIRouter()


        @router.post(
            "/jobs",
            responses={400: {"model": dict}},
        )
        async def submit_job(raw_request: Request):
            try:
                body = await raw_request.json()
            except json.JSONDecodeError as e:
                raise HTTPException(status_code=400, detail=f"bad JSON: {e}") from e
            return body


        async def run_job(body):
            return body


        # a broad clause around the body's read and a run of it: either may have failed
        @router.post("/runs")
        async def submit_run(raw_request: Request):
            try:
                body = await raw_request.json()
                result = await run_job(body)
            except Exception as e:
                raise HTTPException(status_code=500, detail=f"run failed: {e}") from e
            return result


        async def read_reply(reply):
            try:
                return await reply.json()
            except json.JSONDecodeError as e:
                raise HTTPException(status_code=502, detail=f"bad reply: {e}") from e
        """,
    "shapes/types.py": """
        import re

        from shapes import errors

        DURATIONS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
        duration_re = re.compile(r"^(\\d+)\\s*(\\w*)$")


        class Duration(int):
            @classmethod
            def __get_validators__(cls):
                yield cls.validate

            @classmethod
            def validate(cls, v):
                found = duration_re.match(str(v))
                if found is None:
                    raise errors.TextError()
                number, unit = found.groups()
                try:
                    factor = DURATIONS[unit.lower()]
                except KeyError:
                    raise errors.UnitError(unit)
                return cls(int(number) * factor)
        """,
}


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("shapes"), "shapes", FILES)


def texts(store: Store, function: str, exception: str) -> list[str]:
    (site,) = [
        s
        for s in store.list_sites("shapes")
        if s.site.function == function and (s.site.exception or "").endswith(exception)
    ]
    return [s.text for s in build_page(store, site.id).solutions]


def test_a_pattern_compiled_from_the_value_asks_for_a_valid_regular_expression(
    shapes: Store,
) -> None:
    assert texts(shapes, "Rule.check_pattern", "RegexError")[:1] == [
        "In the data you validate, give the field `pattern` of `Rule` a value that makes "
        "`text` a valid regular expression (Python's `re` syntax): `re.compile(text)` failed "
        "on it, and this error is raised in its place (`text` is read from the value: `text = "
        "v.strip()`, line 20). `Rule.check_pattern` is a validator the framework runs on that "
        "value: the check is of your data, not of a call in your code."
    ]


def test_a_key_of_the_value_compiled_in_a_loop_is_read_from_the_value(shapes: Store) -> None:
    (first, *_) = texts(shapes, "Rule.check_targets", "RegexError")
    assert first.startswith(
        "In the data you validate, give the field `targets` of `Rule` a value that makes "
        "`key[1:]` a valid regular expression (Python's `re` syntax): `re.compile(key[1:])` "
        "failed on it, and "
        "this error is raised in its place (`key` is read from the value: `for key, name in "
        "v.items()`, line 28)."
    )


def test_a_unit_cut_from_the_value_is_one_of_the_tables_keys(shapes: Store) -> None:
    assert texts(shapes, "Duration.validate", "UnitError")[:1] == [
        "In the data you validate, give a field declared as `Duration` a value whose `unit` "
        "is one of the keys of `DURATIONS` (`'s'`, `'m'`, `'h'`, `'d'`, …): the lookup "
        "`DURATIONS[unit.lower()]` at line 22 found no such key, and this error is raised in "
        "its place (`unit` is read from the value: `number, unit = found.groups()`, line 20). "
        "`Duration.validate` is a validator the framework runs on that value: the check is "
        "of your data, not of a call in your code."
    ]


def test_another_call_of_the_try_on_the_value_says_nothing_of_the_parse(shapes: Store) -> None:
    # `field.check(v)` may have failed instead: no form of `re.compile`'s to ask for
    found = texts(shapes, "Rule.check_checked", "RegexError")
    assert not any(t.startswith("In the data you validate") for t in found), found
    # the argument's parse, as for any function's (an R)
    assert [t.split(":")[0] for t in found] == [
        "Make sure `v` (the argument `v` of `Rule.check_checked`) is a valid regular "
        "expression (Python's `re` syntax)"
    ], found


def test_a_table_the_program_fills_names_no_keys(shapes: Store) -> None:
    found = texts(shapes, "Rule.check_codec", "CodecError")
    assert not any(t.startswith("In the data you validate") for t in found), found
    assert [t.split(":")[0] for t in found] == [
        "Pass for the argument `v` of `Rule.check_codec` one of the keys of `CODECS`"
    ], found


def solutions_of(store: Store, function: str) -> list[str]:
    return [s.text for s in page_of(store, function).solutions]


def page_of(store: Store, function: str) -> Page:
    (site,) = [s for s in store.list_sites("shapes") if s.site.function == function]
    return build_page(store, site.id)


def test_a_public_functions_pattern_is_asked_to_be_a_valid_regular_expression(
    shapes: Store,
) -> None:
    (first, *_) = solutions_of(shapes, "compile_rule")
    assert first.startswith(
        "Give `compile_rule` another `rule` that is a valid regular expression (Python's `re` "
        "syntax): the value given makes `re.compile(rule)` fail"
    ), first


def test_a_text_read_as_a_literal_is_asked_to_be_a_python_literal(shapes: Store) -> None:
    (first, *_) = solutions_of(shapes, "read_arguments")
    assert first.startswith(
        "Make sure `words` is a valid Python literal (a number, a string, a tuple, list, dict "
        "or set of them, `True`, `False` or `None`): `literal_eval(words)` failed on it"
    ), first


def test_a_body_a_client_sent_to_a_route_is_asked_to_be_valid_json(shapes: Store) -> None:
    assert solutions_of(shapes, "submit_job")[:1] == [
        "Send `POST /jobs` a request body that is valid JSON: `raw_request.json()` failed on "
        "the body the client sent, and this error answers the request in its place."
    ]


def test_json_of_what_no_client_sent_to_a_route_is_no_request_body(shapes: Store) -> None:
    page = page_of(shapes, "read_reply")
    found = [s.text for s in page.solutions]
    assert not any("request body" in t for t in found), found
    # nothing else: the page says what failed (the reply's read), not what to send
    assert found == []
    assert "It runs when `reply.json()` (the `try` at line 38) raised" in page.what_it_means


def test_a_broad_clause_around_more_than_the_body_s_read_says_no_read_failed(
    shapes: Store,
) -> None:
    # `except Exception` around `raw_request.json()` and a run of the body: the error is
    # as much the run's, and "`raw_request.json()` failed" would be no fact
    found = solutions_of(shapes, "submit_run")
    assert not any("request body" in t for t in found), found
    assert found == ["Do what the message says: “run failed: ERROR”"]
