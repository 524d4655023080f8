"""The page model: one error explained. JSON is its contract; terminal and HTML draw it.

`Page` carries the keys of DESIGN.md: id, project, version, revision, exception, kind,
message, source, conditions, what_it_means, when_it_happens, solutions, example_fix,
related, versions, analysis; plus `why` (the code's own words on the check, each quote with
where it is written) and the facts they were made from (variants, callers, knobs).
"""

from __future__ import annotations

import msgspec

from errdex.facts import ConditionRecord, KnobKind


class ExceptionView(msgspec.Struct, kw_only=True):
    name: str
    qualname: str
    bases: list[str] = []
    docstring: str | None = None
    defined_in: str | None = None  # file:line inside the project, when it is defined there


def said_pin(pinned: str, basis: str | None, guessed: bool) -> str:
    """`tag v8.1.7, guessed from the version`; a pin its source confirms, as it is."""
    return f"{pinned}, {basis}" if guessed and basis else pinned


class SourceView(msgspec.Struct, kw_only=True):
    file: str
    line: int
    end_line: int
    function: str
    snippet: str  # about 40 lines around the site
    snippet_start: int  # the line number of the snippet's first line
    url: str | None = None  # "view source", pinned to the revision
    pinned: str | None = None  # what the link points at: "tag v0.33.0", "commit 4b6bdec4ab"
    # how that is known ("recorded in its vllm/_version.py", "guessed from the version"),
    # and whether it is a guess nothing the source carries confirms
    pin_basis: str | None = None
    pin_guessed: bool = False

    def pin_text(self, revision: str) -> str:
        """What the link points at, as the page says it: a guess says so."""
        return said_pin(self.pinned or revision[:10], self.pin_basis, self.pin_guessed)


class ConditionView(ConditionRecord, kw_only=True):
    plain: str | None = None  # what holds, in words, when the explainer has them


class VariantView(msgspec.Struct, kw_only=True):
    reason: str
    file: str
    line: int
    function: str
    conditions: list[ConditionView] = []


class ShownView(msgspec.Struct, kw_only=True):
    """A text the user sees for this error besides the template at the raise: composed
    by the exception class, printed by a framework, or one class's entry of a table."""

    text: str  # placeholders in braces, as in `message`
    how: str  # "str(exc)", "format_message()", "printed by click", "Integer's ..."
    # As a traceback's last line prints it (`BadRequest: 400 Bad Request: ...`); None for
    # what a framework prints.
    line: str | None = None
    cls: str | None = None  # the class it is the text of, when it differs per class


class Knob(msgspec.Struct, kw_only=True):
    """A setting a user controls that a condition depends on."""

    name: str  # VLLM_USE_V2_MODEL_RUNNER, --enforce-eager, use_v2_model_runner
    kind: KnobKind
    reads: str | None = None  # how the code reads it: envs.VLLM_USE_V2_MODEL_RUNNER
    file: str | None = None
    line: int | None = None
    behind: str | None = None  # the name in a condition it sets: self.use_v2_model_runner
    via: str | None = None  # what links the two: "property VllmConfig.use_v2_model_runner"
    same_value: bool = False  # `behind` takes the knob's value as it is (not computed from it)
    value_type: str | None = None  # the type the code declares for it: "bool | None"
    # the public constructor taking it as a keyword, with its first parameter:
    # `vllm.entrypoints.llm.LLM(model)`
    call: str | None = None
    # when it decides `behind` through an assignment elsewhere (see `via`): the value
    # assigned, the guard's conjunct it decides and the name there, the message logged there
    sets: str | None = None
    when: str | None = None
    when_behind: str | None = None
    note: str | None = None
    # the command line that takes it, as the user types it: `vllm serve MODEL_TAG`
    command: str | None = None
    # what its authors wrote where it is declared (a config field's docstring)
    doc: str | None = None
    # the flag of `command` that reads a config file of flags, and its format
    config: tuple[str, str] | None = None
    # a JSON-valued flag's attributes that are no field of its object: the field to set
    # instead of each ('' when none)
    json_fields: tuple[tuple[str, str], ...] = ()
    # the plain flags that write a field of its object when given: (field, flag, value
    # assigned, `file:line`)
    json_set_by: tuple[tuple[str, str, str, str], ...] = ()
    # `behind` is true only when this setting and others are (`envs.A and envs.B`)
    conjunct: bool = False
    # for a JSON-valued flag behind a name that holds one field of its object as it is (a
    # parameter given `attention_config.backend`): that field (`backend`)
    json_key: str | None = None
    # for a parameter of the site's function: the functions that pass the setting's value
    # in, nearest first (`_cached_get_attn_backend`, `get_attn_backend`)
    passed_by: tuple[str, ...] = ()
    default: str | None = None  # its default, a literal: `True` (see `KnobLink.default`)
    bare: bool = False  # a yes/no flag taking no value (`KnobLink.bare`)
    negated: bool = False  # ... with a `--no-x` form
    key_default: str | None = None  # a yes/no key's own default (`KnobLink.key_default`)
    group_size: bool = False  # a parallel group's size (`KnobLink.group_size`)
    # the keys read of a JSON-valued flag's object, yes/no or not (`KnobLink.key_defaults`)
    key_defaults: tuple[tuple[str, str], ...] = ()
    # a key of a free dict the name holds, and `.get`'s default (`KnobLink.dict_key`)
    dict_key: str | None = None
    dict_default: str | None = None
    inverted: bool = False  # `behind` holds `not` its value (`KnobLink.inverted`)
    among_others: bool = False  # given on some callers' paths only (`KnobLink.among_others`)
    entry_keyword: str | None = None  # the keyword of `call` alone (`KnobLink.entry_keyword`)


# What a page says of a call whose conditions were not read (`Caller.guard_known`).
GUARD_NOT_READ = "conditions not read"


class Caller(msgspec.Struct, kw_only=True):
    """A function that calls the raising function, with the guard of that call."""

    function: str
    file: str
    line: int
    guard: list[str] = []  # the branch conditions the call sits under
    passed: list[str] = []  # early exits of the caller that did not fire before the call
    calls: str | None = None  # the function it calls on the way to the site
    depth: int = 1  # 1: calls the raising function; 2: calls a caller; ...
    # False when the conditions of the call were not read (the caller's body was read as
    # text only): empty `guard` and `passed` then say nothing, not "always".
    guard_known: bool = True


class WhyQuote(msgspec.Struct, kw_only=True):
    """What the code says of the check, quoted as written: a comment above it or one of its
    guards, a paragraph of its function's docstring, a constant's or a setting's doc, a
    message logged beside it."""

    text: str
    of: str  # what it is: "comment above the guard at line 516", "docstring of `f`, Raises
    # `ValueError`"
    file: str
    line: int


class BindingView(msgspec.Struct, kw_only=True):
    """A name in a condition and what it holds: a local's assignment or a constant's value."""

    name: str
    value: str
    origin: str  # "local" or "constant"
    file: str
    line: int | None = None
    doc: str | None = None  # a constant's docstring or the comment above it


class TestView(msgspec.Struct, kw_only=True):
    """A test of the project that expects this error: a real reproduction."""

    file: str
    line: int
    function: str
    match: str | None = None


class ExampleFix(msgspec.Struct, kw_only=True):
    before: str  # empty when there is nothing to undo (a package to install)
    after: str
    note: str | None = None
    # An upper-case word of the fix → the message placeholder whose value, when a lookup
    # has it from the user's paste, stands in its place: `JSON` → `{json!r}`.
    fills: dict[str, str] = {}
    # The same setting in the config file the program reads, and the line that reads it:
    # "# config.yaml\nenforce-eager: true\n\nvllm serve MODEL_TAG --config config.yaml".
    config: str | None = None


class Change(msgspec.Struct, kw_only=True, omit_defaults=True):
    """What a solution changes, as data: what its example fix is drawn from, whichever
    explainer found the solution.

    - `call`: an argument of a Python call. `target` is how the user reaches the callable:
      a public import path (`httpx.AsyncClient`, `rich.console.Console.print_json`);
      `argument` the parameter; `before`/`after` its value as Python source, None when the
      call leaves it out.
      With `method`, `target` is the class and the call is on an instance of it; with
      `keyword`, the value moves to that keyword (`print_json(data=...)`).
    - `first`: a method to call on the user's object before the one that raises.
      `target` is the class, `method` the method to call with the arguments `after`
      (source, "" for none), `keyword` the method that raises.
    - `install`: a package. `target` is the command that installs it (`pip install
      'httpx[http2]'`).
    - `env`: an environment variable. `target` is its name; `before`/`after` its value,
      None when unset.
    """

    form: str  # "call", "first", "install" or "env"
    target: str
    method: str | None = None  # call: the method called on an instance of `target`
    argument: str | None = None
    before: str | None = None
    after: str | None = None
    keyword: str | None = None  # call: the keyword the value is passed as after, if another
    # call: the arguments the call must give besides this one, as source with the user's
    # values named (`url=URL`); unknown when the callable's signature was not read
    required: tuple[str, ...] = ()
    # call: the public paths of the names `after` calls, imported beside `target`
    # (`httpx.WSGITransport` for `transport=WSGITransport(app=APP)`)
    imports: tuple[str, ...] = ()
    # call: `method` is a class or static method, called on the class itself
    static: bool = False
    # call: the method of the object the constructor made that runs the check, with its
    # arguments as source (`acquire()`), called after the constructor in both lines
    then: str | None = None
    # call: the constructor itself calls the method that checks, handing it the argument
    # (`Parameter.__init__` → `self._parse_decls(param_decls, ...)`)
    constructed: bool = False


class ChangedArgument(msgspec.Struct, kw_only=True, frozen=True, omit_defaults=True):
    """The argument an input way out changes, as data: what a rule after the one that
    found the way out reads of it (`next_checks`), in place of its sentence.

    `param` is the input as the raising function names it (its own parameter, or the
    keyword of its class's constructor an attribute was set from), `function` the function
    (or class) it is a parameter of. `value` is what the way out gives it: "None" (left out
    or None), "true" (a value, not None, not empty), "false" (an empty value), or the
    source of a member left out of it (`'x'` out of `mode`). `words` name it as the
    sentence does (“the argument `mode` of `click.open_file` (it reaches `open_stream`)”);
    `through`, the public calls that hand it on as it is (`facts.entry_args`), when no
    user calls `function` itself."""

    param: str
    function: str
    value: str
    words: str
    through: str | None = None


class Solution(msgspec.Struct, kw_only=True):
    text: str
    knob: str | None = None  # the knob it turns, when there is one
    condition: str | None = None  # the condition it makes false
    # what it changes: "setting" (a flag, an environment variable), "input" (an argument),
    # "environment" (a package, a platform); ranked in that order
    kind: str | None = None
    change: Change | None = None  # what it changes, as data, when that is exact
    fix: ExampleFix | None = None  # the solution as the user runs it, drawn from `change`
    # a switch that turns the raise into a quiet return: it hides the error, it does not
    # avoid it (offered last, or said in "What it means" when nothing else is a way out)
    hides: bool = False
    # it gives up what the user asked for: leaves the setting out (turns it off, leaves it
    # unset); a way out that keeps it ranks first
    drops: bool = False
    # it turns off a yes/no switch the user turned on (`VLLM_X=0`): a way out, but one that
    # gives up the feature; the message's own advice, which keeps it, ranks before it
    turns_off: bool = False
    # An upper-case word of the text → the message placeholder it names the user's value
    # of (`KEY` → `{key!r}`): a lookup puts in the value of the user's paste.
    fills: dict[str, str] = {}
    # it is the message's own advice, quoted as the way out ("Do what the message says:
    # “...”", "..., as the message says: “...”"): its authors' way, which keeps what the
    # user asked for where another way out gives it up (`advice_first`)
    advice: bool = False
    # the argument of the raising function it changes, as data (input ways out)
    argument: ChangedArgument | None = None


class WhenItHappens(msgspec.Struct, kw_only=True):
    trigger: str
    situations: list[str] = []


class RelatedError(msgspec.Struct, kw_only=True):
    id: str
    message: str | None
    exception: str | None
    relation: str  # "same function", "same guard", "same file", "similar message"
    file: str
    line: int


class VersionEntry(msgspec.Struct, kw_only=True):
    version: str
    file: str
    line: int
    id: str  # the error id in that version (differs when the error was reworded)
    status: str = "present"  # "present", "reworded", "moved", "removed"


class Analysis(msgspec.Struct, kw_only=True):
    by: str  # "rules" or "model"
    model: str | None = None
    at: str  # ISO 8601, when the page's prose was made
    project: str
    revision: str
    date: str | None = None  # the revision's date (a release's or a commit's)
    pinned: str | None = None  # what the revision is: "tag v0.33.0", "commit 4b6bdec4ab"
    pin_basis: str | None = None  # as `SourceView.pin_basis`
    pin_guessed: bool = False
    # The line under the page saying who wrote it, of what: made from the fields above, so
    # every face prints the same words.
    footer: str = ""

    def __post_init__(self) -> None:
        if self.by == "model":
            by = f"the model {self.model}" if self.model else "a model"
            what = f"AI-assisted analysis (written by {by})"
        else:
            what = "Static analysis"
        pin = said_pin(self.pinned or self.revision[:10], self.pin_basis, self.pin_guessed)
        when = f", {self.date[:10]}" if self.date else ""
        self.footer = f"{what} of {self.project} at {pin}{when}"


class OwnCheck(msgspec.Struct, kw_only=True):
    """A check only the package's own state decides (`explain/bookkeeping.py`): what the
    page says of it, the private attributes its conditions read (none when they read only
    what the function computes from literals and constants), and the project's tracker."""

    text: str
    attributes: list[str] = []
    report_to: str | None = None


class Page(msgspec.Struct, kw_only=True):
    id: str
    project: str
    version: str
    revision: str
    exception: ExceptionView | None
    kind: str
    level: str | None = None
    message: str | None
    shown: list[ShownView] = []  # the message as the user sees it, when that differs
    source: SourceView
    conditions: list[ConditionView] = []
    variants: list[VariantView] = []
    what_it_means: str
    # the code's own words on the check, most direct first (none rather than a repeat of
    # `what_it_means`)
    why: list[WhyQuote] = []
    when_it_happens: WhenItHappens
    solutions: list[Solution] = []
    example_fix: ExampleFix | None = None
    related: list[RelatedError] = []
    versions: list[VersionEntry] = []
    callers: list[Caller] = []
    knobs: list[Knob] = []
    bindings: list[BindingView] = []
    tests: list[TestView] = []
    analysis: Analysis
    report_url: str | None = None  # the project's tracker, prefilled with the message
    # a check only the package's own state decides: what the page says of it, set apart
    # for tools (`explain/bookkeeping.py`)
    own_check: OwnCheck | None = None
