"""A message that states what the user's value or class must be: the way out it gives.

Many messages say what is required rather than what to do: "a str, Segment, or object with
__rich_console__ method is required", "AsyncEngine expected, got {async_engine!r}",
"Pydantic plugins should implement `new_schema_validator`". When what the sentence speaks
of is something the user controls, the sentence is the authors' word on the way out, in
the user's terms:

- **an argument of a call the user makes**: the raising function is public, in a public
  module at most two modules deep in its package (`stated_form`'s bounds: deeper modules
  are a package's internals, vllm's kernels), the site is a `raise`, and the sentence
  names the parameter ("port must be an integer") or, with no subject of its own ("X is
  required", "X expected, got {arg}"), the value it got is the parameter (its placeholder
  names it, or the raise's own test reads that one parameter and no other);
- **an argument a public call hands on as it is** to a function no user calls (a private
  one, or one deep in the package): every chain of callers the linker found ends at one
  entry point the package exports (`entry_args.stated_entries`), so the requirement is
  said of that call's argument (`register_module(module=...)` →
  `_register_module(module)`: "module must be subclass of ReasoningParser");
- **a class attribute the user's class declares**: the subject names one in dunder form
  (`__table_args__`, `__pydantic_extra__`), which the package's scan of the class reads,
  however deep or private the scan;
- **a method the user's subclass defines**: the site is the only statement of a public
  class's method, the sentence says it "should implement" (or "define") that method by
  name, and no class of the package defines it (`overrides.py` names those otherwise).

The sentence may say what the value must not be ("The prompt cannot be empty", "x cannot
be greater than 10": said as what it must be, "not empty", "at most 10") or that it went
past a limit given as a number ("Requested logprob_token_ids of length {n}, which is greater
than max allowed: 128": "at most 128 long"). Those are said of the value the check reads as
it is, or of its length through a local (`n = len(self.logprob_token_ids)`): a subject that
names a parameter ("Mapped LoRA weight name cannot be None") may speak of what the code
made of it. A record's field that no code of its class writes is the keyword the user gave,
whichever of its methods checks it (`SamplingParams.verify()`, run by the engine).

What the program computes or allocates itself (an internal function's argument, a tensor,
a count it keeps) is none of these, and gets nothing here: such a page is an internal
invariant. A sentence a solution already quotes is left to it.
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass

from errdex.explain.abstract import subclasses_note
from errdex.explain.context import Facts, class_in_file
from errdex.explain.declared_fields import declared_keyword, exported_record, self_assignments
from errdex.explain.entry_input import names_read
from errdex.explain.inputs import public_name
from errdex.explain.item_fields import own_init
from errdex.explain.kept_first import gives_up_argument
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.state_gated import users_call
from errdex.explain.stated_form import named_parameter, shallow_call
from errdex.explain.user_call import user_call
from errdex.explain.user_data import arguments_read, callable_by_user, local_sources
from errdex.extract.shapes import self_attribute
from errdex.facts import SiteKind
from errdex.link.expression_texts import parse_expression

# "<subject> must be <what>", "... should have ...", "... needs to contain ...", "'default'
# {subject} must match nargs={nargs}": the subject (a few words or placeholders), the verb
# and what it asks.
_WORD = r"(?:[\w'\"`.()]+|\{[A-Za-z_]\w*(?:![rsa])?\})"
_MUST = re.compile(
    rf"^(?P<subject>{_WORD}(?:\s+{_WORD}){{0,4}}?)\s+"
    r"(?:must|should|needs\s+to|has\s+to)\s+"
    r"(?P<verb>be|have|contain|implement|define|match|consist)\s+"
    r"(?P<wants>\S.*?)\s*[.!]?$",
    re.I,
)
# "The {prompt_type} prompt cannot be empty", "name must not be None", "threshold cannot be
# greater than 10": what the value must not be, said only of what a value is (empty, None,
# negative, past a bound), not of a use ("cannot be used with"), nor of a pair ("cannot be
# both"), which name arguments to give rather than one value's rule.
_MUST_NOT = re.compile(
    rf"^(?P<subject>{_WORD}(?:\s+{_WORD}){{0,4}}?)\s+"
    r"(?:cannot|can't|can\s+not|(?:must|may|should)\s+not|mustn't|shouldn't)\s+be\s+"
    r"(?P<wants>(?:empty|blank|None|zero|negative|an?\s+empty\s+\w+|(?:greater|larger|more|"
    r"higher|bigger|longer|less|smaller|fewer|lower|shorter)\s+than\s+\S.*?))\s*[.!]?$",
    re.I,
)
# What "not" a bound is, as the bound that holds: "not greater than 10" is "at most 10".
_NOT_ABOVE = re.compile(r"^(?:greater|larger|more|higher|bigger|longer)\s+than\s+", re.I)
_NOT_BELOW = re.compile(r"^(?:less|smaller|fewer|lower|shorter)\s+than\s+", re.I)
# "Requested logprob_token_ids of length {n}, which is greater than max allowed: 128",
# "Identifier '{ident}' exceeds maximum length of 30 characters": the value past a limit
# the message gives as a number (a limit from a placeholder is a setting's, said by it)
_PAST_LIMIT = re.compile(
    r"^(?P<subject>[^,;:]{1,80}?)(?:,?\s+which\s+is|\s+(?:is|are))?\s+"
    r"(?:(?:is\s+)?(?:greater|larger|more|longer|bigger)\s+than|exceeds?|is\s+over)\s+"
    r"(?:the\s+)?(?:max(?:imum)?|limit)(?:\s+(?:allowed|supported|permitted))?"
    r"(?:\s+(?P<measure>length|size|count|number))?\s*(?:of\s+|:\s*|=\s*)?"
    r"(?P<limit>\d+)(?:\s+(?P<unit>[a-z]+))?\s*[.!]?$",
    re.I,
)
_LENGTH = re.compile(r"\blength\b", re.I)
# "Unsupported type, must be either BaseModel or dataclass", "...; should be string, list or
# set": what the value must be, the value itself named before.
_MUST_ALONE = re.compile(
    r"^(?:[^,;]{1,60},\s+)?(?:must|should)\s+(?P<verb>be|have|contain)\s+(?P<wants>\S.*?)\s*[.!]?$",
    re.I,
)
# "a str, Segment, or object with __rich_console__ method is required": what the value
# must be, with no subject of its own.
_REQUIRED = re.compile(r"^(?P<wants>(?:an?|the)\s+\S.*?)\s+(?:is|are)\s+required\s*[.!]?$", re.I)
# "AsyncEngine expected, got {async_engine!r}", "Expected mapped class or mapper, got:
# {entity!r}": what the value must be, and the value it got.
_EXPECTED = re.compile(
    r"^(?:expected\s+(?P<wants>\S.*?)|(?P<before>\S.*?)\s+expected),?\s+got:?\s+"
    r"\{(?P<got>[A-Za-z_]\w*)(?:![rsa])?(?::[^{}]*)?\}\s*[.!]?$",
    re.I,
)
# After "be": a verb of using or calling ("must be used with", "should be passed as"), which
# `advice_phrasings` reads as a precondition; not what the value is.
_USE_VERBS = re.compile(
    r"^(?:used|called|passed|applied|placed|invoked|performed|given|provided|specified|set|"
    r"defined|declared|constructed|configured|run|done|accessed|read|enabled|able|"
    r"explicitly|installed|loaded|imported)\b",
    re.I,
)
# What the value was, said after what it must be: ", got {x}", ", not {type(x)}", "(got 3)",
# ": got {a} and {b}".
GOT_TAIL = re.compile(r"(?:[,:;]?\s+(?:but\s+)?(?:got|not|found|received)\b|\s*\(got\b).*$", re.I)
# Copies of a sequence that keep its items.
_COPIES = ("list", "tuple", "sorted", "reversed")
_BUILTINS = frozenset(dir(builtins))
# The case a requirement holds in ("a list when 'multiple' is true"): another argument it
# names there is the case, not one more argument to give.
_CASE_TAIL = re.compile(r"\s+(?:when|if|unless|while)\b.*$", re.I)
# A value a message shows in brackets beside what it names: "rank ({self.rank})"; not one
# after a word that asks for it ("one of ({names})", "a multiple of ({block})"): that one
# is what is wanted
_SHOWN = re.compile(r"\s*\(\{[^{}]+\}\)")
_ASKS_FOR = re.compile(
    r"\b(?:of|in|to|by|with|than|from|be|is|are|as|or|and|like|equal|between|within)\s*$", re.I
)
# A subject that is the value passed, by its kind alone ("List argument must consist only of
# tuples or dictionaries"): no parameter's name, so the one argument the test reads is it
_ARGUMENT_SUBJECT = re.compile(r"^(?:the\s+)?(?:[A-Za-z]+\s+)?(?:argument|parameter)$", re.I)
# What a value must be that is a bound ("less than 255 characters", "below `n`"): kept so
_BOUND = re.compile(
    r"^(?:less|fewer|more|greater|smaller|larger|lower|higher|below|above|under|over|"
    r"at\s+(?:least|most)|no\s+(?:more|less|greater|larger|fewer)|within|between|"
    r"in\s+the\s+range)\b",
    re.I,
)
# A clause ends at a semicolon or at the end of a sentence.
_CLAUSES = re.compile(r"\s*;\s*|(?<=[.!?])\s+(?=[A-Z`'\"])")
_MAX_CLAUSE = 200
# A class attribute in dunder form a class body declares (`__table_args__`,
# `__pydantic_extra__`): quoted or bare, as the subject's last name
_DUNDER = re.compile(r"(?:^|[\s`'\"])__[a-z][a-z0-9_]*[a-z0-9]__(?:[`'\"]|\s|$)")
# ... that a module holds, not a class's body (a module's scan: "__all__ must be a list")
_MODULE_DUNDERS = frozenset(
    {"__all__", "__version__", "__file__", "__path__", "__name__", "__doc__", "__spec__"}
    | {"__loader__", "__package__", "__builtins__", "__cached__", "__author__"}
)
# ... as the message writes it (bare, or in any quotes): code-quoted on the page
_DUNDER_BARE = re.compile(r"[`'\"]?(?<!\w)(__[a-z][a-z0-9_]*[a-z0-9]__)(?!\w)[`'\"]?")
# ... not a method the class is to define ("The '__iter__' method must be implemented")
_METHOD_WORDS = re.compile(r"\b(?:method|implemented|function|callable)\b|\(\)", re.I)


@dataclass(frozen=True)
class Requirement:
    """One clause that states a requirement: its subject (None when it has none), the verb
    (`be`, `have`, ..., `required`, `expected`), what it asks and the placeholder of the
    value it got (`expected ... got {x}`)."""

    clause: str
    subject: str | None
    verb: str
    wants: str
    got: str | None = None
    # said of the value the check reads as it is (empty, None, past a limit): a subject
    # that names a parameter ("Mapped LoRA weight name cannot be None") may speak of what
    # the code made from it (`mapped_name = mapper.map(name)`), which the check reads
    as_given: bool = False


def _unshown(clause: str) -> str:
    """The clause without the values it shows beside names, keeping one that is asked for."""
    return _SHOWN.sub(lambda m: m[0] if _ASKS_FOR.search(clause, 0, m.start()) else "", clause)


def requirements(message: str) -> list[Requirement]:
    """The clauses of a message template that state a requirement, in order."""
    found: list[Requirement] = []
    for clause in _CLAUSES.split(message.strip()):
        clause = clause.strip()
        if not clause or len(clause) > _MAX_CLAUSE:
            continue
        # "trainer `rank` ({self.rank}) must be below ...": the value shown beside a name
        # is no part of it, nor of what it must be
        text = _unshown(clause)
        match = _MUST.match(text)
        if match is not None:
            verb = match["verb"].lower()
            if verb == "be" and _USE_VERBS.match(match["wants"]):
                continue
            found.append(Requirement(clause, match["subject"], verb, match["wants"]))
            continue
        match = _MUST_NOT.match(text)
        if match is not None:
            wants = _not_be(match["wants"])
            found.append(Requirement(clause, match["subject"], "be", wants, as_given=True))
            continue
        match = _PAST_LIMIT.match(text)
        if match is not None:
            wants = _within(match)
            found.append(Requirement(clause, match["subject"], "be", wants, as_given=True))
            continue
        match = _MUST_ALONE.match(text)
        if match is not None and not _USE_VERBS.match(match["wants"]):
            found.append(Requirement(clause, None, match["verb"].lower(), match["wants"]))
            continue
        match = _REQUIRED.match(text)
        if match is not None:
            found.append(Requirement(clause, None, "required", match["wants"]))
            continue
        match = _EXPECTED.match(text)
        if match is not None:
            wants = match["wants"] or match["before"]
            found.append(Requirement(clause, None, "expected", wants, match["got"]))
    return found


def _not_be(wants: str) -> str:
    """What a value "cannot be", as what it must be: "at most 10" for "greater than 10"."""
    for negated, bound in ((_NOT_ABOVE, "at most "), (_NOT_BELOW, "at least ")):
        if negated.match(wants):
            return negated.sub(bound, wants, count=1)
    return f"not {wants}"


def _within(past: re.Match[str]) -> str:
    """The bound a value past a limit must keep within: "at most 128", "at most 30
    characters long" for a length ("exceeds maximum length of 30 characters")."""
    unit = f" {past['unit']}" if past["unit"] else ""
    long = past["measure"] == "length" or _LENGTH.search(past["subject"]) is not None
    return f"at most {past['limit']}{unit}" + (" long" if long else "")


def requirement_solution(facts: Facts, quoted: list[str]) -> Solution | None:
    """The way out the message's stated requirement gives, when it speaks of the user's
    argument or the user's own subclass; None otherwise, or when a solution (`quoted`:
    their texts) already quotes the sentence."""
    message = facts.stored.site.message
    if message is None:
        return None
    public = public_name(facts.stored.site.function)
    for stated in requirements(message.text):
        if any(stated.clause in text for text in quoted):
            return None  # said already, in the message's own words
        solution = (
            (_implemented(stated, facts) or _argument(stated, facts, quoted))
            if public
            else _kept_argument(stated, facts, quoted)
        )
        solution = solution or _entry_argument(stated, facts, quoted) or _declared(stated, facts)
        if solution is not None:
            return solution
    return None


def _argument(stated: Requirement, facts: Facts, quoted: list[str]) -> Solution | None:
    """ "Make the argument `p` of `f` ...": the requirement is of a parameter of a call the
    user makes."""
    site = facts.stored.site
    if stated.verb in ("implement", "define") or not callable_by_user(facts):
        return None
    # an `assert` states the authors' own invariant, unless the function is one the
    # package hands to users (`state_gated`): then it tests their argument as a raise does
    if site.kind != SiteKind.RAISE and not (site.kind == SiteKind.ASSERT and users_call(facts)):
        return None
    call = shallow_call(facts) or _record_call(facts)
    function = facts.site_function()
    if call is None or function is None:
        return None
    params = _given(function, facts.read.params)
    named = _placeholder(stated.subject) or stated.got
    item = None  # the argument whose items the value is
    owner, _, method = site.function.rpartition(".")
    callable_ = owner if method == "__init__" else site.function
    if named is not None:
        param = named if named in params else None
        if param is None:
            item = _iterated(named, function, facts.read.params)
    elif stated.subject is not None:
        param = named_parameter(stated.subject, params)
        if param is not None and not _tested(param, facts, function):
            return None  # the check reads something else: the message's subject is not it
        if param is not None and stated.as_given and not _read_as_given(param, facts, function):
            return None  # the check reads what the code made of it, not the value given
        if param is None and _ARGUMENT_SUBJECT.match(stated.subject):
            read = arguments_read(facts)  # "List argument": the one argument the test reads
            param = read[0] if len(read) == 1 else None
        if param is None:
            param, callable_ = _constructor_keyword(stated.subject, facts)
    else:
        read = arguments_read(facts)
        param = read[0] if len(read) == 1 else None
        if not read:
            item = _iterated_read(facts, function)
    if item is not None:
        param, packed = item
    if param is None or _asks_arguments(stated, _CASE_TAIL.sub("", stated.wants), params):
        return None  # which argument is not said; or it asks for arguments ("a or b")
    if any(code(param) in text and not gives_up_argument(text) for text in quoted):
        return None  # a way out of that argument is offered already, with its values
    what = f"the argument {code(param)} of {code(callable_)}"
    if item is not None:
        what = (
            f"each of the arguments {code('*' + param)} of {code(callable_)}"
            if packed
            else f"each item of the argument {code(param)} of {code(callable_)}"
        )
    base = subclasses_note(call[0], facts) if method == "__init__" else None
    return _asked(stated, what, facts, base)


def _kept_argument(stated: Requirement, facts: Facts, quoted: list[str]) -> Solution | None:
    """ "Make the argument `logprobs` of `SamplingParams` ...": the requirement a private
    method of a class the user makes states of an attribute its constructor keeps as the
    user gave it (`SamplingParams.__post_init__` runs `self._verify_args()`): the user's
    keyword of the class's call, however private the method that checks it."""
    site = facts.stored.site
    if site.kind != SiteKind.RAISE or stated.subject is None:
        return None
    if shallow_call(facts) is None and not exported_record(facts):
        return None
    if stated.verb in ("implement", "define") or site.function.count(".") != 1:
        return None
    param, owner = _constructor_keyword(stated.subject, facts)
    asked = _CASE_TAIL.sub("", GOT_TAIL.sub("", stated.wants))  # not the value it got
    if param is None or _asks_arguments(stated, asked, (param,)):
        return None
    if any(code(param) in text and not gives_up_argument(text) for text in quoted):
        return None  # a way out of that keyword is offered already, with its values
    return _asked(stated, f"the argument {code(param)} of {code(owner)}", facts)


def _record_call(facts: Facts) -> tuple[str, str | None] | None:
    """The call of the site's class, where the site checks what its construction was given
    (`__init__`, `__post_init__`) and the class is a record its module exports at any depth
    (`exported_record`): its maker's keywords, however deep the class."""
    method = facts.stored.site.function.rpartition(".")[2]
    if method not in ("__init__", "__post_init__") or not exported_record(facts):
        return None
    return user_call(facts, constructor=True)


def _asked(stated: Requirement, what: str, facts: Facts, base: str | None = None) -> Solution:
    """The requirement said of `what` (the user's argument, in words), with the message."""
    # what it got ("..., got {x}", "not {type(x)}") is the user's own value: not asked for
    wants = GOT_TAIL.sub("", stated.wants)
    if stated.verb in ("required", "expected"):
        wants = re.sub(r"^(An?|The)\b", lambda m: m.group(1).lower(), wants)
        text = f"Pass {wants} as {what}"
    elif stated.verb == "be":
        text = f"{'Keep' if _BOUND.match(wants) else 'Make'} {what} {wants}"
    else:
        text = f"Make {what} {stated.verb} {wants}"
    # the raise's own test is what the argument decides: not said again as the context
    condition = facts.held[-1].text if facts.held else None
    return Solution(
        text=f"{text}, as the message says: “{message_text(facts)}”" + (f" {base}" if base else ""),
        condition=condition,
        kind="input",
        advice=True,
    )


def _entry_argument(stated: Requirement, facts: Facts, quoted: list[str]) -> Solution | None:
    """ "Make the argument `module` of `pkg.Manager.register_module` (it reaches
    `Manager._register_module`) ...": the requirement is of an argument of a function no
    user calls, which a public call hands on as it is (`Facts.stated_entries`)."""
    entries = facts.stated_entries
    if not entries:
        return None
    test = facts.held[-1].text if facts.held else ""
    reads = names_read(parse_expression(test) or ast.Constant(None))
    param = asked_parameter(stated, tuple(entries), reads & {*facts.read.params, "self", "cls"})
    params = tuple(p for p in facts.read.params if p not in ("self", "cls"))
    asked = _CASE_TAIL.sub("", GOT_TAIL.sub("", stated.wants))  # not the value it got
    if param is None or _asks_arguments(stated, asked, params):
        return None  # which argument is not said; or it asks for arguments ("a or b")
    entry = entries[param]
    argument, public = entry.argument, entry.named()
    if any(code(argument) in text and public in text for text in quoted):
        return None  # a way out of that argument is offered already
    callee = code(facts.stored.site.function.removesuffix(".__init__"))
    reaches = f"{callee} as {code(param)}" if param != argument else callee
    what = f"the argument {code(argument)} of {public} (it reaches {reaches})"
    return _asked(stated, what, facts)


def asked_parameter(stated: Requirement, candidates: tuple[str, ...], read: set[str]) -> str | None:
    """Which of `candidates` the requirement is of: the one its subject or its placeholder
    names, or, with no subject (or one that names only the argument's kind, "List
    argument"), the one argument the raise's own test reads when it reads nothing else the
    function holds (`read`: the parameters, `self` and `cls` it reads)."""
    if stated.verb in ("implement", "define"):
        return None
    named = _placeholder(stated.subject) or stated.got
    if named is not None:
        return named if named in candidates else None
    if stated.subject is not None:
        param = named_parameter(stated.subject, candidates)
        if param is not None or not _ARGUMENT_SUBJECT.match(stated.subject):
            return param
    only = [p for p in candidates if p in read]
    return only[0] if len(only) == 1 and read == {only[0]} else None


def _implemented(stated: Requirement, facts: Facts) -> Solution | None:
    """ "Define `m` in your subclass of `C`": the message says the method the site is the
    whole body of is to be implemented, and no class of the package defines it."""
    if stated.verb not in ("implement", "define") or facts.stored.overrides is not None:
        return None
    site = facts.stored.site
    owner, _, method = site.function.rpartition(".")
    named = re.findall(r"[A-Za-z_]\w*", stated.wants)
    if not owner or "." in owner or method not in named[:2] or method.startswith("_"):
        return None
    public = facts.stored.public_path()
    function = facts.site_function()
    if public is None or function is None or not _only_raises(function, site.line):
        return None
    home = public[: -len(site.function)].rstrip(".") or facts.stored.module
    return Solution(
        text=f"Define {code(method)} in your own class that subclasses {code(owner)} "
        f"({code(home)}), as the message says: “{message_text(facts)}”",
        kind="input",
        advice=True,
    )


def _declared(stated: Requirement, facts: Facts) -> Solution | None:
    """ "Make `__table_args__` value a tuple, dict, or None in the body of your class": the
    subject names a class attribute in dunder form (not a method to implement), which the
    user's class declares and the package's scan of that class reads, however deep in the
    package's tree the scan sits."""
    if stated.subject is None or stated.verb not in ("be", "have", "contain"):
        return None
    if facts.stored.site.kind != SiteKind.RAISE or _METHOD_WORDS.search(stated.clause):
        return None
    dunder = _DUNDER.search(stated.subject)
    if dunder is None:
        return None
    name = dunder.group().strip(" `'\"\t\n")
    function = facts.site_function()
    if name in _MODULE_DUNDERS or function is None or not _reads_name(function, name):
        return None  # a module's name (`__all__`), or one the check does not read
    subject = _DUNDER_BARE.sub(r"`\1`", stated.subject.strip())
    subject = subject[0].lower() + subject[1:] if subject[:4] == "The " else subject
    verb = "" if stated.verb == "be" else f"{stated.verb} "
    wants = GOT_TAIL.sub("", stated.wants)
    return Solution(
        text=f"Make {subject} {verb}{wants} in the body of your class, as the message says: "
        f"“{message_text(facts)}”",
        kind="input",
        advice=True,
    )


def _reads_name(function: ast.FunctionDef, name: str) -> bool:
    """Whether the function reads `name` off an object: `X.__n__`, `getattr(X, "__n__")`,
    `namespace["__n__"]`, `name == "__n__"` (a class's scan compares the names it walks)."""
    return any(
        (isinstance(node, ast.Attribute) and node.attr == name)
        or (isinstance(node, ast.Constant) and node.value == name)
        for node in ast.walk(function)
    )


def _only_raises(function: ast.FunctionDef, line: int) -> bool:
    """Whether the function's body (after its docstring) is the raise at `line` alone."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return len(body) == 1 and isinstance(body[0], ast.Raise) and body[0].lineno == line


def _tested(param: str, facts: Facts, function: ast.FunctionDef) -> bool:
    """Whether a condition on the path reads the parameter, as it is or through a local the
    function assigns from it (`value = int(port)`)."""
    read: set[str] = set()
    for condition in facts.held:
        if (tree := parse_expression(condition.text)) is not None:
            read |= names_read(tree)
    if param in read:
        return True
    sources = local_sources(function)
    return any(
        param in names_read(value)
        for name in read
        for value in sources.get(name, [])
        if isinstance(value, ast.expr)
    )


def _constructor_keyword(subject: str, facts: Facts) -> tuple[str | None, str]:
    """(the keyword of the class's call, the class) that an attribute the raise's own test
    reads (`self.chunk_size`) holds as given, when the subject names that attribute; (None,
    "") otherwise."""
    owner = facts.stored.site.function.rpartition(".")[0]
    if not owner or "." in owner or not facts.held:
        return None, ""
    read = set(re.findall(r"\bself\.([A-Za-z]\w*)\b(?!\s*\()", facts.held[-1].text))
    read |= _measured_attributes(facts)
    keywords: dict[str, str] = {}
    for attribute in sorted(read):
        keyword = facts.read.init_params.get(attribute)
        if keyword is None or not _checked_as_given(facts, owner, attribute):
            keyword = declared_keyword(facts, owner, attribute, record=True)
        if keyword is not None:
            keywords[attribute] = keyword
    attribute = named_parameter(subject, tuple(keywords))
    return (keywords[attribute], owner) if attribute is not None else (None, "")


def _read_as_given(param: str, facts: Facts, function: ast.FunctionDef) -> bool:
    """Whether the raise's own test reads the parameter as it is, or its length through a
    local assigned once (`n = len(tokens)`)."""
    read, measured = _measured(facts, function)
    return param in read or any(isinstance(v, ast.Name) and v.id == param for v in measured)


def _measured_attributes(facts: Facts) -> set[str]:
    """The attributes the raise's own test reads through a local that holds one as it is
    or its length, assigned once (`n = len(self.logprob_token_ids)`, then `n > 128`)."""
    function = facts.site_function()
    if function is None:
        return set()
    _, measured = _measured(facts, function)
    return {a for v in measured if (a := self_attribute(v)) is not None}


def _measured(facts: Facts, function: ast.FunctionDef) -> tuple[set[str], list[ast.expr]]:
    """(the names the raise's own test reads, what each of its locals assigned once holds:
    the value itself, or the value whose length it is)."""
    test = parse_expression(facts.held[-1].text) if facts.held else None
    if test is None:
        return set(), []
    read = names_read(test)
    sources = local_sources(function)
    measured: list[ast.expr] = []
    for name in sorted(read):
        made = sources.get(name, [])
        value = made[0] if len(made) == 1 else None
        if isinstance(value, ast.Call) and _call_of(value, "len") is not None:
            value = value.args[0]
        if isinstance(value, ast.expr):
            measured.append(value)
    return read, measured


def _checked_as_given(facts: Facts, owner: str, attribute: str) -> bool:
    """Whether the site's check sees `self.<attribute>` as the constructor kept it from its
    keyword: nothing in the class assigns it but that one `self.x = x`, and the check is the
    constructor's own or a private method it calls after that assignment. A method nothing
    runs at construction may see the attribute after other code changed it (`step()`
    decrements `self.limit` before `_check()`): the keyword is then no way out."""
    cls = class_in_file(facts, owner)
    if cls is None or self_assignments(cls, attribute) != 1:
        return False
    method = facts.stored.site.function.rpartition(".")[2]
    if method == "__init__" or not method.startswith("_"):
        return True  # the constructor's own check, or a method the user calls
    init = own_init(cls)
    if init is None:
        return False
    kept = [
        n.lineno
        for n in ast.walk(init)
        if isinstance(n, ast.Attribute)
        and isinstance(n.ctx, ast.Store)
        and self_attribute(n) == attribute
    ]
    return bool(kept) and any(
        isinstance(n, ast.Call) and self_attribute(n.func) == method and n.lineno > kept[0]
        for n in ast.walk(init)
    )


def _given(function: ast.FunctionDef, params: tuple[str, ...]) -> tuple[str, ...]:
    """The parameters a caller gives one value each (not `self`, `*args`, `**kwargs`)."""
    packed = {a.arg for a in (function.args.vararg, function.args.kwarg) if a is not None}
    return tuple(p for p in params if p not in ("self", "cls") and p not in packed)


def _placeholder(subject: str | None) -> str | None:
    """The name a subject that is a bare placeholder shows (`{suppress_entity!r}`)."""
    match = re.fullmatch(r"\{([A-Za-z_]\w*)(?:![rsa])?\}", subject or "")
    return match.group(1) if match else None


def _iterated_read(facts: Facts, function: ast.FunctionDef) -> tuple[str, bool] | None:
    """The argument whose items the raise's own test reads, when it reads one name and
    that is a loop's item (`for renderable in renderables: ... is_renderable(renderable)`)."""
    if not facts.held:
        return None
    test = parse_expression(facts.held[-1].text)
    if test is None:
        return None
    names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
    names -= {n for n in names if n in _BUILTINS or not n.islower()}
    loops = [n for n in names if _iterated(n, function, facts.read.params) is not None]
    read_locals = [n for n in names if n not in facts.read.params and _assigned(n, function)]
    if len(loops) != 1 or len(read_locals) != 1:
        return None  # what else the test reads may be the program's own state
    return _iterated(loops[0], function, facts.read.params)


def _iterated(
    name: str, function: ast.FunctionDef, params: tuple[str, ...]
) -> tuple[str, bool] | None:
    """(the parameter, whether it is `*args`) whose items the local `name` takes in turn:
    the target of the only `for` that binds it, over the parameter itself or a local made
    from it first (`cell_renderables = list(renderables)`), and bound nowhere else."""
    sources = local_sources(function)
    loops = [
        node
        for node in ast.walk(function)
        if isinstance(node, ast.For | ast.AsyncFor) and _binds(node, name)
    ]
    if len(loops) != 1 or len(sources.get(name, [])) != 1:
        return None  # bound by an assignment as well, or by several loops
    source = _unwrapped(loops[0].iter, loops[0].target, name)
    if isinstance(source, ast.Name) and source.id not in params:
        made = sources.get(source.id, [])
        first = made[0] if made else None
        source = _unwrapped(first, None, name) if isinstance(first, ast.expr) else None
    if not isinstance(source, ast.Name) or source.id not in params or source.id in ("self", "cls"):
        return None
    kwarg = function.args.kwarg
    if kwarg is not None and kwarg.arg == source.id:
        return None  # the keywords' names, not values a user lists
    vararg = function.args.vararg
    return source.id, vararg is not None and vararg.arg == source.id


def _binds(loop: ast.For | ast.AsyncFor, name: str) -> bool:
    """Whether the loop's target is `name`, or `(i, name)` over `enumerate(...)`."""
    target = loop.target
    if isinstance(target, ast.Name):
        return target.id == name
    return (
        isinstance(target, ast.Tuple)
        and len(target.elts) == 2
        and isinstance(target.elts[1], ast.Name)
        and target.elts[1].id == name
        and _call_of(loop.iter, "enumerate") is not None
    )


def _unwrapped(node: ast.expr, target: ast.expr | None, name: str) -> ast.expr | None:
    """What a loop walks through, past `enumerate(x)` (for the `(i, name)` target) and
    copies that keep the items (`list(x)`, `tuple(x)`, `sorted(x)`, `reversed(x)`)."""
    if isinstance(target, ast.Tuple):
        inner = _call_of(node, "enumerate")
        if inner is None:
            return None
        node = inner
    for _ in range(2):
        inner = next((i for c in _COPIES if (i := _call_of(node, c)) is not None), None)
        if inner is None:
            break
        node = inner
    return node


def _call_of(node: ast.expr, function: str) -> ast.expr | None:
    """The one argument of a call of the builtin `function`, or None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == function
        and len(node.args) == 1
        and not node.keywords
    ):
        return node.args[0]
    return None


def _assigned(name: str, function: ast.FunctionDef) -> bool:
    return name in local_sources(function)


def _asks_arguments(stated: Requirement, wants: str, params: tuple[str, ...]) -> bool:
    """Whether what is asked is arguments to give rather than what one value must be; what
    a value must match names the other argument as the measure ("match nargs={nargs}"), as
    a bound does ("below `num_trainer_ranks`")."""
    return stated.verb != "match" and not _BOUND.match(wants) and _names_parameter(wants, params)


def _names_parameter(wants: str, params: tuple[str, ...]) -> bool:
    """Whether what is asked names a parameter ("source or source_file is required"):
    arguments to give, not what one value must be."""
    words = set(re.findall(r"[A-Za-z_]\w*", wants))
    return any(p in words for p in params if len(p) > 1)


def message_text(facts: Facts) -> str:
    message = facts.stored.site.message
    return message.text.strip() if message is not None else ""
