"""Linking joins files: classes, constants, helpers and reasons resolved across modules."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.facts import IndexedSite, SiteKind
from errdex.link import cross_file_helper_names, link_version


def link(files: dict[str, str], project: str = "demo") -> list[IndexedSite]:
    """Extract and link a package given as {path: source}; sources are dedented."""
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    return link_version(project, facts)


def by_message(sites: list[IndexedSite]) -> dict[str, IndexedSite]:
    return {s.site.message.text: s for s in sites if s.site.message is not None}


PACKAGE = {
    "demo/errors.py": """
        class DemoError(Exception):
            \"\"\"Base of demo's errors.\"\"\"

        class ModelNotFound(DemoError):
            def __init__(self, name):
                super().__init__(f"Model {name!r} is not in the registry")

        class StrictModelNotFound(ModelNotFound):
            pass
        """,
    "demo/consts.py": """
        SUPPORTED = ("llama", "qwen")
        MESSAGES = {"empty": "the prompt is empty"}
        """,
    "demo/core.py": """
        from demo.errors import ModelNotFound, StrictModelNotFound
        from demo import consts
        from .consts import SUPPORTED, MESSAGES

        def load(model_id, strict):
            if model_id not in SUPPORTED:
                if strict:
                    raise StrictModelNotFound(model_id)
                raise ModelNotFound(model_id)
            if not model_id:
                raise ValueError(MESSAGES["empty"])
        """,
}


def test_exception_classes_resolve_to_their_definition_and_bases() -> None:
    site = by_message(link(PACKAGE))["Model {model_id!r} is not in the registry"]
    assert site.exception is not None
    assert site.exception.qualname == "demo.errors.ModelNotFound"
    assert site.exception.bases == ("demo.errors.DemoError", "builtins.Exception")
    assert site.exception.defined_in == "demo/errors.py"


def test_messages_built_by_init_are_inherited_by_subclasses() -> None:
    sites = link(PACKAGE)
    strict = [s for s in sites if s.exception and s.exception.name == "StrictModelNotFound"]
    assert [s.site.message.text for s in strict if s.site.message] == [
        "Model {model_id!r} is not in the registry"
    ]


def test_constants_resolve_across_imports() -> None:
    sites = by_message(link(PACKAGE))
    assert "the prompt is empty" in sites
    raise_site = sites["Model {model_id!r} is not in the registry"]
    assert [(b.name, b.value, b.origin, b.file) for b in raise_site.site.bindings] == [
        ("SUPPORTED", '["llama", "qwen"]', "constant", "demo/consts.py")
    ]


def test_ids_are_stable_across_line_moves_and_differ_across_functions() -> None:
    before = {s.site.message.text: s.id for s in link(PACKAGE) if s.site.message}
    moved = dict(PACKAGE)
    moved["demo/core.py"] = "\n\n\n" + PACKAGE["demo/core.py"]  # every line moves down
    after = {s.site.message.text: s.id for s in link(moved) if s.site.message}
    assert before == after
    assert all(len(i) == 16 and int(i, 16) >= 0 for i in before.values())
    renamed = {"demo/core.py": PACKAGE["demo/core.py"].replace("def load", "def fetch")}
    assert set(before.values()).isdisjoint(s.id for s in link({**PACKAGE, **renamed}))


def test_reasons_from_helpers_two_levels_deep_carry_the_call_guard() -> None:
    # the shape of vllm's VllmConfig._validate_v2_model_runner (vllm/config/vllm.py)
    sites = link(
        {
            "demo/config.py": """
            class Config:
                def _dbo_features(self):
                    unsupported = []
                    if self.lora is not None:
                        unsupported.append("dual batch overlap with LoRA")
                    return unsupported

                def _v2_features(self):
                    unsupported = []
                    if self.pp > 1:
                        unsupported.append("pipeline parallelism")
                    if self.use_ubatching:
                        unsupported.extend(self._dbo_features())
                    return unsupported

                def validate(self):
                    unsupported = self._v2_features()
                    if unsupported:
                        raise ValueError(
                            f"V2 does not yet support: {', '.join(unsupported)}"
                        )
            """
        }
    )
    (site,) = sites
    assert [
        (v.reason.text, v.function, [c.statement for c in v.conditions]) for v in site.site.variants
    ] == [
        ("pipeline parallelism", "Config._v2_features", ["self.pp > 1"]),
        (
            "dual batch overlap with LoRA",
            "Config._dbo_features",
            ["self.use_ubatching", "self.lora is not None"],
        ),
    ]


def test_calls_of_raising_helpers_become_sites() -> None:
    # click's Context.fail(message) and its callers in another module
    sites = link(
        {
            "mini/core.py": """
            class UsageError(Exception):
                pass

            class Context:
                def fail(self, message):
                    raise UsageError(message, self)
            """,
            "mini/types.py": """
            def convert(value, param, ctx):
                if not value.isdigit():
                    ctx.fail(f"{value!r} is not a valid integer.")
            """,
        }
    )
    helper = [s for s in sites if s.site.kind is SiteKind.HELPER]
    assert [(s.file, s.site.message.text, s.site.exception) for s in helper if s.site.message] == [
        ("mini/types.py", "{value!r} is not a valid integer.", "mini.core.UsageError")
    ]
    assert [c.statement for c in helper[0].site.conditions] == ["not value.isdigit()"]
    assert helper[0].exception is not None
    assert helper[0].exception.qualname == "mini.core.UsageError"


def test_a_helpers_guard_is_bound_to_the_call_and_decided_when_literal() -> None:
    # B4 of the hand check (bench/extraction_check): `check(ok, msg)` is an assert in
    # disguise, and a renderer's final `else` is unreachable for the kinds it handles.
    sites = link(
        {
            "demo/util.py": """
            def check(ok, msg):
                if not ok:
                    raise ValueError(msg)

            def render(kind, text):
                if kind == "text":
                    return text
                elif kind == "thinking":
                    return "..."
                else:
                    raise TypeError(f"unsupported part kind: {kind!r}")
            """,
            "demo/use.py": """
            from demo.util import check, render

            def run(n, part):
                check(n > 0, "n must be positive")
                render("thinking", part)
                render("image", part)
            """,
        }
    )
    helper = [s for s in sites if s.site.kind is SiteKind.HELPER]
    assert [
        (s.site.message.text if s.site.message else None, [c.statement for c in s.site.conditions])
        for s in helper
    ] == [
        ("n must be positive", ["not n > 0"]),
        ("unsupported part kind: 'image'", []),
    ]


def test_every_raise_of_a_helper_in_another_module_is_a_site() -> None:
    # B7 and B8 of the second hand check (bench/extraction_check/RESULTS-2.md): a helper
    # with two raises that use its parameter, called from another module.
    sites = link(
        {
            "demo/util.py": """
            def get_items(value, name):
                if value is None:
                    raise RuntimeError(f"{name} is missing")
                if not isinstance(value, list):
                    raise TypeError(f"{name} must be a list")
                return value
            """,
            "demo/use.py": """
            from demo.util import get_items

            def run(cfg):
                get_items(cfg.items, "items")
            """,
        }
    )
    helper = sorted(
        (s.site.message.text, s.site.exception, s.exception.qualname if s.exception else None)
        for s in sites
        if s.site.kind is SiteKind.HELPER and s.site.message
    )
    assert helper == [
        ("items is missing", "RuntimeError", "builtins.RuntimeError"),
        ("items must be a list", "TypeError", "builtins.TypeError"),
    ]


def test_a_helpers_compound_placeholder_is_written_in_the_callers_terms() -> None:
    # B12 of the second hand check: `{len(shape)}` must read `{len(meta.shape)}` at the call,
    # as the guard does; an expression that names no parameter stays as it was written.
    sites = link(
        {
            "demo/layout.py": """
            def validate(shape, dim, factor, context):
                if dim >= len(shape):
                    raise ValueError(
                        f"{context} shards dim {dim}, but rank is {len(shape)} ({len(LIMITS)})"
                    )

            def expected(meta):
                return validate(meta.shape, 0, 2, "parameter source layout")
            """,
        }
    )
    helper = [s for s in sites if s.site.kind is SiteKind.HELPER]
    assert len(helper) == 1
    message = helper[0].site.message
    assert message is not None
    assert message.text == (
        "parameter source layout shards dim 0, but rank is {len(meta.shape)} ({len(LIMITS)})"
    )
    assert [c.text for c in helper[0].site.conditions][-1] == "0 >= len(meta.shape)"


def test_the_helper_names_a_call_in_another_file_can_reach() -> None:
    # What the indexer's second round keeps: a name another file's call can tie to one
    # helper function (one method, or one plain function, of the version).
    files = {
        "demo/a.py": """
            def check(ok, msg):
                if not ok:
                    raise ValueError(msg)

            class Context:
                def fail(self, message):
                    raise RuntimeError(message)
            """,
        "demo/b.py": """
            def check(ok, msg):
                if not ok:
                    raise TypeError(msg)

            def stop(why):
                raise SystemExit(why)

            class Job:
                def stop(self, why):
                    raise RuntimeError(why)
            """,
    }
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    assert cross_file_helper_names(facts) == {"fail", "stop"}


def test_a_call_on_a_module_imported_from_outside_reaches_no_helper() -> None:
    # `unicodedata.normalize("NFC", text)` is the standard library's, not the codebase's
    # `normalize` method, however alone that method is in the version.
    sites = link(
        {
            "demo/args.py": """
            class ArgumentHandler:
                def normalize(self, item):
                    raise ValueError(f"{item} argument needs to be a dict")
            """,
            "demo/text.py": """
            import unicodedata

            def clean(text, handler):
                text = unicodedata.normalize("NFC", text)
                handler.normalize("the question")
                return text
            """,
        }
    )
    helper = [s for s in sites if s.site.kind is SiteKind.HELPER and s.site.message]
    assert [s.site.message.text for s in helper if s.site.message] == [
        "the question argument needs to be a dict"
    ]


def test_a_self_call_reaches_a_helper_only_through_the_callers_own_classes() -> None:
    # Real shapes: a subclass calling its base's `fail` (click's ParamType), a class whose
    # `__setattr__` is `nn.Module`'s, a decorator's wrapper whose `self` is anyone's, and
    # an object kept in an attribute (vllm's `self._db.execute("PRAGMA ...")` on sqlite3).
    sites = link(
        {
            "demo/types.py": """
            class ParamType:
                def fail(self, message):
                    raise ValueError(f"Invalid value: {message}")

            class Tokens:
                def __setattr__(self, key, value):
                    raise TypeError(f"cannot set {key}")

            class Runner:
                def execute(self, method):
                    raise ValueError(f"Unknown execute method: {method}")
            """,
            "demo/uses.py": """
            import sqlite3
            from torch import nn
            from demo.types import ParamType

            class Choice(ParamType):
                def convert(self, value):
                    self.fail("not one of the choices")

            class Layer(nn.Module):
                def setup(self):
                    self.__setattr__("weight", None)

            def cached(func):
                def wrapper(self):
                    self.__setattr__("_cache", "not a string")
                return wrapper

            class DiskCache:
                def __init__(self, path, runner):
                    self._db = sqlite3.connect(path)
                    self._db.execute("PRAGMA journal_mode=WAL")
                    runner.execute("a runner's method")
            """,
        }
    )
    helper = [s for s in sites if s.site.kind is SiteKind.HELPER and s.site.message]
    assert sorted(s.site.message.text for s in helper if s.site.message) == [
        "Invalid value: not one of the choices",
        "Unknown execute method: a runner's method",
    ]


def test_a_call_on_a_module_of_the_version_reaches_its_function() -> None:
    sites = link(
        {
            "demo/__init__.py": "",
            "demo/checks.py": """
            def require(flag, what):
                if not flag:
                    raise ValueError(f"{what} is required")
            """,
            "demo/other.py": """
            def require(flag, what):
                if not flag:
                    raise KeyError(f"missing {what}")
            """,
            "demo/cli.py": """
            import demo.checks
            from demo import checks

            def main(args):
                checks.require(args.model, "--model")
                demo.checks.require(args.port, "--port")
            """,
        }
    )
    helper = [s for s in sites if s.site.kind is SiteKind.HELPER and s.site.message]
    assert sorted((s.site.message.text, s.site.exception) for s in helper if s.site.message) == [
        ("--model is required", "ValueError"),
        ("--port is required", "ValueError"),
    ]
