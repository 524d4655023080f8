"""The names the message's advice gives, resolved before they are offered, and comments
beside a check that veto a way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import checks, indexed_package, offered, page_with_message

from errdex.explain.advice import message_advice
from errdex.store.base import Store

# Shapes of pydantic 2.7.1 (dataclasses.py, _generate_schema.py, main.py) and of vllm
# 0.33.0's pynccl.py, cut down.
SOURCES = {
    "kit/__init__.py": "",
    "kit/dataclasses.py": """
def dataclass(_cls=None, *, init=False, frozen=False):
    assert init is False, "kit.dataclasses.dataclass only supports init=False"
    return _cls
""",
    "kit/schema.py": """
from kit.errors import KitUserError


def check_decorator_fields_exist(decorators, fields):
    fields = set(fields)
    for dec in decorators:
        if "*" in dec.info.fields:
            continue
        if dec.info.check_fields is False:
            continue
        for field in dec.info.fields:
            if field not in fields:
                raise KitUserError(
                    f"Decorators defined with incorrect fields: {dec.cls_ref}.{dec.name}"
                    " (use check_fields=False if you're inheriting from the model"
                    " and intended this)"
                )


def make_tiles(tile=64, paged=False, page_size=None):
    if paged and page_size is None:
        raise ValueError("page_size must be provided when paged=True")
    if tile != 128:
        raise ValueError("this kernel only supports tile=128")


def can_return(dialect, *, is_update_from=False):
    if is_update_from:
        return False
    raise ValueError("please add the additional execution option 'is_update_from=True'")


def render(template, prefix=None):
    if prefix is None:
        raise ValueError(
            'render requires `prefix`. If the output is whole, pass `prefix=""` to opt out.'
        )
    return template


def check_strict(options):
    if options.mode is not True:
        raise ValueError("strict mode only supports validate=True")
""",
    "kit/bits.py": """
class Bits:
    def __init__(self, *values, **kw):
        self.bitwise = kw.pop("bitwise", False)
        self.values = tuple(values)
        if not self.bitwise and "" in values:
            raise ValueError(
                "Can't use the blank value '' in a Bits without setting bitwise=True"
            )
        self.packed = False
        if not self.packed and len(values) > 64:
            raise ValueError("Can't hold over 64 values in a Bits without setting packed=True")
        self.packed = kw.get("packed", False)


class Table:
    def __new__(cls, *args, **kw):
        return cls._new(*args, **kw)

    @classmethod
    def _new(cls, *args, **kw):
        extend = kw.pop("extend", False)
        if not extend and args:
            raise ValueError("Can't redefine a Table without setting extend=True")
""",
    "kit/errors.py": '''
class KitUserError(TypeError):
    """An error raised due to incorrect use of kit."""
''',
    "kit/main.py": """
import warnings


class Model:
    def _iter(self):
        warnings.warn(
            "The private method `_iter` will be removed and should no longer be used.",
            DeprecationWarning,
        )
        return iter(())

    def copy(self):
        warnings.warn("`other_thing` is deprecated", DeprecationWarning)

    def dict(self, **extra):
        if extra:
            warnings.warn("Using extra keyword arguments on `dict` is deprecated.")
        warnings.warn("The `dict` method is deprecated; use `model_dump` instead.")

    def model_dump(self, *, include=None):
        return {}

    @classmethod
    def parse_obj(cls, obj):
        warnings.warn("The `parse_obj` method is deprecated; use `model_validate` instead.")

    @classmethod
    def parse_raw(cls, data):
        warnings.warn(
            "The `parse_raw` method is deprecated; if your data is JSON use "
            "`model_validate_json`, otherwise load the data then use `model_validate` instead."
        )

    @classmethod
    def model_validate(cls, obj, *, strict=None):
        return cls()

    @property
    def __fields_set__(self):
        warnings.warn(
            "The `__fields_set__` attribute is deprecated, use `model_fields_set` instead."
        )
        return set()

    @property
    def model_fields_set(self):
        return set()


def complete_dataclass(cls):
    if hasattr(cls, "__post_init_post_parse__"):
        warnings.warn(
            "Support for `__post_init_post_parse__` has been dropped, the method will not be "
            "called",
            DeprecationWarning,
        )
    return cls
""",
    "kit/_internal/__init__.py": "",
    "kit/_internal/decorators.py": """
def inspect_serializer(serializer):
    if isinstance(serializer, (staticmethod, classmethod)):
        raise TypeError("`@model_serializer` must be applied to instance methods")
""",
    "kit/json_schema.py": """
def model_json_schema(cls):
    if cls.__name__ == "Model":
        raise AttributeError("model_json_schema() must be called on a subclass of Model.")
""",
    "kit/third_party/__init__.py": "",
    "kit/third_party/fmha/__init__.py": "",
    "kit/third_party/fmha/cute/__init__.py": "",
    "kit/third_party/fmha/cute/interface.py": """
class Wrapper:
    def plan(self, capturing):
        if capturing:
            raise RuntimeError("plan() must be called outside graph capture")
""",
    "kit/envs.py": """
import os

KIT_DISABLE_FAST_COMM = os.environ.get("KIT_DISABLE_FAST_COMM", "0") == "1"
KIT_ENABLE_EMBEDS = os.environ.get("KIT_ENABLE_EMBEDS", "0") == "1"
""",
    "kit/comm.py": """
from kit import envs


class Communicator:
    def join(self, world_size, library_path=None):
        if world_size == 1 or envs.KIT_DISABLE_FAST_COMM:
            return None
        try:
            lib = load_library(library_path)
        except Exception as e:
            # Unlike the other path, silently disabling here leaves the peer blocked
            # until timeout, so fail loudly instead.
            raise RuntimeError("failed to load the library for rendezvous") from e
        return lib

    def send(self, world_size):
        if world_size == 1 or envs.KIT_DISABLE_FAST_COMM:
            return None
        # the library is optional here
        raise RuntimeError("fast comm is not available")


def init_state(supports_embeds):
    # Reject enable_embeds for states that would silently ignore it.
    if envs.KIT_ENABLE_EMBEDS and not supports_embeds:
        raise ValueError("embeds not supported with this state")


def load_library(path):
    return path


def load_codec(path):
    try:
        return load_library(path)
    except ImportError:
        raise RuntimeError("failed to load the codec: its package is missing") from None
""",
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kit"), "kit", SOURCES)


def test_an_aside_that_instructs_is_advice() -> None:
    (advice,) = message_advice("Bad fields: {x} (use check_fields=False if you meant this)")
    assert advice.text == "use check_fields=False if you meant this"
    assert advice.kind == "input"
    # an aside that says no more than what it is stays part of its sentence
    assert message_advice("Bad fields: {x} (a model field)") == []


def test_consider_with_a_gerund_is_advice() -> None:
    (advice,) = message_advice("This causes a spike; consider extending warmup to cover it.")
    assert advice.text == "consider extending warmup to cover it."
    assert message_advice("Extending warmup to cover it.") == []


def test_the_one_value_supported_is_a_keyword_of_the_public_call(store: Store) -> None:
    page = page_with_message(store, "kit", "kit.dataclasses.dataclass only supports")
    first = page.solutions[0]
    assert first.text.startswith("Pass `init=False` to `kit.dataclasses.dataclass`, as the message")
    assert page.example_fix is not None
    assert page.example_fix.after == "from kit.dataclasses import dataclass\ndataclass(init=False)"


def test_a_keyword_the_check_tests_is_offered_with_that_test(store: Store) -> None:
    page = page_with_message(store, "kit", "Decorators defined with incorrect fields")
    assert page.solutions[0].text.startswith(
        "Use `check_fields=False` (the check tests `dec.info.check_fields is not False`, "
        "which is then false), as the message says: “use check_fields=False if"
    )


def test_a_keyword_a_refused_use_needs_is_popped_from_the_constructors_keywords(
    store: Store,
) -> None:
    # SQLAlchemy 2.0.30 mysql SET: `retrieve_as_bitwise` is taken out of `**kw`, no parameter
    page = page_with_message(store, "kit", "Can't use the blank value")
    first = page.solutions[0]
    assert first.text.startswith("Pass `bitwise=True` to `kit.bits.Bits`, as the message says")
    assert first.fix is not None
    assert first.fix.before == "from kit.bits import Bits\nBits()", first.fix
    assert first.fix.after == "from kit.bits import Bits\nBits(bitwise=True)", first.fix
    # a key read after the check is no keyword the check sees as given
    page = page_with_message(store, "kit", "Can't hold over 64 values")
    assert not any(s.text.startswith("Pass `packed=True` to") for s in page.solutions)
    assert offered(page) == [
        "Pass the argument `values` of `Bits` with a length at most `64`.",
        "Use `packed=True` (the check tests `not self.packed and len(values) > 64`, which is "
        "then false), as the message says",
    ]
    # a private function's keywords are those its public caller hands on: no call of the
    # user's to write it into
    page = page_with_message(store, "kit", "Can't redefine a Table")
    assert not any(s.text.startswith("Pass `extend=True` to") for s in page.solutions)
    assert offered(page) == [
        "Use `extend=True` (the check tests `not extend and args`, which is then false), as the "
        "message says"
    ]
    # a sentence that refuses nothing gives no keyword
    assert message_advice("Loaded the table without setting bitwise=True") == []


def test_a_keyword_the_call_left_out_is_added_by_the_fix(store: Store) -> None:
    # vllm 0.33.0 ResponseParser: the check is of the argument left out (`prefix is None`)
    page = page_with_message(store, "kit", "render requires `prefix`")
    (said,) = [s for s in page.solutions if s.text.startswith('Pass `prefix=""` to `kit.')]
    assert said.fix is not None
    assert said.fix.before.endswith("render(template=TEMPLATE)"), said.fix
    assert said.fix.after.endswith('render(template=TEMPLATE, prefix="")'), said.fix


def test_a_keyword_that_resolves_to_nothing_is_no_setting(store: Store) -> None:
    # `validate` is neither a parameter of `check_strict` nor a name its check tests
    page = page_with_message(store, "kit", "strict mode only supports validate=True")
    assert all("Pass `validate=True`" not in s.text for s in page.solutions)
    assert all(s.change is None for s in page.solutions if "validate=True" in s.text)


def test_a_keyword_that_names_the_case_is_not_the_advice(store: Store) -> None:
    page = page_with_message(store, "kit", "page_size must be provided when paged=True")
    assert not any("`paged=True`" in s.text.split(",")[0] for s in page.solutions)
    assert offered(page) == [
        "Pass an empty (false) value for the argument `paged` of `make_tiles`, or leave it out "
        "(it is `False` by default).",
        "Provide page_size when paged=True, as the message says",
    ]
    page = page_with_message(store, "kit", "this kernel only supports tile=128")
    # the message does not name `make_tiles`: the keyword, not the call
    assert any(
        s.text.startswith("Use `tile=128` (the check tests `tile != 128`") for s in page.solutions
    )


def test_a_keyword_of_a_helper_the_message_does_not_name_is_no_call(store: Store) -> None:
    page = page_with_message(store, "kit", "please add the additional execution option")
    assert all(s.change is None for s in page.solutions)


def test_a_retired_method_is_one_to_stop_calling(store: Store) -> None:
    page = page_with_message(store, "kit", "The private method `_iter` will be removed")
    assert page.solutions[0].text.startswith("Stop using `Model._iter` in your code")
    # a name the message retires that is not the function warning: no solution from it
    other = page_with_message(store, "kit", "`other_thing` is deprecated")
    assert not any("Stop using" in s.text for s in other.solutions)
    assert offered(other) == [] and "issues a warning" in other.what_it_means
    # what is retired is the use of extra keywords, not the method they are passed to
    extra = page_with_message(store, "kit", "Using extra keyword arguments on `dict`")
    assert not any("Stop using" in s.text for s in extra.solutions)
    assert offered(extra) == [
        "Leave out the keyword arguments that `**extra` of `Model.dict` collects (any keyword "
        "it does not name)"
    ]
    # the replacement the message names is quoted with it, once
    (whole,) = page_with_message(store, "kit", "The `dict` method is deprecated").solutions
    assert whole.text == (
        "Stop using `Model.dict` in your code, as the message says: “The `dict` method is "
        "deprecated; use `model_dump` instead.”"
    )


def test_a_retired_name_the_check_looks_up_on_the_users_class_is_one_to_stop_using(
    store: Store,
) -> None:
    # pydantic 2.7.1 _internal/_dataclasses.py: the user's dataclass defines the method
    page = page_with_message(store, "kit", "Support for `__post_init_post_parse__`")
    assert page.solutions[0].text.startswith(
        "Stop using `__post_init_post_parse__` in your code, as the message says: “Support for"
    )


def test_how_a_thing_must_be_applied_is_said_to_its_user(store: Store) -> None:
    # a decorator the user wrote, though the check is in a private module
    page = page_with_message(store, "kit", "`@model_serializer` must be applied")
    assert page.solutions[0].text.startswith("Apply `@model_serializer` to instance methods,")
    # a function a user calls
    page = page_with_message(store, "kit", "model_json_schema() must be called")
    assert page.solutions[0].text.startswith("Call model_json_schema() on a subclass of Model,")
    # a vendored kernel's method, which the package's own code calls
    page = page_with_message(store, "kit", "plan() must be called outside")
    assert not any("as the message says" in s.text for s in page.solutions), page.solutions
    assert offered(page) == [] and checks(page)


def test_a_retired_method_swapped_for_the_one_the_message_names_is_the_fix(
    store: Store,
) -> None:
    fix = page_with_message(store, "kit", "The `parse_obj` method is deprecated").example_fix
    assert fix is not None
    assert (fix.before, fix.after) == ("model.parse_obj(OBJ)", "model.model_validate(OBJ)")
    assert fix.note is not None and "(`kit.main.Model`)" in fix.note
    attribute = page_with_message(store, "kit", "The `__fields_set__` attribute").example_fix
    assert attribute is not None
    assert (attribute.before, attribute.after) == ("model.__fields_set__", "model.model_fields_set")
    # what the old one takes and the new one does not is said, not kept
    dump = page_with_message(store, "kit", "The `dict` method is deprecated").example_fix
    assert dump is not None and dump.after == "model.model_dump()"
    assert dump.note is not None and "not `**extra`" in dump.note
    # two replacements, each for a case: no one call to write
    assert page_with_message(store, "kit", "The `parse_raw` method").example_fix is None


def test_a_comment_beside_the_raise_vetoes_the_setting_it_warns_against(store: Store) -> None:
    page = page_with_message(store, "kit", "failed to load the library for rendezvous")
    assert not any(s.knob == "KIT_DISABLE_FAST_COMM" for s in page.solutions)
    assert page.example_fix is None or "KIT_DISABLE_FAST_COMM" not in page.example_fix.after
    assert "`KIT_DISABLE_FAST_COMM` would skip the check, but the comment" in page.what_it_means
    # the same setting before a check with no such comment is a way out
    other = page_with_message(store, "kit", "fast comm is not available")
    assert any(s.knob == "KIT_DISABLE_FAST_COMM" for s in other.solutions)


def test_a_comment_against_what_a_setting_does_keeps_the_way_out_that_leaves_it_off(
    store: Store,
) -> None:
    # the comment warns against ignoring the setting once it is on (enabling it silently
    # for nothing), not against leaving it off
    page = page_with_message(store, "kit", "embeds not supported with this state")
    first = page.solutions[0]
    assert first.knob == "KIT_ENABLE_EMBEDS" and first.drops, first
    assert "warns against that way out" not in page.what_it_means


def test_a_failed_load_of_the_callers_path_asks_for_a_path_that_loads(store: Store) -> None:
    page = page_with_message(store, "kit", "failed to load the library for rendezvous")
    assert page.solutions[0].text.startswith(
        "Pass for `library_path` of `Communicator.join` a path that `load_library` loads: "
        "`load_library(library_path)` in the `try` at line"
    )
    # under `except ImportError` what failed is a package, not the path
    codec = page_with_message(store, "kit", "failed to load the codec")
    assert not any("a path that" in s.text for s in codec.solutions)
    assert offered(codec) == []
    assert "It runs when `load_library(path)` (the `try` at line 36)" in codec.what_it_means
