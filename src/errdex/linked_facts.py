"""Records the linker adds to a version's sites: the exception class resolved, the callers,
the settings and selections behind a condition, the tests, the texts shown, the subclasses
that define a method again, and the indexed site that carries them all to the store.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from errdex.facts import (
    Binding,
    Condition,
    ErrorSite,
    KnobKind,
    MessageTemplate,
)
from errdex.lazy_re import lazy_compile
from errdex.reading_facts import SourceRead
from errdex.struct_hints import evaluate_field_types


class ExceptionInfo(msgspec.Struct, frozen=True, gc=False):
    """An exception class as written at a site and as resolved by the linker."""

    name: str  # as written, last component: `ConfigError`
    qualname: str  # resolved: `vllm.config.ConfigError`, `builtins.ValueError`, or as written
    bases: tuple[str, ...] = ()  # resolved qualnames of the bases, nearest first
    docstring: str | None = None
    defined_in: str | None = None  # file path inside the version, when defined there
    line: int | None = None


class CallerLink(msgspec.Struct, frozen=True, gc=False):
    """A function that calls the site's function (or a caller of it), with that call's guard."""

    function: str  # qualname inside its module
    module: str
    file: str
    line: int  # the line of the call
    calls: str  # the qualname of the function it calls
    guard: tuple[Condition, ...] = ()  # what holds on the path to the call
    depth: int = 1  # 1: calls the site's function; 2: calls a depth-1 caller; ...
    guard_known: bool = True  # False: the call's guard was not read (see `CallSite`)
    # the locals the guard tests true, bound to what they are true through (`CallSite`)
    bindings: tuple[Binding, ...] = ()
    # the path a user imports the caller by (`httpx.Client.__init__`), when a public module
    # reaches it (`link.public`); None when none does or the index predates it
    public: str | None = None


# The `via` of a knob the site's message names (`link.named`): it decides no condition.
NAMED_IN_MESSAGE = "named in the message"
# In the `via` of a knob that is a configuration class's own field, a key of the JSON its
# flag takes (`self.method` in `SpeculativeConfig`, `link.flags.FlagIndex.own_json_key`)
OWN_KEY = "is a key of the JSON object of"
# In the `via` of a knob a caller passes as one key read of a JSON-valued flag's dict
# (`link.knobs.KnobIndex.passed_key`)
PASSED_KEY = "it reads the key"


def own_key(json_key: str | None, via: str | None) -> bool:
    """Whether a knob (its `json_key` and `via`) is a configuration class's own field,
    as it is or passed on: a key whose default the class may fill in itself."""
    return json_key is not None and OWN_KEY in (via or "")


def may_be_false(kind: KnobKind, value_type: str | None) -> bool:
    """Whether a setting can leave the name it gives false: a variable (unset), a switch,
    or a value that may be None. A `str` flag with a default (`--model`) is never empty."""
    if kind == KnobKind.ENV:
        return True
    declared = (value_type or "").replace(" ", "")
    return "bool" in declared or "None" in declared or "Optional" in declared


class KnobLink(msgspec.Struct, frozen=True, gc=False):
    """A setting a user controls behind a name in a condition of the site (or of a caller)."""

    name: str  # VLLM_USE_V2_MODEL_RUNNER, --enforce-eager
    kind: KnobKind
    behind: str  # the name as the condition writes it: self.use_v2_model_runner
    reads: str | None = None  # how the code reads it: os.getenv("VLLM_X", None)
    file: str | None = None  # where it is read (env) or declared (flag)
    line: int | None = None
    via: str | None = None  # what links the two: "property VllmConfig.use_v2_model_runner"
    same_value: bool = False  # `behind` takes the knob's value as is
    value_type: str | None = None  # the annotation, when the code gives one: bool | None
    # the public constructor that takes the flag's field as a keyword, with its first
    # parameter: `vllm.entrypoints.llm.LLM(model)`
    call: str | None = None
    # when the setting decides `behind` through an assignment elsewhere (`AttrSet`): the
    # value assigned, the conjunct of its guard the setting decides and the name there it
    # sets, and the message logged beside it
    sets: str | None = None
    when: str | None = None
    when_behind: str | None = None
    note: str | None = None
    # the command line that takes the flag (or, for a variable, the version's main
    # command), from its console scripts and subcommands: `vllm serve MODEL_TAG`
    command: str | None = None
    # what its authors wrote where it is declared: the config field's docstring, the
    # comment above the variable's read
    doc: str | None = None
    # the flag of `command` that reads a config file of flags, and the file's format:
    # ("--config", "yaml")
    config: tuple[str, str] | None = None
    # for a flag taking a JSON object of fields: the attributes of `behind` the condition
    # reads that are no field of that object (a property, a method), each with the field to
    # set instead ('' when none): the object forbids keys that are not fields
    # (`SECTION_FIELDS` for a name holding a section of that object: none of its
    # attributes is a field at the object's top)
    json_fields: tuple[tuple[str, str], ...] = ()
    # for a flag taking a JSON object of fields: the plain flags that write a field of that
    # object when given, as (field, flag, value assigned, `file:line`):
    # ("enable_return_routed_experts", "--enable-return-routed-experts", "True", ...)
    json_set_by: tuple[tuple[str, str, str, str], ...] = ()
    # `behind` is true only when this setting is, and others with it (a function returning
    # `envs.A and envs.B`): turning it off makes `behind` false; on, it is not enough
    conjunct: bool = False
    # for a JSON-valued flag behind a name that holds one field of its object as it is (a
    # parameter given `attention_config.backend`): that field (`backend`)
    json_key: str | None = None
    # for a parameter of the site's function: the functions that pass the setting's value
    # in, nearest first (`_cached_get_attn_backend`, `get_attn_backend`)
    passed_by: tuple[str, ...] = ()
    # a flag's default as the code writes it (`True`, `False`, `None`), where it is a literal
    # of its declaration or of the field it sets (followed to the class a field defaults
    # to): leaving out a flag that defaults to `True` leaves it on
    default: str | None = None
    # a yes/no flag argparse declares with an action (`store_true`, `BooleanOptionalAction`):
    # it takes no value; `negated` when it has a `--no-x` form
    bare: bool = False
    negated: bool = False
    # for a configuration class's own key (`json_key`, `OWN_KEY`): the key's own default
    # when a yes/no literal (`use_local_argmax_reduction: bool = False`), or `None` for a
    # key declared `bool | None` left None: a truth test of it is turned with `false` or
    # `true` in the JSON, where a key of unknown type has none
    key_default: str | None = None
    # the size of a parallel group read through its accessor, the size the user gave the
    # flag to the function that built the group (`link.group_sizes`): not its value as is
    group_size: bool = False
    # for a flag taking a JSON object of fields: the keys of its object among the attributes
    # of `behind` the condition reads, each with its yes/no default (`("monokernel",
    # "False")`) or '' (a path, a list, a mode string): a truth test of such a key has no
    # `false` to give (a key not listed is of a class not known here); `EMPTY_SECTION` for
    # a section of the object whose class requires no key (`{}` is one)
    key_defaults: tuple[tuple[str, str], ...] = ()
    # for a name holding one key of a free dict (`extra.get("backend", "cpu")`): that key,
    # where the dict is the flag's whole value (`json_key` is the key too) or one key of its
    # object (`json_key` is that key, `kv_connector_extra_config`: the JSON nests the two);
    # no configuration class's validator reads the dict's keys
    dict_key: str | None = None
    # `.get`'s default as written (`'cpu'`; `None` when it gives none); None for `d["k"]`,
    # which fails when the key is left out
    dict_default: str | None = None
    # `behind` holds `not` the setting's value (`log_stats=not engine_args.
    # disable_log_stats`): a truth test of it is turned the other way
    inverted: bool = False
    # for a parameter of the site's function: the setting gives it on some of the paths
    # its callers pass it in, and other calls give a name the link cannot follow (a field
    # of an object built elsewhere): one way among others, not the value on every path
    among_others: bool = False
    # a flag's field reached only as this keyword of the public class in `call`, which
    # builds the object from its own keywords (`disable_log_stats` of `LLM`): no command
    # line builds that object, so the keyword is the way, not the flag; `default` is the
    # value the class gives it when it is left out
    entry_keyword: str | None = None


# `KnobLink.json_fields`' entry for a name holding a section of a JSON-valued flag's object
# (`config` given `attention_config.hisparse_config`): every attribute of it is no field of
# the object's own, to write at the top of the flag's JSON
SECTION_FIELDS = ("*", "")


# `KnobLink.key_defaults`' entry for a key whose value is a section of the object that
# requires no key of its own (`hisparse_config: HiSparseConfig | None`): `{}` gives it.
EMPTY_SECTION = "{}"


# How `KnobLink.via` names a property the knob is read through: written by the linker,
# read back by the page (when setting the variable is the way out). One place for both, so
# the text and its reading cannot drift apart.
_PROPERTY_VIA = lazy_compile(r"^property (?P<prop>[\w.]+) \((?P<file>[^:()]+):(?P<line>\d+)\)")


def property_via(qualname: str, path: str, line: int) -> str:
    """`via` for a knob read through the property `qualname` defined at `path:line`."""
    return f"property {qualname} ({path}:{line})"


def read_property_via(via: str | None) -> tuple[str, str, int] | None:
    """(the property's qualified name, its file, its line) of a `via` `property_via` made."""
    match = _PROPERTY_VIA.match(via or "")
    return None if match is None else (match["prop"], match["file"], int(match["line"]))


# How `KnobLink.via` names an attribute the site's function set to a comparison of the
# setting (`link.own_tests`): the page offers such a setting only with a value.
_OWN_TEST_VIA = "the attribute "


def own_test_via(attribute: str, test: str, line: int) -> str:
    """`via` for a knob behind `attribute`, which the function set to `test` at `line`."""
    return f"{_OWN_TEST_VIA}`{attribute}` = `{test}` (line {line})"


def is_own_test_via(via: str | None) -> bool:
    return (via or "").startswith(_OWN_TEST_VIA)


class SelectionLink(msgspec.Struct, frozen=True, gc=False):
    """A setting whose value picks the code a site sits in: a backend named by an enum
    member (`--attention-backend CUTLASS_MLA` names the class of the site's module), or a
    class that a setting takes out of a selection by name (`VLLM_DISABLED_KERNELS`). The way
    out is another value: one of `others`, or `value` added to the list."""

    setting: str  # --attention-backend, VLLM_DISABLED_KERNELS
    kind: KnobKind
    # "choose": set it to one of `others`; "exclude": add `value` to it; "name": `value`
    # names the class in a registry of names, and another registered name or none avoids it
    # "load": `value` is a name a registry loads the site's module by (`link.loaded_registry`)
    how: Literal["choose", "exclude", "name", "load"]
    value: str  # the value that picks this code (a member), or the class to take out
    others: tuple[str, ...] = ()  # the values that pick other code, best first
    registry: str | None = None  # the enum member or the list that names the code
    file: str | None = None  # where the registry (or the filter) is
    line: int | None = None
    listed: str | None = None  # `file:line` of a list that picks it by default
    separator: str | None = None  # how the variable's getter splits a list of names
    command: str | None = None  # the command line that takes the flag
    call: str | None = None  # the public constructor that takes the flag's field
    # no list nor other code picks `value`: it runs only when the setting names it, and
    # leaving the setting out avoids it too
    given: bool = False
    # a registry of names (`how="name"`): the other names that pick this same code, every
    # name it holds, and the yes/no flags the version refuses without this one (given with
    # it, left out with it)
    aliases: tuple[str, ...] = ()
    registered: tuple[str, ...] = ()
    along: tuple[str, ...] = ()
    # "load": the key of the flag's JSON object that holds the name (`kv_connector`)
    key: str | None = None


class RequestLink(msgspec.Struct, frozen=True, gc=False):
    """A field of a body a client sends to a route of the version, whose value the
    attribute `attr` of a condition holds (`link.requests`)."""

    key: str  # the key sent: the field's alias, else its name
    attr: str  # the attribute the condition reads: watermarking
    target: str  # the class whose attribute holds it: the body class, or the one built
    model: str  # the body class, qualified: ...protocol.ChatCompletionRequest
    file: str  # where the field is declared
    line: int
    annotation: str
    default: str | None = None  # its source; None when required
    routes: tuple[str, ...] = ()  # "POST /v1/chat/completions"
    required: tuple[str, ...] = ()  # the body's required keys
    # the call of the body's method that carries it into `target`, None when the check
    # reads the body itself: "SamplingParams.from_optional(watermarking=self.watermarking)"
    via: str | None = None
    # the version uses the OpenAI Python client (imports `openai`): its users may send the
    # field through the client's `extra_body`
    client: bool = False
    # the parameter of the check's function a caller gives the field as (`input_type`, of
    # `input_type = request.input_type; self._validate_input_type(input_type)`), with the
    # functions that hand it on, outermost first; None when the check reads an attribute
    parameter: str | None = None
    passed_by: tuple[str, ...] = ()


class TestLink(msgspec.Struct, frozen=True, gc=False):
    """A test of the version that expects this error (its pattern matches the message)."""

    file: str
    line: int
    function: str
    exception: str
    match: str | None = None


# The `how` of a form in another language starts so: `translated (de)` (`link.translated`).
TRANSLATED = "translated"
# What a printed form's `how` ends with when the version draws its errors in rich panels
# (`link.printed`).
IN_PANEL = " in a rich panel"


class ShownText(msgspec.Struct, frozen=True, gc=False):
    """A text a user sees for a site other than the template at the raise: `str(exc)` as
    the exception class composes it, what a framework prints, the tuple of several
    arguments, or one concrete class's entry of a message table."""

    text: MessageTemplate
    how: str  # what makes it: "str(exc)", "format_message()", "printed by click", ...
    cls: str | None = None  # the class it is the text of, when it differs per class
    # The function whose call gave the text to the helper this site raises in (`ctx.fail(
    # "...")` for the raise in `fail`): that call's own site is the answer to show first.
    caller: str | None = None
    caller_file: str | None = None  # the file of that call (None: indexed before it was kept)


class Overrides(msgspec.Struct, frozen=True, gc=False):
    """A method that raises whatever it is given, defined again by the version's own
    subclasses of its class: the base's default, which a subclass is meant to replace."""

    method: str  # the method's name: get_completion_args
    base: str  # the class that raises, qualified: click.shell_completion.ShellComplete
    by: tuple[str, ...] = ()  # qualified subclasses that define it, nearest first (a few)
    count: int = 0  # how many subclasses define it
    # every subclass of the version has it (defines or inherits it below the base): the
    # package's own classes never reach the raise, so a user's subclass is what lacks it
    every: bool = False


class IndexedSite(msgspec.Struct, frozen=True, gc=False):
    """A linked site of one version: what the store writes and every reader gets."""

    id: str  # the 16-hex error id
    file: str
    module: str
    site: ErrorSite  # with the message, conditions, bindings and variants resolved
    exception: ExceptionInfo | None = None
    callers: tuple[str, ...] = ()  # qualnames of functions that call the site's function
    caller_links: tuple[CallerLink, ...] = ()  # the same, with where and under which guard
    # the calls, up to three callers away, whose guards test a setting true on every path
    # into the site's function the index knows (`link.path_gates`); empty when one does not
    gates: tuple[CallerLink, ...] = ()
    knobs: tuple[KnobLink, ...] = ()  # settings behind the names in the conditions
    tests: tuple[TestLink, ...] = ()  # tests that expect this error
    shown: tuple[ShownText, ...] = ()  # the texts a user sees, as composed away from the raise
    reading: SourceRead | None = None  # None when an older errdex indexed it
    selections: tuple[SelectionLink, ...] = ()  # settings that pick the code it sits in
    # How a user of the package reaches the site's function, by its public import path
    # (`httpx.AsyncClient.__init__`, `rich.console.Console.print_json`); "" when that is the
    # path it is defined at (most sites: kept short), None when no public module reaches it.
    # Read it with `public_path()`.
    public: str | None = None
    overrides: Overrides | None = None  # when the site's method is a default subclasses replace
    # A call of a helper that raises with the text the call gives it (`ctx.fail("...")`): the
    # file and line of the raise inside the helper, the statement that raises it.
    helper_raise: tuple[str, int] | None = None
    # fields of a request body a client sends behind the conditions (`link.requests`)
    requests: tuple[RequestLink, ...] = ()
    # The calls further up than `caller_links` (`CallerIndex.flow_callers`, no guards) that
    # a value its check reads may come down from a public call by; only for a raise in a
    # function no public path reaches whose check reads a parameter.
    flow_links: tuple[CallerLink, ...] = ()
    # The call in a class-creation hook (a metaclass's `__new__`/`__init__`, a base's
    # `__init_subclass__`) nearest the site's function on some chain of calls at any depth
    # (`CallerIndex.class_hook_link`); only for a raise, None when no hook reaches it.
    class_hook: CallerLink | None = None
    # How many calls of the site's function the caller index resolved in the version, at
    # any place (`caller_links` keeps a few callers a level); None when not counted.
    calls: int | None = None
    # How many classes of the version in other files derive from the class of the site's
    # method or are its bases (`link.overrides`): their code may set what its methods
    # read. None when not counted (no method of a class the version resolves).
    kin: int | None = None

    def public_path(self) -> str | None:
        """The public import path of the site's function, or None when there is none."""
        if self.public == "":
            return f"{self.module}.{self.site.function}"
        return self.public


class SiteContext(msgspec.Struct, frozen=True, gc=False, array_like=True):
    """What linking adds to a site from other places (`link._Context.context`): the fields
    of `IndexedSite` it sets, and nothing else (`with_context`). A linking worker sends
    these back, not the whole site, which the process that forked it holds already: `site`
    None where the context leaves it as it is, `caller_links` None where the worker sent
    that function's tuple for an earlier site (`link._sent`)."""

    site: ErrorSite | None
    callers: tuple[str, ...]
    caller_links: tuple[CallerLink, ...] | None
    flow_links: tuple[CallerLink, ...]
    class_hook: CallerLink | None
    calls: int | None
    gates: tuple[CallerLink, ...]
    knobs: tuple[KnobLink, ...]
    selections: tuple[SelectionLink, ...]
    tests: tuple[TestLink, ...]
    public: str | None
    overrides: Overrides | None
    kin: int | None
    requests: tuple[RequestLink, ...]


def with_context(
    indexed: IndexedSite,
    context: SiteContext,
    caller_links: tuple[CallerLink, ...] | None = None,
) -> IndexedSite:
    """The site with its context; where the context's `site` is None, the site's own, and
    where its `caller_links` is, `caller_links` (or the site's own)."""
    if context.caller_links is not None:
        caller_links = context.caller_links
    return msgspec.structs.replace(
        indexed,
        site=context.site or indexed.site,
        callers=context.callers,
        caller_links=indexed.caller_links if caller_links is None else caller_links,
        flow_links=context.flow_links,
        class_hook=context.class_hook,
        calls=context.calls,
        gates=context.gates,
        knobs=context.knobs,
        selections=context.selections,
        tests=context.tests,
        public=context.public,
        overrides=context.overrides,
        kin=context.kin,
        requests=context.requests,
    )


evaluate_field_types(__name__)  # each field type's text compiled once (struct_hints)
