"""A keyword named private (`_adapt=False`) is the package's own to pass: its descriptor, its
merge. No user writes it, and turning it over skips the check with the value still there:
no way out is offered through it; a keyword of a public name stays one."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message
from text_facts import class_parses, site_facts

from errdex.explain.inputs import private_argument
from errdex.store import Store

ATTRS = {
    "attrs/__init__.py": "",
    "attrs/collections.py": """
        import ipaddress


        class CollectionImpl:
            def set(self, state, value, _adapt=True):
                if _adapt and not isinstance(value, list):
                    raise TypeError("Incompatible collection type")
                state.items = value

            def replace(self, state, value, adapt=True):
                if adapt and not isinstance(value, list):
                    raise TypeError("Incompatible replacement type")
                state.items = value


        def register(_decorated=None, name=None):
            if _decorated is not None and not isinstance(_decorated, type):
                raise TypeError("Decorator can only be applied to classes.")
            return _decorated


        class Context:
            def invoke(__self, __callback, *args):
                if not callable(__callback):
                    raise TypeError("Callback is not callable.")
                return __callback(*args)


        def load(path, _mode=None):
            if not isinstance(_mode, str):
                raise TypeError("mode must be text")
            return path


        class Report:
            def __init__(self, rows, _style="plain"):
                self.rows = rows
                self._style = _style

            def render(self):
                if self._style not in ("plain", "grid"):
                    raise ValueError("Unknown report style")
                return self.rows


        class Compiler:
            def render_null(self, bindparam, **kw):
                op = kw.get("_binary_op")
                if op and op not in ("is", "is not"):
                    raise ValueError("Comparisons to NULL should not use operators")
                return "NULL"

            def render_quoted(self, value, **kw):
                quote = kw.get("quote")
                if quote and quote not in ("'", '"'):
                    raise ValueError("Unknown quote character")
                return value


        def network_of(name, _value=None):
            try:
                return ipaddress.ip_network(_value)
            except ValueError:
                raise TypeError("value is no network") from None

        """,
}


@pytest.fixture(scope="module")
def attrs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("attrs"), "attrs", ATTRS)


def test_a_private_keyword_is_no_way_out(attrs: Store) -> None:
    page = page_with_message(attrs, "attrs", "Incompatible collection type")
    assert not any("`_adapt`" in s.text for s in page.solutions)
    assert page.solutions[0].text.startswith(
        "Pass the argument `value` of `CollectionImpl.set` as an instance of `list`"
    )


def test_a_public_keyword_stays_a_way_out(attrs: Store) -> None:
    page = page_with_message(attrs, "attrs", "Incompatible replacement type")
    assert any("`adapt`" in s.text for s in page.solutions)


def test_the_first_parameter_and_a_positional_spelling_stay_the_users(attrs: Store) -> None:
    # `@register` hands the decorated object as `_decorated`; `__callback` is positional
    page = page_with_message(attrs, "attrs", "Decorator can only be applied")
    assert any("`_decorated`" in s.text for s in page.solutions)
    page = page_with_message(attrs, "attrs", "Callback is not callable")
    assert any("`__callback`" in s.text for s in page.solutions)


def test_no_rule_names_a_private_keyword(attrs: Store) -> None:
    # the input rule and the rule of a value given alike leave `_mode` out
    page = page_with_message(attrs, "attrs", "mode must be text")
    assert not any("`_mode`" in s.text for s in page.solutions)


def test_a_constructors_private_keyword_kept_as_an_attribute(attrs: Store) -> None:
    page = page_with_message(attrs, "attrs", "Unknown report style")
    assert not any("`_style`" in s.text for s in page.solutions)


def test_a_call_failing_on_a_private_keyword_names_no_argument(attrs: Store) -> None:
    # `ipaddress.ip_network(_value)` failing: `_value` is no value a user gives
    page = page_with_message(attrs, "attrs", "value is no network")
    assert not any("another `_value`" in s.text for s in page.solutions)
    assert "the value given to `network_of` as `_value`" not in page.what_it_means


def test_a_private_key_of_kwargs_is_no_field_to_pass(attrs: Store) -> None:
    # `kw.get("_binary_op")`: the package's own callers hand it on through `**kw`
    page = page_with_message(attrs, "attrs", "Comparisons to NULL")
    assert not any("`_binary_op`" in s.text for s in page.solutions)
    page = page_with_message(attrs, "attrs", "Unknown quote character")
    assert any("`quote`" in s.text for s in page.solutions)


def test_a_public_keyword_kept_as_an_attribute_is_told_without_parsing_the_class(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `self.rows` set from `rows`: its name alone says it is the user's, and the class (a
    # config class of thousands of lines) is parsed only for a keyword named private
    parsed = class_parses(monkeypatch)
    facts = site_facts(textwrap.dedent(ATTRS["attrs/collections.py"]), "Report.render")
    init_params = {"rows": "rows", "_style": "_style"}
    assert not private_argument("self.rows", (), init_params, facts)
    assert parsed == []
    assert private_argument("self._style", (), init_params, facts)
    assert len(parsed) == 1
