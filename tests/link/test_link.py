"""Linking joins files: classes, constants, helpers and reasons resolved across modules."""

from __future__ import annotations

import textwrap

import pytest

from errdex import extract
from errdex.extract import extract_file
from errdex.facts import SiteKind
from errdex.link import cross_file_helper_names, link_version
from errdex.linked_facts import IndexedSite
from samples import QUIET_FUNCTIONS


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


def test_the_modules_name_is_known() -> None:
    # A module's `__getattr__` (babel's `messages/frontend.py`): `__name__` is the module's.
    sites = link(
        {
            "pkg/messages/frontend.py": """
                def __getattr__(name):
                    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
                """
        }
    )
    [site] = sites
    assert site.site.message is not None
    assert site.site.message.text == "module 'pkg.messages.frontend' has no attribute {name!r}"


def test_names_from_star_imports_resolve_through_them() -> None:
    # PyYAML's shape: `from .error import *` in every module, and a package that re-exports
    # its modules' names with `*` in turn.
    sites = link(
        {
            "yamlish/error.py": """
                class MarkedError(Exception):
                    pass

                class ConstructorError(MarkedError):
                    def __init__(self, context, problem):
                        super().__init__(f"{context}: {problem}")
                """,
            "yamlish/messages.py": """
                from .error import *
                UNKNOWN = "could not determine a constructor"
                """,
            "yamlish/constructor.py": """
                from .messages import *
                from os.path import *

                def construct_undefined(node):
                    if node.tag is None:
                        raise ConstructorError("while constructing", UNKNOWN)
                    raise MarkedError(f"bad tag {node.tag}")
                """,
        }
    )
    messages = {s.site.message.text: s for s in sites if s.site.message}
    made = messages["while constructing: could not determine a constructor"]
    assert made.exception is not None
    assert made.exception.qualname == "yamlish.error.ConstructorError"
    assert made.exception.bases == ("yamlish.error.MarkedError", "builtins.Exception")
    marked = messages["bad tag {node.tag}"]
    assert marked.exception is not None and marked.exception.defined_in == "yamlish/error.py"


def test_star_imports_bind_only_what_a_module_exports() -> None:
    # `from m import *` binds the names of m's literal `__all__`, else its public names:
    # a later star import that defines a name without exporting it does not shadow it.
    sites = link(
        {
            "pkg/errors.py": """
                class ParseError(Exception):
                    pass

                class _Hidden(Exception):
                    pass
                """,
            "pkg/compat.py": """
                __all__ = ["shim"]

                class ParseError(Exception):
                    pass

                class _Hidden(Exception):
                    pass

                def shim():
                    pass
                """,
            "pkg/reader.py": """
                from .errors import *
                from .compat import *

                def read(text):
                    if not text:
                        raise ParseError("empty input")
                    raise _Hidden("hidden")
                """,
        }
    )
    messages = by_message(sites)
    parse = messages["empty input"].exception
    assert parse is not None and parse.qualname == "pkg.errors.ParseError"
    hidden = messages["hidden"].exception
    assert hidden is not None and hidden.defined_in is None


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
            from mini.core import Context

            def convert(value, param, ctx: Context | None):
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


def test_a_helper_raising_one_message_under_two_guards_keeps_either() -> None:
    # bench/extraction_check, B13: vllm's `kv_cache_dtype_str_to_dtype` shape.
    sites = link(
        {
            "demo/dtypes.py": """
            def get_dtype(cache_dtype, model_dtype=None):
                if isinstance(cache_dtype, str):
                    if cache_dtype == "auto":
                        return model_dtype
                    elif cache_dtype == "fp8":
                        return 8
                    else:
                        raise ValueError(f"Invalid kv cache dtype: {cache_dtype}")
                elif isinstance(cache_dtype, int):
                    return cache_dtype
                else:
                    raise ValueError(f"Invalid kv cache dtype: {cache_dtype}")

            def pick(kind):
                if kind == "a":
                    return 1
                elif kind == "b":
                    raise KeyError(f"bad kind: {kind}")
                else:
                    raise KeyError(f"bad kind: {kind}")
            """,
            "demo/use.py": """
            from demo.dtypes import get_dtype, pick

            def run(model, bits):
                get_dtype("auto", model)
                get_dtype("fp16")
                get_dtype(f"fp{bits}")
                pick(f"k{bits}")
            """,
        }
    )
    helper = [s for s in sites if s.site.kind is SiteKind.HELPER]
    assert [
        (s.site.message.text if s.site.message else None, [c.statement for c in s.site.conditions])
        for s in helper
    ] == [
        # "auto" takes neither raise; "fp16" surely takes the first.
        ("Invalid kv cache dtype: fp16", []),
        (
            "Invalid kv cache dtype: fp{bits}",
            [
                "isinstance(f'fp{bits}', str) and f'fp{bits}' != 'auto' and (f'fp{bits}' != 'fp8')"
                " or (not isinstance(f'fp{bits}', str) and (not isinstance(f'fp{bits}', int)))"
            ],
        ),
        # `elif` and `else` raise it alike: what they share is the guard.
        ("bad kind: k{bits}", ["f'k{bits}' != 'a'"]),
    ]


def test_a_method_helpers_guard_names_the_object_it_was_called_on() -> None:
    # bench/extraction_check, B17: vllm's `mm_items.get_items("image")` and a backend
    # registry's `Factory.register("cumem")`.
    sites = link(
        {
            "demo/items.py": """
            class Items:
                def get_items(self, modality):
                    if modality not in self:
                        raise KeyError(f"Modality {modality!r} not found.")

            class Factory:
                _registry = {}

                @classmethod
                def register(cls, name):
                    if name in cls._registry:
                        raise ValueError(f"Backend '{name}' is already registered.")
            """,
            "demo/user.py": """
            from demo.items import Factory, Items

            def load(mm_items: Items):
                mm_items.get_items("image")
                Factory.register("cumem")
            """,
        }
    )
    helper = [s for s in sites if s.site.kind is SiteKind.HELPER]
    assert [[c.statement for c in s.site.conditions] for s in helper] == [
        ["'image' not in mm_items"],
        ["'cumem' in Factory._registry"],
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

            from demo.args import ArgumentHandler

            def clean(text, handler: ArgumentHandler):
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
            from demo.types import ParamType, Runner

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
                def __init__(self, path, runner: Runner):
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


# tomlkit 0.12.5's shapes: a message built in a local first, a base that decorates what its
# subclasses pass up, and a factory method that makes the exception from its class.
BUILT_IN_INIT = {
    "demo/errors.py": """
        class ParseError(ValueError):
            def __init__(self, line, col, message=None):
                self._line = line
                if message is None:
                    message = "TOML parse error"
                super().__init__(f"{message} at line {line} col {col}")

        class UnexpectedCharError(ParseError):
            def __init__(self, line, col, char):
                message = f"Unexpected character: {char!r}"
                super().__init__(line, col, message=message)

        class EmptyKeyError(ParseError):
            def __init__(self, line, col):
                super().__init__(line, col, "Empty key")

        class NonExistentKey(KeyError):
            def __init__(self, key):
                message = f'Key "{key}" does not exist.'
                super().__init__(message)
        """,
    "demo/parser.py": """
        from demo.errors import EmptyKeyError, NonExistentKey, ParseError, UnexpectedCharError

        class Parser:
            def parse_error(self, exception=ParseError, *args):
                return exception(self.line, self.col, *args)

            def key(self, name, at):
                if not name:
                    raise EmptyKeyError(at, 0)
                if name not in self.keys:
                    raise NonExistentKey(name)
                raise self.parse_error(UnexpectedCharError, self.current)

            def fail(self, line):
                raise ParseError(line, 0)

            def bad_key(self, key):
                raise self.parse_error(ParseError, f'Invalid key "{key}"')
        """,
}


def test_a_message_built_in_init_through_a_local_and_a_decorating_base() -> None:
    messages = {s.site.line: s.site.message.text for s in link(BUILT_IN_INIT) if s.site.message}
    assert messages[10] == "Empty key at line {at} col 0"
    assert messages[12] == 'Key "{name}" does not exist.'
    # Made by a factory from its class: the class's message, over its own parameters.
    assert messages[13] == "Unexpected character: {char!r} at line {line} col {col}"
    # The default chosen under `if message is None` is no message of its own.
    assert messages[16] == "{message} at line {line} col 0"
    # A factory given a message: the class's message parameter gets it.
    assert messages[19] == 'Invalid key "{key}" at line {line} col {col}'


def test_a_raise_that_chooses_its_exception_raises_the_call_it_makes() -> None:
    sites = link(
        {
            "demo/items.py": """
                def one(iterable, too_short=None, strict=False):
                    if not iterable:
                        raise too_short or ValueError("too few items in iterable (expected 1)")
                    raise KeyError(iterable) if strict else LookupError("no such item")
                """
        }
    )
    found = {(s.exception.name if s.exception else None, s.site.message.text) for s in sites}
    assert found == {
        ("ValueError", "too few items in iterable (expected 1)"),
        ("KeyError", "{iterable}"),
    }


def test_a_raise_of_an_alternative_constructor_raises_its_class() -> None:
    # jsonschema's `raise exceptions.SchemaError.create_from(error)`.
    sites = link(
        {
            "demo/errors.py": """
                class _Error(Exception):
                    def __init__(self, message, path=()):
                        super().__init__(message)
                        self.path = path

                    @classmethod
                    def create_from(cls, other):
                        return cls(other.message, other.path)

                class SchemaError(_Error):
                    \"\"\"The schema itself is invalid.\"\"\"

                    class Detail(Exception):
                        pass
                """,
            "demo/check.py": """
                from demo import errors

                def check_schema(errors_found):
                    for error in errors_found:
                        raise errors.SchemaError.create_from(error)
                    raise errors.SchemaError.Detail("nested")
                """,
        }
    )
    raised = {s.site.line: s.exception for s in sites if s.file == "demo/check.py"}
    assert raised[6] is not None and raised[6].qualname == "demo.errors.SchemaError"
    assert raised[6].defined_in == "demo/errors.py"
    assert raised[7] is not None and raised[7].name == "Detail"  # a class, not a method


# Messages kept in class tables by key: marshmallow 3's `make_error`, Django REST framework's
# `fail`, Django forms' `self.error_messages[...]`.
MESSAGE_TABLES = {
    "demo/fields.py": """
        from gettext import gettext as _
        from demo.errors import ValidationError

        class Field:
            default_error_messages = {
                "required": "Missing data for required field.",
                "null": _("Field may not be null."),
            }

            def make_error(self, key, **kwargs):
                try:
                    msg = self.error_messages[key]
                except KeyError as error:
                    raise AssertionError(f"error key `{key}` does not exist") from error
                return ValidationError(msg.format(**kwargs))

            def fail(self, key, **kwargs):
                msg = self.error_messages[key]
                raise ValidationError(msg.format(**kwargs), code=key)

            def check(self, value):
                if value is None:
                    raise self.make_error("null")

        class Integer(Field):
            default_error_messages = {
                "invalid": "Not a valid integer.",
                "too_large": "Must be at most {max}.",
                "too_small": "Ensure this value is at least %(limit_value)s.",
            }

            def load(self, value, strict):
                if strict:
                    self.fail("too_large", max=10)
                if value == "":
                    raise ValidationError(self.error_messages["too_small"], code="too_small")
                raise self.make_error("invalid")
        """,
    "demo/errors.py": """
        class ValidationError(ValueError):
            pass
        """,
}


def test_messages_from_class_tables_by_key() -> None:
    sites = link(MESSAGE_TABLES)
    found = {
        (
            s.site.line,
            s.site.kind.value,
            s.exception.qualname if s.exception else None,
        ): s.site.message.text if s.site.message else None
        for s in sites
        if s.site.function != "Field.make_error"
    }
    assert found == {
        (24, "raise", "demo.errors.ValidationError"): "Field may not be null.",
        (35, "helper", "demo.errors.ValidationError"): "Must be at most {max}.",
        (37, "raise", "demo.errors.ValidationError"): (
            "Ensure this value is at least {limit_value}."
        ),
        (38, "raise", "demo.errors.ValidationError"): "Not a valid integer.",
        # `fail` raises with what its caller chose: no site of its own we can word.
        (20, "raise", "demo.errors.ValidationError"): "{msg.format(**kwargs)}",
    }


def test_a_class_message_naming_none_of_its_parameters_leaves_the_raise_its_own() -> None:
    sites = link(
        {
            "demo/errors.py": """
                class MarkedError(Exception):
                    def __init__(self, context=None, mark=None, problem=None):
                        self.context, self.mark, self.problem = context, mark, problem

                    def __str__(self):
                        lines = [x for x in (self.context, self.problem) if x]
                        return "\\n".join(lines)
                """,
            "demo/load.py": """
                from demo.errors import MarkedError

                def load(node):
                    raise MarkedError(None, None, "no constructor for the tag %r" % node.tag)
                """,
        }
    )
    (site,) = [s for s in sites if s.file == "demo/load.py"]
    assert site.site.message is not None
    assert site.site.message.text == "no constructor for the tag {node.tag!r}"


# SQLAlchemy 2.0's shape: `util.warn(msg)` (re-exported by `util/__init__.py`) passes its
# message on to `_warnings_warn(message, category)`, which calls `warnings.warn`.
WARNING_HELPERS = {
    "demo/__init__.py": "",
    "demo/exc.py": """
        class SAWarning(RuntimeWarning):
            pass
        """,
    "demo/util/__init__.py": """
        from .langhelpers import warn as warn
        """,
    "demo/util/langhelpers.py": """
        import warnings
        from demo import exc

        def warn(msg, code=None):
            if code:
                _warnings_warn(exc.SAWarning(msg, code=code))
            else:
                _warnings_warn(msg, exc.SAWarning)

        def _warnings_warn(message, category=None, stacklevel=2):
            if category is not None:
                warnings.warn(message, category, stacklevel=stacklevel + 1)
            else:
                warnings.warn(message, stacklevel=stacklevel + 1)
        """,
    "demo/orm.py": """
        from demo import util

        def setup(prop, other):
            if other:
                util.warn("relationship '%s' will copy column %s" % (prop, other))

        def check(prop):
            util.warn("relationship %s conflicts" % prop, code="qzyx")
        """,
}


def test_a_call_of_a_helper_of_a_warning_helper_is_a_warning() -> None:
    sites = [s for s in link(WARNING_HELPERS) if s.file == "demo/orm.py"]
    assert [
        (s.site.kind.value, s.exception.qualname if s.exception else None, s.site.message.text)
        for s in sites
        if s.site.message
    ] == [
        ("warn", "demo.exc.SAWarning", "relationship '{prop}' will copy column {other}"),
        # with a code, `warn` passes on a warning made from the message
        ("warn", "demo.exc.SAWarning", "relationship {prop} conflicts"),
    ]
    assert [c.text for c in sites[0].site.conditions][:1] == ["other"]


# vllm's shape: `MultiModalDataItems.get_items` is the only `get_items` of the version.
RECEIVERS = {
    "media/items.py": """
        class DataItems:
            def get_items(self, modality):
                raise KeyError(f"Modality {modality!r} not found")

        def load() -> "DataItems":
            return DataItems()

        def load_any():
            return DataItems()

        class Parser:
            def parse(self, data) -> DataItems | None:
                return DataItems()

        def make_parser():
            return Parser()

        class Processor:
            def prompt_updates(self, mm_items: DataItems, kwargs):
                raise NotImplementedError
        """,
    "media/models.py": """
        from media.items import DataItems, Processor, load, load_any, make_parser

        class Model:
            def items(self) -> DataItems:
                return DataItems()

            def annotated(self, mm_items: DataItems):
                mm_items.get_items("annotated")

                def replacement(index):
                    return mm_items.get_items("in a closure")

                return replacement

            def from_calls(self):
                load().get_items("made by an annotated function")
                DataItems().get_items("made by its class")
                self.items().get_items("made by an annotated method")
                self.info.parse(None).get_items("from a parse every parse annotates")
                kept = load()
                kept.get_items("kept in a local")
                typed: DataItems = load_any()
                typed.get_items("a local annotated")
                make_parser().parse(None).get_items("from the parse of an object named nowhere")

        class ModelProcessor(Processor):
            def prompt_updates(self, mm_items, kwargs):
                def replacement(index):
                    return mm_items.get_items("a parameter the overridden method annotates")

                return replacement

            def unknown(self, pool, mismatched):
                pool.get_items("a parameter of no known class")
                load_any().get_items("made by a function not annotated")
                mismatched = []
                mismatched.get_items("a list")
                self.cache[0].get_items("a subscript")
        """,
}


def test_a_method_call_reaches_a_helper_only_when_its_object_is_known_to_be_of_its_class(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Whole files, whatever size of file gets a skeleton: the second round, which keeps
    # blanked calls of other files' helpers, is the indexer's (tests/indexing).
    monkeypatch.setattr(extract, "build_skeleton", lambda *_, **__: None)
    sites = link(RECEIVERS)
    found = sorted(
        s.site.message.text
        for s in sites
        if s.site.kind is SiteKind.HELPER and s.site.message and s.file == "media/models.py"
    )
    assert found == [
        "Modality 'a local annotated' not found",
        "Modality 'a parameter the overridden method annotates' not found",
        "Modality 'annotated' not found",
        "Modality 'from a parse every parse annotates' not found",
        "Modality 'from the parse of an object named nowhere' not found",
        "Modality 'in a closure' not found",
        "Modality 'kept in a local' not found",
        "Modality 'made by an annotated function' not found",
        "Modality 'made by an annotated method' not found",
        "Modality 'made by its class' not found",
    ]


def test_a_blanked_function_still_says_what_it_returns(monkeypatch: pytest.MonkeyPatch) -> None:
    # The skeleton blanks `load` (no site in it): its return annotation is kept.
    source = QUIET_FUNCTIONS + textwrap.dedent(RECEIVERS["media/items.py"])
    skeleton = extract.build_skeleton(source)
    assert skeleton is not None and 'def load() -> "DataItems":\n    ...' in skeleton.text
    items = extract_file("media/items.py", source.encode())
    assert items.returns == {"load": "DataItems", "Parser.parse": "DataItems"}
    monkeypatch.setattr(extract, "build_skeleton", lambda *_, **__: None)
    models = extract_file("media/models.py", textwrap.dedent(RECEIVERS["media/models.py"]).encode())
    sites = link_version("demo", [items, models])
    messages = {s.site.message.text for s in sites if s.site.message}
    assert "Modality 'made by an annotated function' not found" in messages
