"""A JSON flag's fix gives the keys its object is not built without, each with the user's
own value named (`"count": COUNT`, `"model": "MODEL"`): a check reached on every path as the
object is built raises where one is left at None, before the check the fix is for. A check
the walk cannot decide, or a field holding another object, adds nothing."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.explain.json_before import json_text
from errdex.explain.page import Page
from errdex.explain.required_keys import BuiltClass, OwnValue, built_class, required_keys
from errdex.store import Store

SPEC = {
    **SERVE_CLI,
    "eng/args.py": """
        import json
        from dataclasses import dataclass

        from eng.spec import SpecConfig


        @dataclass
        class EngineArgs:
            spec_config: SpecConfig | None = None

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--spec-config", type=json.loads)
                return parser
        """,
    "eng/spec.py": """
        from dataclasses import dataclass


        @dataclass
        class SpecConfig:
            count: int | None = None
            model: str | None = None
            method: str | None = None
            greedy: bool = True
            style: str = "rich"
            backend: str | None = None
            folder: str = ""
            mirror: bool = False

            def __post_init__(self):
                if self.method is None:
                    self.method = "draft"
                if self.model is None and self.count is not None:
                    if self.method == "ngram":
                        self.model = "ngram"
                    else:
                        raise ValueError("count was given without a model")
                if self.count is None:
                    raise ValueError("count must be provided")
                if self.method == "draft":
                    if not self.greedy:
                        raise ValueError("the draft method needs greedy sampling")
                style = self.style
                if style == "plain" and not self.greedy:
                    raise ValueError("the plain style needs greedy sampling")
                folder = self.folder
                if self.backend == "disk" and not folder:
                    raise ValueError("folder must be set for the disk backend")
                if self.mirror and self.backend != "disk":
                    raise ValueError("mirror is only applicable to the disk backend")
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("spec"), "eng", SPEC)


def page_of(store: Store, message: str) -> Page:
    return page_with_message(store, "eng", message)


def test_the_keys_the_object_needs_are_given_with_the_users_values(eng: Store) -> None:
    page = page_of(eng, "the draft method needs")
    (fix,) = [s.fix for s in page.solutions if s.fix is not None and '"greedy"' in s.fix.after]
    # the method the path holds first, then the keys the object needs, in the class's order
    head = """eng serve MODEL_TAG --spec-config '{"method": "draft", "count": COUNT, "model": """
    assert fix.before == head + """"MODEL", "greedy": false}'"""
    assert fix.after == head + """"MODEL", "greedy": true}'"""
    assert "`MODEL_TAG`, `COUNT`, `MODEL` stand for your own values." in fix.note


def class_of(source: str) -> BuiltClass | None:
    (node,) = ast.parse(textwrap.dedent(source)).body
    assert isinstance(node, ast.ClassDef)
    return built_class(node)


def test_a_check_the_walk_cannot_decide_adds_nothing() -> None:
    owner = class_of(
        """
        class C:
            count: int | None = None
            mode: str = "a"

            def __post_init__(self):
                if self.mode in MODES:
                    return
                if self.count is None:
                    raise ValueError("count must be provided")
        """
    )
    # an earlier exit the walk cannot decide may skip the check
    assert required_keys(owner, {"mode": "a"}, {}) == {}


def test_a_field_holding_another_object_is_the_programs_to_fill() -> None:
    source = """
        class C:
            count: int | None = None
            target: ModelConfig = None

            def __post_init__(self):
                if self.target is None:
                    raise ValueError("the program fills the target in")
                if self.count is None:
                    raise ValueError("count must be provided")
        """
    # the target is never the user's to give, nor known to be None: the count is
    assert required_keys(class_of(source), {}, {}) == {"count": OwnValue("COUNT")}
    # a check that raises as written with no key to give leaves the fix as it was
    stuck = class_of(source.replace("self.target is None", "self.count == 0 or True"))
    assert required_keys(stuck, {}, {}) == {}


def test_a_held_value_reassigned_by_a_computed_value_decides_nothing() -> None:
    source = """
        class C:
            model: str | None = None
            count: int = 1
            method: str | None = None

            def __post_init__(self):
                if self.method in ALIASES:
                    self.method = resolve(self.method)
                if self.model is None and self.count is not None:
                    if self.method == "ngram":
                        self.model = "ngram"
                    else:
                        raise ValueError("count was given without a model")
        """
    held = {"method": "draft"}
    assert required_keys(class_of(source), held, held) == {}
    # assigned only literals, the held value is kept through the methods
    literal = class_of(source.replace("resolve(self.method)", "'mtp'"))
    found = required_keys(literal, held, held)
    assert found == {"model": OwnValue("MODEL", text=True)}
    assert json_text({"model": found["model"], "n": OwnValue("N")}) == '{"model": "MODEL", "n": N}'


def test_a_part_of_the_same_test_is_kept_through_a_local(eng: Store) -> None:
    # `style == "plain"`, `style` holding `self.style`, in the `and` the fix changes a part
    # of: the "before" keeps it, or it would not reach the check
    page = page_of(eng, "the plain style needs")
    (fix,) = [s.fix for s in page.solutions if s.fix is not None and '"greedy"' in s.fix.after]
    assert '"style": "plain"' in fix.before
    assert '"style": "plain"' in fix.after


def test_a_text_tested_empty_through_a_local_is_given() -> None:
    owner = class_of(
        """
        class C:
            kind: str | None = None
            folder: str = ""

            def __post_init__(self):
                folder = self.folder
                if self.kind == "proton" and not folder:
                    raise ValueError("folder must be set for proton")
                if folder:
                    self.folder = expand(folder)
        """
    )
    found = required_keys(owner, {"kind": "proton"}, {"kind": "proton"})
    assert found == {"folder": OwnValue("FOLDER", text=True)}
    # another kind: nothing to give
    assert required_keys(owner, {"kind": "torch"}, {"kind": "torch"}) == {}


def test_a_key_the_fixs_own_value_needs_is_given_after_alone(eng: Store) -> None:
    # the disk backend needs its folder; given before, with another backend, the folder
    # is no error there, but what the user had did not hold it
    fix = page_of(eng, "mirror is only applicable").example_fix
    assert fix is not None
    assert '"backend": "disk"' in fix.after
    assert '"folder": "FOLDER"' in fix.after
    assert '"folder"' not in fix.before
    assert "`FOLDER`" in fix.note
