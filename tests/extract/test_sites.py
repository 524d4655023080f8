"""Which statements are error sites, and what each records."""

from __future__ import annotations

import textwrap

from extract_samples import facts_of, messages, only_site, sites_of

from errdex.extract import extract_file
from errdex.facts import SiteKind
from samples import QUIET_FUNCTIONS


def test_raise_with_message_and_cause() -> None:
    site = only_site(
        """
        def load(path):
            try:
                return open(path)
            except OSError as err:
                raise ConfigError(f"cannot read {path!r}") from err
        """
    )
    assert site.kind is SiteKind.RAISE
    assert site.exception == "ConfigError"
    assert site.message is not None and site.message.text == "cannot read {path!r}"
    assert site.cause == "err"
    assert (site.function, site.line, site.end_line) == ("load", 6, 6)


def test_bare_raise_is_a_reraise_of_what_was_caught() -> None:
    site = only_site(
        """
        def f():
            try:
                g()
            except (KeyError, IndexError):
                cleanup()
                raise
        """
    )
    assert site.kind is SiteKind.RERAISE
    assert site.exception == "(KeyError, IndexError)"


def test_raise_of_the_caught_name_is_a_reraise() -> None:
    site = only_site(
        """
        def f():
            try:
                g()
            except ValueError as e:
                raise e
        """
    )
    assert site.kind is SiteKind.RERAISE
    assert site.exception == "ValueError"


def test_assert_message_and_negated_condition() -> None:
    site = only_site(
        """
        def f(x):
            assert x is not None, "x must be set"
        """
    )
    assert site.kind is SiteKind.ASSERT
    assert site.exception == "AssertionError"
    assert site.message is not None and site.message.text == "x must be set"
    (condition,) = site.conditions
    assert (condition.test, condition.holds, condition.statement) == (
        "x is not None",
        False,
        "x is None",
    )


def test_warnings_with_category() -> None:
    sites = sites_of(
        """
        import warnings
        def f(n):
            warnings.warn(f"{n} is deprecated", DeprecationWarning, stacklevel=2)
            warnings.warn("plain")
        """
    )
    assert [(s.kind, s.exception) for s in sites] == [
        (SiteKind.WARN, "DeprecationWarning"),
        (SiteKind.WARN, "UserWarning"),
    ]
    assert sites[0].message is not None and sites[0].message.text == "{n} is deprecated"


def test_logging_at_warning_and_above_with_lazy_args() -> None:
    sites = sites_of(
        """
        import logging
        logger = logging.getLogger(__name__)
        def f(name, n):
            logger.debug("not a site %s", name)
            logger.info("not a site either")
            logger.warning("model %s has %d layers", name, n)
            logger.error_once("once: %r", name)
            logging.critical("root logger")
            self.log.exception("failed")
            logger.log(logging.ERROR, "via log(): %s", name)
            logger.log(logging.INFO, "info via log()")
            catalog.error("not a logger")
        """
    )
    assert [(s.level, s.message.text if s.message else None) for s in sites] == [
        ("warning", "model {name} has {n:d} layers"),
        ("error", "once: {name!r}"),
        ("critical", "root logger"),
        ("exception", "failed"),
        ("error", "via log(): {name}"),
    ]
    assert all(s.kind is SiteKind.LOG for s in sites)


def test_sys_exit_with_a_message_only() -> None:
    sites = sites_of(
        """
        import sys
        def main(code):
            sys.exit(code)
            sys.exit(f"fatal: {code}")
        """
    )
    assert [(s.kind, s.message.text if s.message else None) for s in sites] == [
        (SiteKind.EXIT, "fatal: {code}")
    ]


def test_message_built_in_a_local_variable() -> None:
    site = only_site(
        """
        def check(self, level):
            msg = "Invalid compilation level: "
            msg += f"{level}. "
            msg += "Expected one of 0, 1, 2, 3."
            raise ValueError(msg)
        """
    )
    assert site.message is not None
    assert site.message.text == "Invalid compilation level: {level}. Expected one of 0, 1, 2, 3."


def test_conditional_additions_to_a_message_stay_open() -> None:
    site = only_site(
        """
        def check(extra):
            msg = "bad input"
            if extra:
                msg += f" ({extra})"
            raise ValueError(msg)
        """
    )
    assert site.message is not None
    assert site.message.text == 'bad input{f" ({extra})"}'


def test_an_addition_is_text_for_a_site_in_its_own_block() -> None:
    # vllm 0.33.0 config/compilation.py: the raise is in the `if` that adds to the message,
    # so the added text is surely there; after a nested `if` that adds more, that stays open.
    sites = sites_of(
        """
        def check(mode, backend, support, strict):
            msg = (
                f"CUDAGraphMode.{mode.name} is not supported "
                f"with {backend} backend (support: {support})"
            )
            if support == NEVER:
                msg += (
                    "; please try cudagraph_mode=PIECEWISE, and "
                    "make sure compilation mode is VLLM_COMPILE"
                )
                if strict:
                    msg += " in strict mode"
                    warnings.warn(msg)
                raise ValueError(msg)
        """
    )
    head = "CUDAGraphMode.{mode.name} is not supported with {backend} backend (support: {support})"
    added = "; please try cudagraph_mode=PIECEWISE, and make sure compilation mode is VLLM_COMPILE"
    assert [s.message.text if s.message else None for s in sites] == [
        f"{head}{added} in strict mode",
        f'{head}{added}{{" in strict mode"}}',
    ]


def test_a_message_chosen_in_branches_is_a_site_per_message_with_its_branch() -> None:
    # Jinja2 2.x's `Undefined._fail_with_undefined_error`, shortened.
    sites = sites_of(
        """
        class Undefined:
            def _fail(self):
                if self._hint is None:
                    if self._obj is missing:
                        hint = "%r is undefined" % self._name
                    elif not isinstance(self._name, str):
                        hint = "%s has no element %r" % (type(self._obj), self._name)
                    else:
                        hint = f"{type(self._obj)!r} has no attribute {self._name!r}"
                else:
                    hint = self._hint
                raise self._exception(hint)
        """
    )
    assert [(s.line, s.message.text if s.message else None) for s in sites] == [
        (13, "{self._name!r} is undefined"),
        (13, "{type(self._obj)} has no element {self._name!r}"),
        (13, "{type(self._obj)!r} has no attribute {self._name!r}"),
        (13, "{hint}"),  # not text: the name it is raised as
    ]
    assert [c.statement for c in sites[1].conditions] == [
        "self._hint is None",
        "self._obj is not missing",
        "not isinstance(self._name, str)",
    ]
    assert [c.statement for c in sites[3].conditions] == ["self._hint is not None"]


def test_messages_chosen_in_branches_through_translation_calls() -> None:
    # wtforms' `NumberRange.__call__`, shortened: each branch's text comes through the
    # field's translations (`field.gettext`, `_`), which are text, not calls that may build
    # a reasons list.
    sites = sites_of(
        """
        class NumberRange:
            def __call__(self, form, field):
                if self.message is not None:
                    message = self.message
                elif max_value is None:
                    message = field.gettext("Number must be at least %(min)s.")
                else:
                    message = _("Number must be between %(min)s and %(max)s.")
                raise ValidationError(message % dict(min=min_value, max=max_value))
        """
    )
    assert [s.message.text if s.message else None for s in sites] == [
        "{message}",
        "Number must be at least {min_value}.",
        "Number must be between {min_value} and {max_value}.",
    ]


def test_a_configured_message_or_a_default_text_is_the_default_text() -> None:
    # wtforms' fields: `raise ValueError(self.invalid_value_message or self.gettext("..."))`.
    site = only_site(
        """
        class DateTimeField:
            def process_formdata(self, valuelist):
                raise ValueError(
                    self.invalid_value_message or self.gettext("Not a valid datetime value.")
                )
        """
    )
    assert site.message is not None and site.message.text == "Not a valid datetime value."


def test_a_default_message_an_if_may_replace_is_a_site_per_message() -> None:
    sites = sites_of(
        """
        def heads(script, message=None):
            if message is None:
                message = "Multiple heads are present"
            raise CommandError(message)

        def retried(items):
            error = "nothing to retry"
            for item in items:
                if item.failed:
                    error = f"{item} failed"
            raise RetryError(error)
        """
    )
    assert [(s.function, s.message.text if s.message else None) for s in sites] == [
        ("heads", "{message}"),  # the parameter's own value
        ("heads", "Multiple heads are present"),
        ("retried", "nothing to retry"),
        ("retried", "{item} failed"),
    ]
    # A value is raised when no later branch replaced it: the caller's message when it
    # gave one. A loop's replacement needs more than one test to fail, so none is given.
    assert [c.statement for c in sites[0].conditions] == ["message is not None"]
    assert [c.statement for c in sites[1].conditions] == ["message is None"]
    assert [c.statement for c in sites[2].conditions] == []
    assert [c.statement for c in sites[3].conditions] == ["for item in items", "item.failed"]


def test_a_none_the_raise_tests_for_is_no_message() -> None:
    # bench/extraction_check, B15: vllm's `mono_decode.py` shape.
    sites = sites_of(
        """
        def check(a, b):
            why: str | None = None
            if a:
                why = "needs a"
            elif b:
                why = "needs b"
            if why is not None:
                raise ValueError(f"unsupported: {why}.")
        """
    )
    assert [s.message.text if s.message else None for s in sites] == [
        "unsupported: needs a.",
        "unsupported: needs b.",
    ]


def test_a_default_every_branch_replaces_is_no_site() -> None:
    # Every way to the raise assigns the message again (a branch that raises counts as one),
    # so the first value never reaches it.
    sites = sites_of(
        """
        def pick(kind, strict):
            msg = "unknown failure here"
            if kind == "a":
                msg = "kind a is not supported"
            elif strict:
                msg = "strict mode needs kind a"
            else:
                raise KeyError(kind)
            raise ValueError(msg)
        """
    )
    assert [(s.line, s.message.text if s.message else None) for s in sites] == [
        (9, "{kind}"),
        (10, "kind a is not supported"),
        (10, "strict mode needs kind a"),
    ]
    # Past the `if`, one of its tests held; then the branch that chose the message.
    assert [c.statement for c in sites[2].conditions] == [
        'kind == "a" or strict',
        "kind != 'a'",
        "strict",
    ]


def test_a_chosen_message_formatted_before_the_raise_is_a_site_per_message() -> None:
    # alembic's `ScriptDirectory._catch_revision_errors`, shortened.
    sites = sites_of(
        """
        def catch(self, multiple_heads=None, end=None):
            try:
                yield
            except MultipleHeads as mh:
                if not multiple_heads:
                    multiple_heads = (
                        "Multiple head revisions are present for given argument "
                        "'%(head_arg)s'; please specify a specific target revision"
                    )
                multiple_heads = multiple_heads % {"head_arg": end or mh.argument}
                raise CommandError(multiple_heads) from mh
        """
    )
    assert [(s.message.text if s.message else None, len(s.conditions)) for s in sites] == [
        # the caller's own message, formatted, when it gave one (at each call, by the linker)
        ('{multiple_heads % {"head_arg": end or mh.argument}}', 2),
        (
            "Multiple head revisions are present for given argument '{end or mh.argument}'; "
            "please specify a specific target revision",
            2,
        ),
    ]
    assert sites[0].conditions[-1].statement == "multiple_heads"
    assert sites[1].conditions[-1].statement == "not multiple_heads"


def test_a_raised_object_has_the_class_a_test_gives_it_or_none() -> None:
    # bench/extraction_check, B18: `raise result` names no class.
    sites = sites_of(
        """
        from errors import error

        def gather(results, exc):
            for result in results:
                if isinstance(result, BaseException):
                    raise result
            if exc:
                raise exc
            raise error
        """
    )
    assert [s.exception for s in sites] == ["BaseException", None, "error"]


def test_a_closure_raises_the_message_its_enclosing_function_built() -> None:
    # networkx's `not_implemented_for` decorator, shortened.
    sites = sites_of(
        """
        def not_implemented_for(*graph_types):
            errmsg = f"not implemented for {' '.join(graph_types)} type"

            def _not_implemented_for(g):
                if g.is_directed():
                    raise NetworkXNotImplemented(errmsg)
                return g

            def own(errmsg):
                raise ValueError(errmsg)  # its parameter, not the closure's

            return _not_implemented_for

        def outer(items):
            hint = "first message"

            def check(x):
                if not x:
                    raise ValueError(hint)  # read when called: after `hint` changed

            hint = "second message"
            for item in items:
                check(item)
        """
    )
    assert [(s.function, s.message.text if s.message else None) for s in sites] == [
        (
            "not_implemented_for.<locals>._not_implemented_for",
            "not implemented for {' '.join(graph_types)} type",
        ),
        ("not_implemented_for.<locals>.own", "{errmsg}"),
        ("outer.<locals>.check", "{hint}"),
    ]


def test_a_message_with_one_value_at_the_raise_is_one_site() -> None:
    sites = sites_of(
        """
        def check(x, extra):
            msg = "bad x"
            if x:
                raise ValueError(msg)
            msg = "worse x"
            if extra:
                msg += f" ({extra})"  # added to: no longer a choice of whole messages
            raise ValueError(msg)
        """
    )
    assert [s.message.text if s.message else None for s in sites] == [
        "bad x",
        'worse x{f" ({extra})"}',
    ]


def test_message_keyword_argument() -> None:
    site = only_site(
        """
        def f(item_id):
            raise HTTPException(status_code=404, detail=f"Item {item_id} not found")
        """
    )
    assert site.message is not None and site.message.text == "Item {item_id} not found"


def test_module_constant_message_is_inlined() -> None:
    assert messages(
        """
        NOT_FOUND = "no such model: {}"
        def f(name):
            raise LookupError(NOT_FOUND.format(name))
        """
    ) == ["no such model: {name}"]


def test_qualnames_of_methods_nested_functions_and_classes() -> None:
    sites = sites_of(
        """
        class Outer:
            class Inner:
                def method(self):
                    def helper():
                        raise RuntimeError("deep")
                    raise RuntimeError("method")
        raise ImportError("module level")
        """
    )
    assert [(s.function, s.class_name) for s in sites] == [
        ("Outer.Inner.method.<locals>.helper", "Outer.Inner"),
        ("Outer.Inner.method", "Outer.Inner"),
        ("<module>", None),
    ]


def test_raising_helpers_are_found() -> None:
    facts = facts_of(
        """
        class Context:
            def fail(self, message):
                raise UsageError(message, self)
        def convert(value, param, ctx):
            ctx.fail(f"{value!r} is not a valid integer.")
        """
    )
    (helper,) = facts.helpers
    assert (helper.name, helper.param, helper.exception) == ("fail", "message", "UsageError")
    (call,) = facts.calls
    assert (call.callee, call.receiver, call.function) == ("fail", "ctx", "convert")


def test_exception_class_building_its_message() -> None:
    facts = facts_of(
        """
        class ModelNotFound(Exception):
            \"\"\"The model is not in the registry.\"\"\"
            def __init__(self, name, hint=""):
                super().__init__(f"Model {name!r} not found. {hint}")
        """
    )
    (cls,) = facts.classes
    assert cls.bases == ("Exception",)
    assert cls.docstring == "The model is not in the registry."
    assert cls.init_params == ("name", "hint")
    assert cls.message is not None and cls.message.text == "Model {name!r} not found. {hint}"


def test_exception_class_passing_its_message_up_from_a_local() -> None:
    facts = facts_of(
        """
        class UnexpectedCharError(ParseError):
            def __init__(self, line, col, char):
                message = f"Unexpected character: {char!r}"
                super().__init__(line, col, message=message)

        class NonExistentKey(KeyError):
            def __init__(self, key):
                message = f'Key "{key}" does not exist.'
                super().__init__(message)
        """
    )
    unexpected, missing = facts.classes
    # The base builds the message: the linker gets what is passed up, over the parameters.
    assert unexpected.message is None
    assert [(a.name, a.source) for a in unexpected.super_args] == [
        (None, "line"),
        (None, "col"),
        ("message", "message"),
    ]
    passed = unexpected.super_args[2].template
    assert passed is not None and passed.text == "Unexpected character: {char!r}"
    assert missing.message is not None and missing.message.text == 'Key "{key}" does not exist.'


def test_module_constants_and_imports() -> None:
    facts = facts_of(
        """
        from . import envs
        from ..utils import helper as h
        import os.path
        UNSUPPORTED = {"DeepseekV4ForCausalLM"}
        LIMIT: int = 8
        TABLE = {"a": "alpha"}
        computed = os.getcwd()
        """,
        path="vllm/config/vllm.py",
    )
    assert facts.module == "vllm.config.vllm"
    assert facts.imports == {"envs": "vllm.config.envs", "h": "vllm.utils.helper", "os": "os"}
    assert facts.constants == {
        "UNSUPPORTED": ["DeepseekV4ForCausalLM"],
        "LIMIT": 8,
        "TABLE": {"a": "alpha"},
    }


def test_exception_built_by_a_factory_function() -> None:
    # huggingface_hub/utils/_http.py: raise _format(GatedRepoError, message, response) from e
    site = only_site(
        """
        def hf_raise_for_status(response):
            message = f"{response.status_code} Client Error."
            raise _format(GatedRepoError, message, response) from None
        """
    )
    assert site.exception == "GatedRepoError"
    assert site.message is not None and site.message.text == "{response.status_code} Client Error."


def test_names_bound_only_for_type_checkers_are_not_constants() -> None:
    # B11 of the second hand check: vllm/envs.py declares defaults under TYPE_CHECKING.
    assert messages(
        """
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            LOG_LEVEL = "DEBUG"
        def f():
            raise ValueError(f"Invalid logging level: {LOG_LEVEL}.")
        """
    ) == ["Invalid logging level: {LOG_LEVEL}."]


def test_names_a_function_declares_global_are_not_constants() -> None:
    # B6 of the hand checks: the name is rebound at run time, so its first value is no message.
    assert messages(
        """
        model_tag: str = "backbone"
        MODE = "fast"

        def set_model_tag(tag):
            global model_tag  # set by the caller
            assert tag != model_tag, f"Model tag {tag} is the current tag {model_tag}."
            model_tag = tag

        def check():
            raise ValueError(f"mode {MODE}")
        """
    ) == ["Model tag {tag} is the current tag {model_tag}.", "mode fast"]


def test_a_global_declared_in_a_blanked_body_still_counts() -> None:
    # The function that rebinds the name holds no site word, so the skeleton blanks it.
    filler = QUIET_FUNCTIONS
    source = filler + textwrap.dedent(
        """
        LEVEL = "info"

        def set_level(level):
            global LEVEL, OTHER
            LEVEL = level

        def check(x):
            if x:
                raise ValueError(f"level {LEVEL}")
        """
    )
    facts = extract_file("pkg/levels.py", source.encode())
    assert [s.message.text for s in facts.sites if s.message] == ["level {LEVEL}"]


def test_a_raise_of_an_exception_made_earlier_in_a_local() -> None:
    # marshmallow 3.22's Schema._do_load: `exc = ValidationError(errors, ...)` ... `raise exc`
    site = only_site(
        """
        def load(errors, data):
            exc = ValidationError(f"{len(errors)} errors", data=data)
            handle(exc)
            raise exc
        """
    )
    assert site.exception == "ValidationError"
    assert site.message is not None and site.message.text == "{len(errors)} errors"


def test_the_message_after_leading_none_arguments() -> None:
    # PyYAML 6.0.2: `raise ConstructorError(None, None, "could not ..." % node.tag, mark)`
    site = only_site(
        """
        def construct_undefined(self, node):
            raise ConstructorError(None, None,
                "could not determine a constructor for the tag %r" % node.tag,
                node.start_mark)
        """
    )
    assert site.message is not None
    assert site.message.text == "could not determine a constructor for the tag {node.tag!r}"


def test_warning_helpers_and_calls_passing_a_message_on() -> None:
    facts = facts_of(
        """
        def _warnings_warn(message, category=None, stacklevel=2):
            if category is not None:
                warnings.warn(message, category, stacklevel=stacklevel + 1)
            else:
                warnings.warn(message, stacklevel=stacklevel + 1)

        def warn(msg, code=None):
            if code:
                _warnings_warn(exc.SAWarning(msg, code=code))
            else:
                _warnings_warn(msg, exc.SAWarning)
            _other(count)
        """
    )
    (helper,) = facts.helpers
    assert (helper.qualname, helper.kind, helper.param) == (
        "_warnings_warn",
        SiteKind.WARN,
        "message",
    )
    # The same message under either branch: made whichever holds, so no guard.
    assert helper.conditions == ()
    assert helper.defaults == {"category": "None", "stacklevel": "2"}
    # Both calls pass the message on (as it is, or made into a warning first); `_other`
    # passes no message parameter and says nothing here.
    assert [(c.callee, c.line, c.params, c.defaults) for c in facts.calls] == [
        ("_warnings_warn", 10, ("msg", "code"), {"code": "None"}),
        ("_warnings_warn", 12, ("msg", "code"), {"code": "None"}),
    ]


def test_an_argument_parsers_error_is_an_exit_site_printed_by_argparse() -> None:
    sites = sites_of(
        """
        def main(argv):
            if not argv:
                self.parser.error("no valid command or option passed.")
            try:
                run(argv)
            except OptionError as err:
                parser.error(str(err))
            self.log.error("not a parser: %s", argv)
        """
    )
    exits = [s for s in sites if s.kind is SiteKind.EXIT]
    assert [(s.line, s.message.text if s.message else None, s.printer) for s in exits] == [
        (4, "no valid command or option passed.", "argparse"),
        (8, "{err}", "argparse"),
    ]


def test_a_table_of_reasons_each_with_its_own_test_is_a_reasons_list() -> None:
    # vllm's `SubstitutedRoutedExperts.__init__`, shortened: each pair's text is a reason,
    # added when the test beside it is true.
    site = only_site(
        """
        def check(cfg, lora):
            unsupported = [
                name
                for name, enabled in (
                    ("MoE LoRA", lora),
                    ("EPLB", cfg.enable_eplb or cfg.n != cfg.m),
                )
                if enabled
            ]
            if unsupported:
                raise NotImplementedError("not supported: " + ", ".join(unsupported))
        """
    )
    assert site.reasons is not None
    assert [
        (v.reason.text, [c.statement for c in v.conditions]) for v in site.reasons.variants
    ] == [
        ("MoE LoRA", ["lora"]),
        ("EPLB", ["cfg.enable_eplb or cfg.n != cfg.m"]),
    ]


def test_a_comprehension_that_is_no_table_of_reasons_is_none() -> None:
    site = only_site(
        """
        def check(items):
            bad = [name for name, ok in items if not ok]
            if bad:
                raise ValueError("bad: " + ", ".join(bad))
        """
    )
    assert site.reasons is None or not site.reasons.variants


def test_an_error_code_before_the_text_gives_the_text_filled_from_its_mapping() -> None:
    # A class taking an error code first and the message after it, filled from the mapping
    # that follows (`PydanticCustomError(error_type, message_template, context)`); a builtin
    # exception prints the tuple of its arguments, and a code alone stays the message.
    found = messages(
        """
        MAX = 2048
        def check(value, name):
            if len(value) > MAX:
                raise CustomError(
                    "value_error",
                    "value is not a valid address: {reason}",
                    {"reason": f"Length must not exceed {MAX} characters"},
                )
            if value.startswith("x"):
                raise CustomError("pattern_type", "Input should be a valid pattern")
            if value.startswith("y"):
                raise CustomError("import_error", "Invalid path: {error}", {"error": str(value)})
            if value.startswith("z"):
                raise ValueError("bad_key", "some text here")
            if value.startswith("w"):
                raise OtherError("bad_key", name)
            raise CustomError("value_error", f"got {value}")
        """
    )
    assert found == [
        "value is not a valid address: Length must not exceed 2048 characters",
        "Input should be a valid pattern",
        "Invalid path: {value}",
        "bad_key",
        "bad_key",
        "got {value}",
    ]


def test_a_test_made_again_after_an_assignment_in_between_is_dropped() -> None:
    # `frame` is walked back in a loop between the outer test and the assert, which makes
    # the same test again: side by side the two would contradict each other. An assignment
    # in the other branch of an `if` comes between neither; a test no later one makes
    # again stays, as does one a different later test follows.
    sites = sites_of(
        """
        def caller_frame(offset):
            frame = currentframe()
            if frame is not None:
                while offset and frame is not None:
                    frame = frame.f_back
                    offset -= 1
                assert frame is not None
                return frame

        def other(x, cond):
            if x is None:
                if cond:
                    x = 5
                else:
                    raise ValueError("x missing")
            if x is None:
                x = load()
                if x is None:
                    raise ValueError("still missing")
            return x

        def loaded(parts, likely):
            found = load(parts)
            if found is not None:
                return found
            if likely is not None:
                found = load(likely)
                if found is not None:
                    return found
            raise LookupError("no locale")

        def pixels(values):
            if values is None:
                return None
            if isinstance(values, list):
                values = cat(values)
            assert isinstance(values, Tensor)
        """
    )
    assert [[c.text for c in s.conditions] for s in sites] == [
        ["frame is None"],
        ["x is None", "not cond"],
        ["x is None"],
        ["found is None"],
        ["values is not None", "not isinstance(values, Tensor)"],
    ]
