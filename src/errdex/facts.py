"""Value records that extraction produces and every later stage reads.

Extraction turns one file's bytes into a `FileFacts`; the linker joins the facts of all
files of a version; the store keeps them. They are msgspec structs so that the per-file
cache and the JSON output share one fast, typed encoding.
"""

from __future__ import annotations

import builtins
import enum
from typing import Any, Self

import msgspec

from errdex.reading_facts import SourceRead
from errdex.struct_hints import evaluate_field_types

# The exception classes Python itself defines: a site raising one names no class of the
# codebase, and a paste naming one tells nothing of which codebase raised it.
BUILTIN_EXCEPTIONS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)


class SiteKind(enum.StrEnum):
    """How an error site reports its error."""

    RAISE = "raise"
    RERAISE = "reraise"  # a bare `raise` (or `raise err` of a caught name)
    ASSERT = "assert"
    WARN = "warn"
    LOG = "log"
    EXIT = "exit"
    HELPER = "helper"  # a call of a codebase function that raises with the given message


class ConditionKind(enum.StrEnum):
    """Where a condition on the path to a site comes from."""

    IF = "if"
    ELIF = "elif"
    ELSE = "else"
    EARLY_EXIT = "early_exit"  # an earlier `if X: return/raise/continue` in the same function
    LOOP = "loop"  # a `for`/`while` header or comprehension
    # an earlier `for` loop that returns from the function ran out (`extract/loop_exits.py`)
    NO_MATCH = "no_match"
    EXCEPT = "except"  # an except clause: what was caught
    ASSERT = "assert"  # the assert's own condition (the site fires when it is false)
    MATCH = "match"  # a `case` pattern
    WITH = "with"  # e.g. `with pytest.raises(...)` / `warnings.catch_warnings()`
    CALL = "call"  # the guard under which a helper was called (reasons from helpers)


# The conditions that are a test of the function's own: a Python expression, with another
# branch the code could take instead.
BRANCH_KINDS = frozenset(
    {ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ELSE, ConditionKind.EARLY_EXIT}
)


class KnobKind(enum.StrEnum):
    """How a user sets a knob."""

    ENV = "env"  # an environment variable
    FLAG = "flag"  # a command-line flag
    PACKAGE = "package"  # an optional package: installing it is the setting
    PLATFORM = "platform"  # the machine or interpreter the program runs on


class Placeholder(msgspec.Struct, frozen=True, gc=False):
    """A computed part of a message, keeping its expression's source text."""

    expr: str
    conversion: str | None = None  # "r", "s" or "a"
    spec: str | None = None  # the format spec, e.g. ".2f"

    def render(self) -> str:
        conv = f"!{self.conversion}" if self.conversion else ""
        spec = f":{self.spec}" if self.spec else ""
        return "{" + self.expr + conv + spec + "}"


Part = str | Placeholder


class MessageTemplate(msgspec.Struct, frozen=True, gc=False):
    """The text a user sees, with each computed part as a `Placeholder`."""

    parts: tuple[Part, ...] = ()

    @classmethod
    def of(cls, *parts: Part) -> MessageTemplate:
        """Build a template, merging adjacent literals and dropping empty ones."""
        if len(parts) == 1:  # most templates made: one placeholder, or one literal
            return cls(parts if parts[0] != "" else ())
        merged: list[Part] = []
        for part in parts:
            if isinstance(part, str):
                if not part:
                    continue
                if merged and isinstance(merged[-1], str):
                    merged[-1] = merged[-1] + part
                    continue
            merged.append(part)
        return cls(tuple(merged))

    @property
    def text(self) -> str:
        """The template as one string: placeholders in braces, literal braces doubled."""
        only = self.parts[0] if len(self.parts) == 1 else None
        if isinstance(only, str) and "{" not in only and "}" not in only:
            return only  # half the messages: one literal, as it is
        return "".join(
            p.replace("{", "{{").replace("}", "}}") if isinstance(p, str) else p.render()
            for p in self.parts
        )

    @property
    def literal_text(self) -> str:
        """The literal parts only, joined with spaces: what full-text search indexes."""
        return " ".join(p for p in self.parts if isinstance(p, str))

    @property
    def placeholders(self) -> tuple[Placeholder, ...]:
        return tuple(p for p in self.parts if isinstance(p, Placeholder))

    @property
    def literal_length(self) -> int:
        return sum(len(p.strip()) for p in self.parts if isinstance(p, str))

    def __add__(self, other: MessageTemplate) -> MessageTemplate:
        return MessageTemplate.of(*self.parts, *other.parts)


class Condition(msgspec.Struct, frozen=True, gc=False):
    """One thing that holds on the path to a site."""

    test: str  # the source text of the test as written
    kind: ConditionKind
    holds: bool  # polarity: True when the test is true on the path, False when it is false
    line: int
    text: str = ""  # the condition as it holds on the path: `x is not None` for `x is None`

    @property
    def statement(self) -> str:
        """What holds, in words a reader expects (`text`, else the test with its polarity)."""
        if self.text:
            return self.text
        return self.test if self.holds else f"not ({self.test})"


class ConditionRecord(msgspec.Struct, kw_only=True):
    """A condition on the path to a site: its text as it holds there, and the test written."""

    text: str
    test: str
    kind: ConditionKind
    holds: bool
    line: int

    @classmethod
    def of(cls, condition: Condition, **more: Any) -> Self:
        """The record of `condition`; `more` fills the fields a subclass adds."""
        return cls(
            text=condition.statement,
            test=condition.test,
            kind=condition.kind,
            holds=condition.holds,
            line=condition.line,
            **more,
        )


class Binding(msgspec.Struct, frozen=True, gc=False):
    """A name used in a condition and what it was assigned (a local, or a constant's value)."""

    name: str
    value: str  # source of the assigned expression, or the repr of a constant's literal value
    line: int
    # "local", "constant" (module-level, resolved across imports), or "default": a parameter
    # of an enclosing function, and its literal default (`def requires(status_code=403)`)
    origin: str = "local"
    file: str | None = None  # where a constant is defined, when not the site's own file
    doc: str | None = None  # a constant's docstring or the comment above it, where defined


class ValueRead(msgspec.Struct, frozen=True, gc=False, array_like=True):
    """What a local's assigned value reads, for the settings behind the local: an
    environment variable (`os.getenv("X")`), another name or attribute chain as it is (an
    alias: `self.config.x`), or else the names and chains it is computed from."""

    env: str | None
    alias: str | None
    names: tuple[str, ...]


class Variant(msgspec.Struct, frozen=True, gc=False):
    """One reason collected into a reasons list, with the conditions under which it is added."""

    reason: MessageTemplate
    line: int
    function: str
    conditions: tuple[Condition, ...] = ()
    file: str | None = None  # when the reason is added in another file than the site's


class Arg(msgspec.Struct, frozen=True, gc=False):
    """An argument of a call: positional (`name` None) or keyword, as a template."""

    template: MessageTemplate | None
    source: str
    name: str | None = None


class ReasonsCall(msgspec.Struct, frozen=True, gc=False):
    """`reasons.extend(self._helper())`: reasons that a helper function returns."""

    callee: str  # the called function's name (last attribute)
    receiver: str | None  # `self`, a module alias, ... or None for a bare name
    line: int
    conditions: tuple[Condition, ...] = ()


class ReasonsList(msgspec.Struct, frozen=True, gc=False):
    """Items appended to a list variable in one function, and helpers that extend it."""

    variants: tuple[Variant, ...] = ()
    calls: tuple[ReasonsCall, ...] = ()


class ErrorSite(msgspec.Struct, frozen=True, gc=False):
    """A place that raises, asserts, warns, logs or exits, with its message and conditions."""

    kind: SiteKind
    exception: str | None  # as written: `ValueError`, `errors.ConfigError`; category for warn
    message: MessageTemplate | None
    line: int
    end_line: int
    function: str  # qualname inside the module; "<module>" at top level
    class_name: str | None = None
    conditions: tuple[Condition, ...] = ()
    bindings: tuple[Binding, ...] = ()
    variants: tuple[Variant, ...] = ()
    cause: str | None = None  # the source of `from X`
    level: str | None = None  # log level (`warning`, `error`, ...) for log sites
    # The framework that prints an exit's message its own way: "argparse" for
    # `parser.error(msg)` (`prog: error: msg` under the usage line).
    printer: str | None = None
    # Facts the linker still has to resolve:
    args: tuple[Arg, ...] = ()  # the exception constructor's arguments
    reasons: ReasonsList | None = None  # when the message joins a reasons list
    reasons_expr: str | None = None  # the placeholder expression that joins the list
    names: tuple[str, ...] = ()  # free (dotted) names in the conditions: constants, knobs
    # The locals the raise passes as themselves that are surely truthy there (`allowed`
    # after `if not allowed: allowed = {...}`): what the class's `__str__` may test.
    truthy: tuple[str, ...] = ()


class ClassFact(msgspec.Struct, frozen=True, gc=False):
    """A class definition: enough to resolve exception classes and their messages."""

    name: str
    qualname: str
    line: int
    bases: tuple[str, ...] = ()  # as written
    docstring: str | None = None
    init_params: tuple[str, ...] = ()  # `__init__`'s parameters after self
    message: MessageTemplate | None = None  # built by `__init__`/`__str__` from the params
    methods: tuple[str, ...] = ()  # names of the functions defined in its body
    fields: dict[str, str] = {}  # annotated class-level names → annotation (`*Args` classes)
    # class-level names → their docstring (the string after the field) or comment above;
    # for an arguments dataclass's field that defaults to another class's (`x: int =
    # Config.x`), `extract.docs.DOC_OF` + that field's `Class.attr`
    field_docs: dict[str, str] = {}
    # What `__init__` passes to its base's `__init__` (`super().__init__(line, col, message=m)`),
    # over its own parameters: a codebase base may build the message from them.
    super_args: tuple[Arg, ...] = ()
    # False when its own `__init__` never calls a base's `__init__`: the arguments of the
    # raise stay what `BaseException.__new__` keeps as `args`, and `str(exc)` prints those.
    init_calls_base: bool = True
    # Tables of messages by key in its body (`default_error_messages = {"invalid": "..."}`).
    tables: dict[str, dict[str, str]] = {}
    # A configuration class's fields a constructor keyword sets (not `ClassVar`, not
    # `field(init=False)`): the keys of the JSON object a flag of it takes.
    keys: tuple[str, ...] = ()
    # Those of its keys declared as a dict (`extra_config: dict[str, Any]`): a key whose
    # value is a dict of the user's own keys.
    dict_valued: tuple[str, ...] = ()
    # Those of its keys declared a yes/no or None (`dp_shared_memory: bool | None`): a
    # truth test of one is turned with `true` or `false` whatever its default.
    optional_bools: tuple[str, ...] = ()
    # Those of its keys declared as one configuration class (`hisparse_config:
    # HiSparseConfig | None`): the key → that class's name; the key's JSON is an object.
    sections: dict[str, str] = {}
    # Those of its keys without a default: a JSON object of the class must give them.
    required: tuple[str, ...] = ()
    # An arguments or configuration class's fields whose default is a literal yes/no or
    # None (`"True"`), or another class's field (`"CacheConfig.swa_bounded_replay"`)
    defaults: dict[str, str] = {}
    # Class-level names of a command (`name = "throughput"`, `parser_name: ClassVar[str] =
    # "serve"`) → their literal value: the word a loop over command classes adds as a
    # subcommand (`subparsers.add_parser(cmd_cls.name)`)
    names: dict[str, str] = {}
    # `self.X` its own `__init__` sets to one of its parameters, unconditionally and only
    # there: `X` → the parameter (`log_stats`), or `not` and it (`not disable_log_stats`)
    attr_from: dict[str, str] = {}
    # The classes its `__init__` builds with its own `**kwargs` (`EngineArgs(..., **kwargs)`)
    # → the keywords those calls give by name or the constructor takes out: every other
    # keyword of such a class is one of this class too (`extract.entry_kwargs`).
    kwargs_into: dict[str, tuple[str, ...]] = {}
    # The keys of those `**kwargs` its `__init__` gives a literal when the caller leaves
    # them out (`kwargs["disable_log_stats"] = True`) → that literal as written.
    kwargs_defaults: dict[str, str] = {}
    # `self.X` → the class the code says it holds, as written (`extract.attr_classes`): a
    # class-level annotation, `self.X: Runner` in a method, or every assignment of it one
    # call's result (`Runner()`, `make_runner()`, `self._make()`); "" for an attribute the
    # class assigns without saying (a base's word on it does not hold here)
    attr_classes: dict[str, str] = {}
    # `self.X` its own `__init__` sets, unconditionally and only there, to another object's
    # attribute as it is (or behind a default for that object's absence): `X` → the chain
    # (`cache_config.cache_dtype`, rooted at a parameter, `self` or a local set once)
    attr_chains: dict[str, str] = {}


class Append(msgspec.Struct, frozen=True, gc=False):
    """A text a method adds to the local it returns (`message += ...`), always or when one
    attribute of the object is truthy (`if self.token_history: message += ...`)."""

    text: MessageTemplate
    when: str = ""  # the attribute tested (`self.token_history`); "" when always added


class TextMethod(msgspec.Struct, frozen=True, gc=False):
    """What a method of an exception class returns (for `show`, prints), in terms of
    `self`'s attributes and its own locals."""

    returns: tuple[MessageTemplate, ...] = ()
    locals: dict[str, str] = {}  # a local name → the source of the value first assigned
    # A returned local → what the method adds to it after its first value, in order.
    appends: dict[str, tuple[Append, ...]] = {}
    # The parameters after `self` of a method that formats what it is given
    # (`def _format_expected(self, expected): return "Expected one of: ..." % ...`);
    # empty for `__str__`, properties and the other methods read without arguments.
    params: tuple[str, ...] = ()


class ClassText(msgspec.Struct, frozen=True, gc=False):
    """How an exception class writes the text a user sees: the literal class attributes its
    subclasses override, what `__init__` stores, and what `__str__`, `format_message()`,
    `show()` and its properties make of them."""

    qualname: str
    attrs: dict[str, str] = {}  # class attribute → the repr of its literal value
    sets: dict[str, str] = {}  # `self.X = <expr>` in `__init__`: X → the expression's source
    defaults: dict[str, str] = {}  # `__init__`'s parameters → their defaults' source
    # `if message is None: message = <expr>` (or `message = message or <expr>`) at the top
    # of `__init__`: the parameter → the expression's source, what it holds when not given.
    fallbacks: dict[str, str] = {}
    methods: dict[str, TextMethod] = {}  # `__str__`, `format_message`, `show`, properties


class KeyedHelper(msgspec.Struct, frozen=True, gc=False):
    """A method making its exception from a class's message table by a key it is given:
    `def make_error(self, key): msg = self.error_messages[key] ... return ValidationError(msg)`.
    """

    name: str
    qualname: str
    params: tuple[str, ...]  # without self
    param: str  # the key's parameter
    table: str  # the attribute looked up: `error_messages`
    exception: str  # the class it makes, as written in its file
    raises: bool  # it raises the exception itself (else it returns it)


class HelperFact(msgspec.Struct, frozen=True, gc=False):
    """A function that raises with a message taken from one of its parameters."""

    name: str
    qualname: str
    line: int
    params: tuple[str, ...]  # without self/cls
    param: str  # the parameter the message comes from
    exception: str | None
    message: MessageTemplate  # in terms of the parameter: `{message}`, `Error: {message}`
    kind: SiteKind = SiteKind.RAISE
    conditions: tuple[Condition, ...] = ()  # the raise's guard inside the helper
    defaults: dict[str, str] = {}  # parameters' literal defaults, for the guard of a call
    # The exception's arguments at the raise, in terms of the parameters: what its class
    # binds (`raise PoFileError(msg, self.catalog, line, lineno)`), not the call's own.
    args: tuple[Arg, ...] = ()
    varargs: str | None = None  # its `*args` parameter: empty unless a call passes more
    # Parameters (other than `param`) its body binds again: a call's argument for one is
    # not what the raise reads, so neither its message nor its guard takes the argument.
    rebound: tuple[str, ...] = ()


class CallFact(msgspec.Struct, frozen=True, gc=False):
    """A call with a message-like argument: a raising helper's call, when the linker says so."""

    callee: str
    receiver: str | None
    line: int
    end_line: int
    function: str
    class_name: str | None
    args: tuple[Arg, ...]
    conditions: tuple[Condition, ...] = ()
    # The calling function's parameters (and their literal defaults), when the call passes
    # one of its message parameters on: the function may be a helper of the helper it calls.
    params: tuple[str, ...] = ()
    defaults: dict[str, str] = {}
    # What the code says the receiver is, as written: the class annotated for a name
    # (`Context`), the call that made it (`get_config()`, `Config()`, `?.parse()` for a
    # method of an object that is no name), or a method's parameter not annotated there
    # (`Processor.apply(items)`: the method it overrides may say); None when unknown.
    receiver_type: str | None = None
    # what the locals its conditions read were assigned (`norm = value.strip().lower()`)
    bindings: tuple[Binding, ...] = ()


class CallSite(msgspec.Struct, frozen=True, gc=False):
    """A call that may be of a function of the codebase: how callers are found."""

    callee: str  # the called name (last attribute)
    receiver: str | None  # `self`, `cls`, a module or class name, or None for a bare name
    line: int
    function: str  # the calling function's qualname
    class_name: str | None = None
    conditions: tuple[Condition, ...] = ()  # the guard of the call
    # False when the guard was not read (a body the skeleton blanked): no conditions = unknown
    guard_known: bool = True
    # the arguments given as names: (keyword or position as text; the name passed, or what a
    # local passed was surely assigned; the caller's parameter passed on as is, else -1)
    passes: tuple[tuple[str, str, int], ...] = ()
    bindings: tuple[Binding, ...] = ()  # locals its guard tests true → what makes them so
    # the objects whose attribute an argument gives (`request` of `request.input_type`) →
    # the class the caller's code says each is, as written: a parameter's or local's
    # annotation, an `assert isinstance(request, Body)` before the call, an `isinstance`
    # test its guard holds true
    typed: tuple[tuple[str, str], ...] = ()
    # for a method called on a local or a parameter of no import (`engine.add_request(...)`),
    # what the code says the object is, as `CallFact.receiver_type` writes it: its
    # annotation, the call that made it, an `isinstance` held true of it
    receiver_type: str | None = None


class PropertyFact(msgspec.Struct, frozen=True, gc=False):
    """A `@property` (or cached property): the names it reads and those it returns as is;
    or, with `method`, a plain method of a configuration class that returns one of the
    object's attributes as it is (`resolve_indexer_kv_dtype`: `return self.indexer_kv_dtype`,
    or its argument `default` for "auto"), whose `returns` hold the parameters it returns."""

    qualname: str  # Class.name
    line: int
    end_line: int
    reads: tuple[str, ...] = ()  # dotted names read in its body
    returns: tuple[str, ...] = ()  # dotted names whose value it returns unchanged
    env_reads: tuple[str, ...] = ()  # environment variables it reads itself
    returns_env: tuple[str, ...] = ()  # those whose value it returns unchanged
    method: bool = False  # a method called for the value (a getter), not a property
    # with `method`: it returns `self.<returns[0]>.get(key, default)`, the key and the
    # default its parameters (`calls.key_getter_fact`), not the attribute itself
    gets_key: bool = False


class EnvRead(msgspec.Struct, frozen=True, gc=False):
    """A literal read of an environment variable."""

    name: str  # the variable: VLLM_USE_V2_MODEL_RUNNER
    line: int
    source: str = ""  # the line (or getter) that reads it
    binds: str | None = None  # a module-level name that holds the value (`envs.X`, `X = ...`)
    doc: str | None = None  # the comment block above the read (or its dictionary entry)


class FlagFact(msgspec.Struct, frozen=True, gc=False):
    """A command-line flag declared with argparse's `add_argument`."""

    flag: str  # --enforce-eager (or a positional argument's name: model_tag)
    line: int
    function: str | None = None  # the qualname of the function that declares it
    required: bool = False  # a flag with `required=True`, a positional without a default
    # a yes/no flag (`action="store_true"`, `"store_false"`, `BooleanOptionalAction`): it
    # takes no value; `negated` when it has a `--no-x` form too
    bare: bool = False
    negated: bool = False
    # its literal default as written (`True`, `False`, `None`), or the one its action
    # implies (`store_true`: `False`); None when neither is known
    default: str | None = None


class SubcommandFact(msgspec.Struct, frozen=True, gc=False):
    """`subparsers.add_parser("serve")` (or `add_parser(self.name)` in a class whose `name`
    is "serve"): a subcommand, and the function that adds it."""

    name: str
    line: int
    function: str
    # the function builds the parser it adds to (`argparse.ArgumentParser(...)` in its own
    # body): a program of its own, a console script's only when the script reaches it
    own_parser: bool = False
    # Added in a loop over command classes (`for cmd_cls in Base.__subclasses__():
    # sub = subparsers.add_parser(cmd_cls.name); cmd_cls.add_cli_args(sub)`): `name` is ""
    # and each class of the loop gives one, its attribute `attr`; `method` is the class's
    # method handed the subcommand's parser. The classes are `classes` (a literal tuple's,
    # as written) or the subclasses of `base`.
    attr: str = ""
    method: str = ""
    classes: tuple[str, ...] = ()
    base: str = ""


class RouteBody(msgspec.Struct, frozen=True, gc=False):
    """A class a server's route takes as a parameter: the body a client sends
    (`request: ChatCompletionRequest` of `@router.post("/v1/chat/completions")`)."""

    cls: str  # as written
    parameter: str
    path: str  # the route: /v1/chat/completions
    method: str  # post, put, patch, route, api_route
    function: str
    line: int


class RequestField(msgspec.Struct, frozen=True, gc=False):
    """A field of a `*Request` class, with the calls of its methods that pass it on as it
    is (`SamplingParams.from_optional(watermarking=self.watermarking)`)."""

    model: str  # the class's name
    name: str
    line: int
    annotation: str
    default: str | None = None  # its source; None when the field is required
    alias: str | None = None  # the key a client sends instead of the name
    into: tuple[tuple[str, str], ...] = ()  # (the callee as written, the keyword)


class RequestCarry(msgspec.Struct, frozen=True, gc=False):
    """A call that passes a field of a parameter annotated with a `*Request` class as it
    is: `SamplingParams(seed=request.seed)` where `request: CompletionRequest`."""

    cls: str  # the parameter's class, as written
    parameter: str
    field: str
    callee: str  # as written
    keyword: str
    line: int


class AttrSet(msgspec.Struct, frozen=True, gc=False):
    """`X.attr = VALUE` (a plain value) right under an `if`: what a setting elsewhere
    decides for an attribute that conditions test."""

    attr: str  # cudagraph_mode
    target: str  # self.compilation_config.cudagraph_mode
    value: str  # CUDAGraphMode.NONE
    line: int
    guard: str  # the `if` test: self.model_config is not None and self.model_config.enforce_eager
    class_name: str | None = None  # the class of the function that assigns it
    note: str | None = None  # the text of a message logged beside it: "This is equivalent to ..."


class ChoiceList(msgspec.Struct, frozen=True, gc=False):
    """Candidates written one after another in a list: `[Backend.FLASH, Backend.TRITON]`, or
    `[FastKernel, SlowKernel]`: the alternatives the code tries in turn (a platform's
    priority list), so code that stands in for each other."""

    items: tuple[str, ...]  # as written: `Backend.FLASH`, `FastKernel`
    line: int


class NameFilter(msgspec.Struct, frozen=True, gc=False):
    """A setting that takes classes out of a selection by name:
    `if kernel.__name__ in envs.DISABLED_KERNELS: continue`, or for one class,
    `"FastKernel" not in envs.DISABLED_KERNELS`."""

    setting: str  # the dotted name read: envs.DISABLED_KERNELS
    line: int
    name: str | None = None  # the one class it names, when it names one


class TestRef(msgspec.Struct, frozen=True, gc=False):
    """A test that expects an error: `pytest.raises(X, match=...)`, `assertRaisesRegex`."""

    exception: str  # as written
    match: str | None  # the pattern the message must match
    line: int
    function: str


class MadeError(msgspec.Struct, frozen=True, gc=False):
    """An exception a function makes and returns (`return ValueError(f"{reason}: ...")`)."""

    exception: str  # the class, as written in its file
    message: MessageTemplate | None  # in terms of the function's parameters
    args: tuple[Arg, ...] = ()


class Factory(msgspec.Struct, frozen=True, gc=False):
    """A function whose every return gives an exception it makes: `raise make_error(x)`
    raises what it returns."""

    params: tuple[str, ...]  # without self/cls
    made: tuple[MadeError, ...]  # one per distinct return


class FileFacts(msgspec.Struct, frozen=True, gc=False):
    """Everything extraction learns from one file."""

    path: str
    module: str
    sites: tuple[ErrorSite, ...] = ()
    classes: tuple[ClassFact, ...] = ()
    helpers: tuple[HelperFact, ...] = ()
    keyed: tuple[KeyedHelper, ...] = ()
    calls: tuple[CallFact, ...] = ()
    reason_builders: dict[str, ReasonsList] = {}  # function qualname → reasons it returns
    # function qualname → the messages it returns (`return f"The key is {n} bytes long"`),
    # for a site whose message is a local the function's call gave
    returned_texts: dict[str, tuple[MessageTemplate, ...]] = {}
    factories: dict[str, Factory] = {}  # function qualname → the exceptions it returns
    constants: dict[str, Any] = {}  # module-level literal values (JSON-able)
    constant_docs: dict[str, str] = {}  # a constant → its docstring or the comment above it
    # the flag that names a config file whose keys are flags (`--config`) → its format
    config_flags: dict[str, str] = {}
    imports: dict[str, str] = {}  # local name → "module.attr" or "module"
    star_imports: tuple[str, ...] = ()  # modules imported with `from module import *`
    local_imports: dict[str, str] = {}  # name a function imports itself → "module.attr"
    error: str | None = None  # why the file was skipped, when it was
    defs: tuple[str, ...] = ()  # module-level function names
    returns: dict[str, str] = {}  # function qualname → the class its return is annotated as
    params: dict[str, dict[str, str]] = {}  # method qualname → parameter → its annotated class
    # a validator method (pydantic's `@field_validator("cache_dtype")`) → the fields whose
    # value its first parameter is
    validators: dict[str, tuple[str, ...]] = {}
    call_sites: tuple[CallSite, ...] = ()
    # the bound methods a function hands a call without calling them (`Handler(partial(
    # gen.generate_schema, ...))`, `register(self._build)`): the callee calls them back
    # (`extract.calls_made.CallRecorder.handed_on`)
    callbacks: tuple[CallSite, ...] = ()
    properties: tuple[PropertyFact, ...] = ()
    env_reads: tuple[EnvRead, ...] = ()
    env_types: dict[str, str] = {}  # declared types of module-level names that read env vars
    flags: tuple[FlagFact, ...] = ()
    positionals: tuple[FlagFact, ...] = ()  # argparse's positional arguments
    subcommands: tuple[SubcommandFact, ...] = ()
    computed_flags: tuple[str, ...] = ()  # functions adding flags as `f"--{name}"`
    attr_sets: tuple[AttrSet, ...] = ()
    tests: tuple[TestRef, ...] = ()
    texts: tuple[ClassText, ...] = ()  # how its exception classes write their text
    # module-level name → the modules its `try` imports, when `except ImportError` binds
    # the name to None/False: the name says whether an optional package is installed
    optional_imports: dict[str, str] = {}
    # module-level name → the other import binding it in another branch of one `if` or
    # `try` (`extract.module.import_twins`): the Python twin of a compiled one, at times
    import_twins: dict[str, str] = {}
    # function name → the platform test its body returns (`torch.cuda.is_available()`)
    platform_tests: dict[str, str] = {}
    # function name → the name its whole body returns (`return cls._ENABLED`), followed to
    # what the file first assigns that name (`_ENABLED = envs.VLLM_X`): an accessor
    value_accessors: dict[str, str] = {}
    readings: dict[int, SourceRead] = {}  # line of a site or a call → what its source says
    # `Enum` classes whose members name classes: enum → member → the class named, as
    # written (`pkg.backends.flash.FlashBackend` in a string, or a name)
    enums: dict[str, dict[str, str]] = {}
    # `Name = Literal["a", ...]` → its values; a dict of classes by string → key → the
    # classes named (`extract.keyed_tables`): a setting's value picking code by name
    literals: dict[str, tuple[str, ...]] = {}
    class_tables: dict[str, dict[str, tuple[str, ...]]] = {}
    # a dict of plugins by name, each a (module file in the dict's package, class) pair it
    # imports when asked for: the dict → name → the pair (`extract.keyed_tables`)
    name_tables: dict[str, dict[str, tuple[str, str]]] = {}
    choices: tuple[ChoiceList, ...] = ()
    # the enum members it writes as a value, not in a test (`extract.registries.member_picks`)
    member_picks: tuple[str, ...] = ()
    # `extract.group_sizes`: accessor of no argument → the global or `call().attr` it
    # returns; global → (function setting it, the parameter it is built from, position);
    # (name called, line, arguments) of calls passing names only
    group_accessors: dict[str, str] = {}
    global_sets: dict[str, tuple[str, str, int]] = {}
    name_calls: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    # function qualname → the module's functions and imported names it hands a call as
    # `target=` without calling them (`Process(target=_run_daemon)`: `extract.handed`)
    handed: dict[str, tuple[str, ...]] = {}
    name_filters: tuple[NameFilter, ...] = ()
    # the classes its routes take as a body, and the fields of its `*Request` classes
    # (`extract.request_models`)
    routes: tuple[RouteBody, ...] = ()
    request_fields: tuple[RequestField, ...] = ()
    request_carries: tuple[RequestCarry, ...] = ()
    # the lines that start its top-level statements (`extract.module.top_starts`): a page
    # reading a few of them parses those alone
    outline: tuple[int, ...] = ()
    # what the value of each local a binding of its sites and calls holds reads, by the
    # value's source, where the walk had its tree (`extract.value_reads`): the linker
    # reads the others' texts itself
    value_reads: dict[str, ValueRead] = {}


evaluate_field_types(__name__)  # each field type's text compiled once (struct_hints)
