"""The names the message's advice gives, resolved against the index before they are offered.

A message's advice names things: a keyword and its value (`use check_fields=False if ...`,
`only supports init=False`), a method it retires (`` `_iter` ... should no longer be
used``). Each is offered as a way out only when it resolves to something the user acts on:

- a keyword is a parameter of the public function that raises (the call is then written
  with it), or the attribute a condition of the check tests, whose value as advised makes
  that condition false (`dec.info.check_fields is not False` with `check_fields=False`);
- a retired name is the raising function itself (or its class), or a name the check looks
  up on the user's object (`hasattr(cls, '__post_init_post_parse__')`).

A name that resolves to nothing is quoted as the message says it, never made a setting.
Comments beside the check are read too: one that warns against a way out (`silently
disabling here leaves the peer blocked`) vetoes the setting it names. The way out such code
wants is often in the message: "failed to load the NCCL library" raised where the `try`
called `NCCLLibrary(library_path)` with the caller's own path: a path that loads.
"""

from __future__ import annotations

import ast
import re

import msgspec

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.fix_forms import swapped_method_fix
from errdex.explain.input_nodes import kwargs_key
from errdex.explain.inputs import public_name
from errdex.explain.outline import defining
from errdex.explain.page import Change, ConditionView, ExampleFix, Knob, Solution
from errdex.explain.plain import code
from errdex.explain.user_call import call_change, user_call
from errdex.facts import ConditionKind

# `name=value` in a sentence: a lower-case keyword and a Python literal (an upper-case name
# is an environment variable, said by `advice.Advice.change`).
_KEYWORD = re.compile(
    r"(?<![\w.-])(?P<name>[a-z_][a-z0-9_]*)\s?=\s?"
    r"(?P<value>True|False|None|-?\d+(?:\.\d+)?|'[^'{}]*'|\"[^\"{}]*\")(?![\w.])"
)
# The verbs of a setting's own name that say what it turns off or on, and the stem a
# comment writes them with ("disabling", "skipped").
_ACTION_STEMS = {
    "disable": "disabl",
    "enable": "enabl",
    "skip": "skip",
    "ignore": "ignor",
    "allow": "allow",
    "force": "forc",
    "bypass": "bypass",
    "fallback": "fall",
}
# What a comment says of a way out it warns against: it hangs, hides the failure, breaks.
_WARNS = re.compile(
    r"\b(?:silently|hangs?|hung|blocked|blocks|deadlocks?|until\s+timeout|fail\s+loudly|"
    r"unsafe|corrupts?|wrong\s+results?|must\s+not|do\s+not|don't|never)\b",
    re.I,
)
_COMMENT_SENTENCE = re.compile(r"(?<=[.!?;])\s+")
# A message that says something could not be loaded or opened, and a parameter that names
# where it is: the caller's path is what the failed call read.
_FAILED_LOAD = re.compile(r"\b(?:load|open|read|find|locate)(?:ed|ing)?\b", re.I)
_IMPORT_ERROR = re.compile(r"\b(?:ImportError|ModuleNotFoundError)\b")
_PATH_PARAM = re.compile(r"(?:^|_)(?:path|file|filename|dir|directory|so_file)$")
# "...; use `model_dump` instead": the one name the clause gives in the retired one's place
# (not "if your data is JSON use `x`, otherwise ... use `y` instead", nor "use `x` and
# json.dumps instead").
_REPLACED_BY = re.compile(
    r"(?:^|[;,.]\s*)(?:please\s+)?use `(?P<new>[A-Za-z_]\w*)` instead\b", re.I
)
# What comes right before a keyword the message advises: the verb or "option" that gives it.
_ADVISED = re.compile(
    r"\b(?:use|set|pass|specify|add|provide|option|supports?|accepts?|allows?|using|setting|"
    r"passing)\s+[`'\"]?$",
    re.I,
)


def keyword_solution(text: str, facts: Facts) -> Solution | None:
    """The advice's `name=value` as a way out, when the name resolves (see the module's
    docstring); None when the sentence gives none or its name resolves to nothing."""
    for match in _KEYWORD.finditer(text):
        if _ADVISED.search(text[: match.start()]) is None:
            continue  # `when paged_kv=True`, `with head_dim=256`: a case, not the advice
        name, value = match.group("name"), match.group("value")
        tested = _tested_attribute(name, value, facts)
        if tested is None:
            continue
        said = f"as the message says: “{text}”"
        # a check of the argument left out (`prefix is None`): the call that raised gave none
        left_out = tested.text.strip() == f"{name} is None"
        # a key taken out of `**kw` with its default: the call that raised left it out
        left_out = left_out or (name not in facts.read.params and _popped(name, facts))
        call = _call_keyword(name, value, facts, None if left_out else name.upper())
        if call is not None:
            target = call.target if call.method is None else f"{call.target}.{call.method}"
            return Solution(
                text=f"Pass `{name}={value}` to {code(target)}, {said}",
                kind="input",
                condition=tested.text,
                change=call,
                advice=True,
            )
        return Solution(
            text=f"Use `{name}={value}` (the check tests {code(tested.text)}, which is then "
            f"false), {said}",
            kind="input",
            condition=tested.text,
            advice=True,
        )
    return None


def names_keyword(text: str) -> bool:
    """Whether the sentence gives a keyword a value (`init=False`)."""
    return _KEYWORD.search(text) is not None


def _call_keyword(name: str, value: str, facts: Facts, before: str | None) -> Change | None:
    """The call of the public function that raises, with the keyword as advised (`before`:
    what the call gave it, None when it gave none): when the keyword is one of its
    parameters a call may pass by name."""
    read = facts.read
    if name in read.positional or (name not in read.params and not _popped(name, facts)):
        return None
    # the message names the function (or its class) it is a keyword of: not a keyword of
    # a helper that happens to share the name of an option given elsewhere
    message = facts.stored.site.message
    parts = facts.stored.site.function.split(".")
    said = message.text if message is not None else ""
    if not any(re.search(rf"\b{re.escape(p)}\b", said) for p in parts if p != "__init__"):
        return None
    return call_change(facts, name, before, value)


def _popped(name: str, facts: Facts) -> bool:
    """Whether the site's function takes `name` out of its `**kw` by key before the check
    (`self.retrieve_as_bitwise = kw.pop("retrieve_as_bitwise", False)` in `SET.__init__`):
    a keyword its call gives by name, though no parameter declares it. Only of a function a
    user calls (`Table._new`, which `Table()` calls with its own keywords, is none)."""
    function = facts.site_function()
    if function is None or function.args.kwarg is None:
        return False
    if not public_name(facts.stored.site.function):
        return False
    keywords = function.args.kwarg.arg
    line = facts.stored.site.line
    return any(
        isinstance(node, ast.Call | ast.Subscript)
        and not isinstance(getattr(node, "ctx", None), ast.Store)  # `kw["k"] = ...` sets it
        and node.lineno < line
        and kwargs_key(node, keywords) == name
        for node in walk(function)
    )


def _tested_attribute(name: str, value: str, facts: Facts) -> ConditionView | None:
    """The condition of the check that tests `name` (as a name or the last attribute of
    one) and is false once it holds `value`."""
    try:
        literal = ast.parse(value, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    for condition in facts.held:
        try:
            node = ast.parse(condition.text, mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            continue
        replaced = _Substitute(name, literal).visit(node)
        if _constant_truth(replaced) is False:
            return condition
    return None


class _Substitute(ast.NodeTransformer):
    """Every `name` and `x.y.name` replaced by the literal."""

    def __init__(self, name: str, literal: ast.expr) -> None:
        self.name = name
        self.literal = literal

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.literal if node.id == self.name else node

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        return self.literal if node.attr == self.name else node


def _constant_truth(node: ast.AST) -> bool | None:
    """The truth of an expression of literals, comparisons, `not`, `and`/`or`; None when
    it reads anything else."""
    if isinstance(node, ast.Constant):
        return bool(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _constant_truth(node.operand)
        return None if inner is None else not inner
    if isinstance(node, ast.BoolOp):
        values = [_constant_truth(v) for v in node.values]
        decisive = isinstance(node.op, ast.Or)
        if decisive in values:
            return decisive
        return None if None in values else not decisive
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, right = node.left, node.comparators[0]
        if not (isinstance(left, ast.Constant) and isinstance(right, ast.Constant)):
            return None
        a, b, op = left.value, right.value, node.ops[0]
        if isinstance(op, ast.Is | ast.Eq):
            return a is b if isinstance(op, ast.Is) else a == b
        if isinstance(op, ast.IsNot | ast.NotEq):
            return a is not b if isinstance(op, ast.IsNot) else a != b
    return None


def retired_solution(name: str, message: str, facts: Facts) -> Solution | None:
    """`The `dict` method is deprecated; use `model_dump` instead`: stop using it, when
    the name is the raising function (or its class), or one the check looks up on the
    user's object; the whole message is quoted, with the replacement it names."""
    function = facts.stored.site.function
    parts = function.split(".")
    if name not in (function, parts[-1], *parts[:-1]) and not _tested_name(name, facts):
        return None
    what = function if name in (function, parts[-1]) else name
    return Solution(
        text=f"Stop using {code(what)} in your code, as the message says: “{message}”",
        kind="input",
        fix=_replacement_fix(message, facts) if what == function else None,
        advice=True,
    )


def _tested_name(name: str, facts: Facts) -> bool:
    """Whether the check tests the name as a literal: it looks it up on the user's object
    (`hasattr(cls, '__post_init_post_parse__')`: the user's own code defines it) or compares
    the user's value with it (`mode == "legacy"`: the user passes it); either way it is the
    user's to stop using."""
    quoted = (repr(name), f'"{name}"')
    return any(q in c.text for c in facts.held for q in quoted)


def _replacement_fix(message: str, facts: Facts) -> ExampleFix | None:
    """`base_model.dict()` → `base_model.model_dump()`: the method (or property) the
    message names in the retired one's place, when the class that raises defines it, on
    the user's object by the class's public path; the arguments the old one requires are
    carried over by position only where the new one requires as many, none by keyword."""
    named = _REPLACED_BY.search(message)
    call = user_call(facts)
    owner, _, old = facts.stored.site.function.partition(".")
    if named is None or call is None or call[1] != old:
        return None
    defined = {}
    # the file's top-level definitions of the class alone (not the whole file)
    for node in (facts.top_module(defining(owner)) or ast.Module(body=[], type_ignores=[])).body:
        if isinstance(node, ast.ClassDef) and node.name == owner:
            defined = {f.name: f for f in node.body if isinstance(f, ast.FunctionDef)}
    before, after = defined.get(old), defined.get(named.group("new"))
    if before is None or after is None:
        return None
    attribute = [_is_property(f) for f in (before, after)]
    required = [_required_positional(f) for f in (before, after)]
    if (
        attribute[0] != attribute[1]
        or None in required
        or len(required[0] or ()) != len(required[1] or ())
    ):
        return None
    args = tuple(a.upper() for a in required[0] or ())
    fix = swapped_method_fix(call[0], old, after.name, args, attribute=attribute[0])
    lacking = [n for n in _not_taken(before, after) if n not in (required[0] or ())]
    if not lacking:
        return fix
    # the user's other arguments may not be the new one's: said, not kept
    listed = ", ".join(code(a) for a in lacking)
    note = (fix.note or "").replace(
        "Keep the call's other arguments as they are.",
        f"{code(after.name)} does not take every argument of {code(old)} (not {listed}): "
        f"pass only those it takes.",
    )
    return msgspec.structs.replace(fix, note=note)


def _not_taken(old: ast.FunctionDef, new: ast.FunctionDef) -> list[str]:
    """The parameters of `old` a call may name that `new` does not take (`**kwargs` by
    its name)."""

    def names(function: ast.FunctionDef) -> list[str]:
        arguments = function.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        return [a.arg for a in every if a.arg not in ("self", "cls")]

    taken = set(names(new))
    lacking = [n for n in names(old) if n not in taken]
    extra = old.args.kwarg
    if extra is not None and new.args.kwarg is None:
        lacking.append(f"**{extra.arg}")
    return lacking


def _is_property(function: ast.FunctionDef) -> bool:
    return any(ast.unparse(d).rpartition(".")[2] == "property" for d in function.decorator_list)


def _required_positional(function: ast.FunctionDef) -> tuple[str, ...] | None:
    """The parameters a call must give, after `self`/`cls`, all positional; None when one
    must be given by keyword."""
    arguments = function.args
    if any(default is None for default in arguments.kw_defaults):
        return None
    ordered = [*arguments.posonlyargs, *arguments.args]
    first = [a.arg for a in ordered[: len(ordered) - len(arguments.defaults)]]
    return tuple(first[1:] if first[:1] in (["self"], ["cls"]) else first)


def warned_against(knob: Knob, facts: Facts, lines: list[int]) -> str | None:
    """A comment beside the check (above the site or one of `lines`) that warns against
    what the setting does: it names the setting's verb (`VLLM_DISABLE_PYNCCL`: disabling)
    in a sentence that says it hangs, hides the failure or must not be done."""
    stems = [
        _ACTION_STEMS[word]
        for word in re.split(r"[_\-]+", knob.name.lower())
        if _ACTION_STEMS.get(word)
    ]
    if not stems:
        return None
    site_line = facts.stored.site.line
    for comment in facts.read.comments_near([site_line, *lines]):
        for sentence in _COMMENT_SENTENCE.split(comment):
            lowered = sentence.lower()
            if _WARNS.search(sentence) and any(re.search(rf"\b{s}", lowered) for s in stems):
                return comment
    return None


def failed_load_solution(facts: Facts) -> Solution | None:
    """A raise under `except` whose message says loading failed, where the `try` made one
    call, whose first argument is a path parameter of the public function: pass a path
    that loads."""
    message = facts.stored.site.message
    if message is None or _FAILED_LOAD.search(message.text) is None or user_call(facts) is None:
        return None
    read = facts.read
    # the innermost `except`: the one whose `try` made the call that failed; one for an
    # import says a package is missing, not that the path is wrong
    excepts = [c for c in facts.conditions if c.kind is ConditionKind.EXCEPT]
    for condition in excepts[-1:]:
        tried = read.tries.get(condition.line)
        if tried is None or len(tried.calls) != 1 or _IMPORT_ERROR.search(condition.text):
            continue  # with another call in the `try`, that one may be what failed
        (call,) = tried.calls
        callee, _, args = call.partition("(")
        param = re.split(r"[,)]", args, maxsplit=1)[0].strip()
        if param not in read.params or param in read.positional or not _PATH_PARAM.search(param):
            continue
        return Solution(
            text=f"Pass for {code(param)} of {code(facts.stored.site.function)} a path that "
            f"{code(callee)} loads: {code(call)} in the `try` at line {tried.line} failed, "
            f"and this is raised in its place (“{message.text}”).",
            kind="input",
            condition=condition.text,
        )
    return None
