"""Every fix a page shows is checked against what the index knows before it is shown: a
keyword given `None` that the function assigns again when it is None is no way to turn it
off (a yes/no one is given `False`, any other is withheld), a placeholder where a value is
needed, a flag value its declared type does not parse and an environment variable's value
the package does not parse withhold the fix."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.build import gather_facts
from errdex.explain.context import Facts
from errdex.explain.page import ExampleFix, Knob, Solution
from errdex.explain.runnable_fix import (
    _command_fault,
    _env_fault,
    _placeholder,
    checked_fixes,
    fix_fault,
)
from errdex.facts import KnobKind
from errdex.store import Store

OPTS = {
    "opts/__init__.py": "from opts.core import Mapper, Option, Prompt\n",
    "opts/core.py": """
        import typing as t


        class Option:
            def __init__(
                self, decls=None, is_flag: t.Optional[bool] = None, flag_value=None, count=False
            ):
                if is_flag is None:
                    if flag_value is not None:
                        is_flag = True
                    else:
                        is_flag = bool(decls)
                self.is_flag = is_flag
                self.count = count
                if self.count:
                    if self.is_flag:
                        raise TypeError("'count' is not valid with 'is_flag'.")


        class Mapper:
            def scan(self, registry, cls, key, strict=False):
                if key in registry:
                    raise TypeError("the key is mapped already.")


        class Prompt:
            def __init__(self, text=None, default=None, echo: bool = True):
                if default is None:
                    default = text
                self.default = default
                if self.default:
                    raise TypeError("a prompt with a default can not echo nothing.")
        """,
}


@pytest.fixture(scope="module")
def opts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("opts"), "opts", OPTS)


def _fixes(page_fix: ExampleFix | None, solutions: list[ExampleFix | None]) -> list[str]:
    return [f.after for f in (page_fix, *solutions) if f is not None]


def test_a_yes_no_none_the_function_replaces_is_given_false(opts: Store) -> None:
    page = page_with_message(opts, "opts", "'count' is not valid with 'is_flag'.")
    afters = _fixes(page.example_fix, [s.fix for s in page.solutions])
    assert any("is_flag=False" in a for a in afters)
    assert not any("is_flag=None" in a for a in afters)


def test_another_none_the_function_replaces_is_withheld(opts: Store) -> None:
    page = page_with_message(opts, "opts", "a prompt with a default can not echo nothing.")
    afters = _fixes(page.example_fix, [s.fix for s in page.solutions])
    assert not any("default=None" in a for a in afters)


def test_a_placeholder_the_after_adds_withholds_unless_the_users_own() -> None:
    assert _placeholder(["app serve --level VALUE"], "app serve", "")
    assert _placeholder(["app serve --level <level>"], "app serve", "")
    assert not _placeholder(["app serve --level VALUE"], "app serve --level VALUE", "")
    assert not _placeholder(["obj.process(value=VALUE)"], "", "`VALUE` stands for your own.")
    assert not _placeholder(["app serve --level 3"], "app serve", "")


_FLAGS = [
    Knob(name="--level", kind=KnobKind.FLAG, command="app serve MODEL", value_type="int"),
    Knob(name="--ratio", kind=KnobKind.FLAG, command="app serve MODEL", value_type="float | None"),
    Knob(
        name="--mode",
        kind=KnobKind.FLAG,
        command="app serve MODEL",
        value_type="Literal['fast', 'slow']",
    ),
    Knob(name="APP_WORKERS", kind=KnobKind.ENV, value_type="int"),
]


@pytest.mark.parametrize(
    ("line", "fault"),
    [
        ("app serve MODEL --level 3", None),
        ("app serve MODEL --level high", "flag value"),
        ("app serve MODEL --level=high", "flag value"),
        ("app serve MODEL --level LEVEL", None),
        ("app serve MODEL --ratio 0.5", None),
        ("app serve MODEL --ratio half", "flag value"),
        ("app serve MODEL --mode fast", None),
        ("app serve MODEL --mode quick", "flag value"),
        ("other run --level high", None),
    ],
)
def test_a_flag_value_parses_by_its_declared_type(line: str, fault: str | None) -> None:
    assert _command_fault(line, _FLAGS) == fault


@pytest.mark.parametrize(
    ("line", "fault"),
    [
        ("APP_WORKERS=4 app serve MODEL", None),
        ("export APP_WORKERS=four", "variable value"),
        ("APP_THREADS=4 app serve MODEL", "unknown variable"),
        ("CUDA_VISIBLE_DEVICES=0 app serve MODEL", None),
    ],
)
def test_a_variable_is_one_the_package_reads_with_a_value_it_parses(
    line: str, fault: str | None
) -> None:
    assert _env_fault(line, _FLAGS) == fault


def _facts(store: Store, message: str) -> Facts:
    (site,) = [
        s for s in store.list_sites("opts") if s.site.message and s.site.message.text == message
    ]
    facts = gather_facts(site)
    facts.source_text = store.file_text(site.version_id, site.file)
    return facts


@pytest.mark.parametrize(
    ("after", "fault"),
    [
        ("mapper.scan(registry=REGISTRY, key=KEY)", "required argument"),
        ("mapper.scan(REGISTRY, CLS, key=KEY)", None),
        ("mapper.scan(registry=REGISTRY, cls=CLS, key=KEY, strict=True)", None),
        ("mapper.scan(**KWARGS)", None),
        ("other.lookup(registry=REGISTRY)", None),
    ],
)
def test_a_call_of_the_sites_function_gives_every_parameter_without_a_default(
    opts: Store, after: str, fault: str | None
) -> None:
    facts = _facts(opts, "the key is mapped already.")
    assert fix_fault(ExampleFix(before="", after=after), facts) == fault


def test_a_command_line_runs_a_console_script_of_the_package() -> None:
    assert _command_fault("app serve MODEL --level 3", _FLAGS, ("app",)) is None
    assert _command_fault("app serve MODEL --level 3", _FLAGS, ("other",)) == "unknown program"


def test_a_parameter_left_out_is_given_as_the_users_own_value_in_both_lines(opts: Store) -> None:
    facts = _facts(opts, "the key is mapped already.")
    fix = ExampleFix(
        before="mapper.scan(registry=REGISTRY, key=KEY)",
        after="mapper.scan(registry=REGISTRY, key=OTHER_KEY)",
        note="`REGISTRY`, `KEY` stand for your own values.",
    )
    ways, shown = checked_fixes(facts, [Solution(text="Use another key", fix=fix)], fix)
    assert shown is not None and shown == ways[0].fix
    assert shown.before == "mapper.scan(registry=REGISTRY, key=KEY, cls=CLS)"
    assert shown.after == "mapper.scan(registry=REGISTRY, key=OTHER_KEY, cls=CLS)"
    assert shown.note is not None and shown.note.endswith("`CLS` stands for your own value.")
