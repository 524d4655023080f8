"""A model's validator whose message says what one field must be: the field, not the argument.

`@model_validator(mode="before")` runs on the data as it comes in, a dict of the fields the
user sent (a request's JSON body) or passed: `ChatCompletionRequest.check_logprobs(cls,
data)` reads `prompt_logprobs := data.get("prompt_logprobs")` and raises "`prompt_logprobs`
must be a positive value or -1." A `mode="after"` validator reads the fields on `self`
(`self.thinking.budget_tokens >= self.max_tokens`: "thinking.budget_tokens must be less
than max_tokens"). No user calls the validator, so "the argument `data` of
`check_logprobs`" names nothing a user writes, and a validator deep in the package's tree
is still run on the user's request: the way out is the field in the data, with what the
message says it must be ("make the field `prompt_logprobs` of `ChatCompletionRequest` a
positive value or -1").

Only for a request model (its class named `...Request`, or a model of a `protocol` module,
where a server's request bodies are declared), where the raise's own test reads that field
(a key of the data, an attribute of `self`, directly or through a local assigned from it)
and the message's requirement has that field as its subject. A field named by a placeholder
(`{field_name}`), one the test does not read, a configuration's field a flag sets (the
setting rules name the flag) and a model the program builds itself (a config, a manifest)
get nothing here.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

import msgspec

from errdex.explain.call_binding import given_argument, positional_index
from errdex.explain.context import Facts, decorators_above, function_at, function_span
from errdex.explain.entry_input import CHECKS, calls_at
from errdex.explain.input_nodes import field_key
from errdex.explain.page import Solution
from errdex.explain.plain import code, listed
from errdex.explain.stated_requirement import GOT_TAIL, message_text, requirements
from errdex.explain.user_data import local_sources
from errdex.extract.conditions import dotted_name
from errdex.facts import KnobKind, SiteKind
from errdex.link.expression_texts import parse_expression

# The quotes and the word around a key a message names: "Parameter 'cache_salt'", "`logprobs`".
_SUBJECT = re.compile(
    r"^(?:(?:the\s+)?(?:parameter|field|key)\s+)?[`'\"]?(?P<key>\w+(?:\.\w+)*)[`'\"]?$", re.I
)
# How a field of the data is read: (the node, the data's name) → the field, or None
Reader = Callable[[ast.AST, str], str | None]
# A key left out of the data, as the input rules word it: "Leave `'file'` out of ..."
_LEFT_OUT_KEY = re.compile(r"^Leave `'(\w+)'` out of ")
# A string as Python writes it, between backticks: `'auto'`
_PYTHON_STRING = re.compile(r"`'([^'`\\]*)'`")
_ARGUMENT_OF = re.compile(r"the argument `(\w+)` of ")
# What a value that is given must be; not how the field is used ("set to true when ...",
# which `stated_requirement` reads as a use).
_VERBS = frozenset({"be", "have", "contain", "match"})


def raw_field_solution(facts: Facts) -> Solution | None:
    """ "In the request you send (its JSON body), make the field `k` of `M` ... as the
    message says", or None."""
    site = facts.stored.site
    if site.kind != SiteKind.RAISE or site.message is None:
        return None
    owner = site.function.rpartition(".")[0]
    mode = _validator_mode(facts)
    function = facts.site_function()
    checks = [c for c in facts.held if c.kind in CHECKS]
    if mode is None or function is None or not checks:
        return None
    if any(k.kind in (KnobKind.FLAG, KnobKind.ENV) for k in facts.knobs):
        return None  # a configuration's field a flag sets: the setting rules name the flag
    params = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    test = parse_expression(checks[-1].text)
    if test is None:
        return None
    sources = local_sources(function)
    if mode == "after":
        tested = _fields_read(test, "self", sources, _path) if params[:1] == ["self"] else set()
    else:
        given = [p for p in params if p not in ("self", "cls")]
        tested = _fields_read(test, given[0], sources, _key_of) if given else set()
    for stated in requirements(site.message.text):
        match = _SUBJECT.match(stated.subject or "")
        if match is None or stated.verb not in _VERBS or match["key"] not in tested:
            continue
        where = (
            "In the request you send (its JSON body)"
            if owner.endswith("Request")
            else "In the data you validate"
        )
        wants = GOT_TAIL.sub("", stated.wants)  # not the value it got
        wants = wants if stated.verb == "be" else f"{stated.verb} {wants}"
        said = message_text(facts)
        said = said if said.endswith((".", "!", "?")) else f"{said}."  # a sentence follows
        return Solution(
            text=(
                f"{where}, make the field {code(match['key'])} of {code(owner)} {wants}, as "
                f"the message says: “{said}” {code(site.function)} is a "
                "validator the framework runs on that data: the check is of the field's "
                "value, not of a call in your code."
            ),
            condition=checks[-1].text,
            kind="input",
            advice=True,
        )
    return None


def _validator_mode(facts: Facts) -> str | None:
    """The mode of the site's function as a validator of a request model ("before",
    "after"), or None: not a validator, or of a model the program builds itself."""
    return facts.once("raw_fields.mode", lambda: _read_mode(facts))


def _read_mode(facts: Facts) -> str | None:
    site = facts.stored.site
    owner, _, name = site.function.rpartition(".")
    if not owner or "." in owner or "<locals>" in owner:
        return None
    if not owner.endswith("Request") and "protocol" not in facts.stored.module.split("."):
        return None  # a model the program builds (a config, a manifest): not the user's data
    text = facts.source_text or ""
    if "_validator" not in text:
        return None  # no model validator in the file: most sites (a cold page stays cheap)
    span = function_span(text, name, site.line)
    return _mode(decorators_above(text, span[0] + 1)) if span is not None else None


def as_request_field(solution: Solution, facts: Facts) -> Solution:
    """`solution` said of the request body where it names a key of the data a `mode=
    "before"` validator of a request class gets: "Pass a non-empty (true) value for the
    field `logprobs` of the argument `data` of `ChatCompletionRequest.check_logprobs`"
    becomes "... for the field `logprobs` of the request you send (its JSON body) ...":
    the user writes that field, no call passes `data` (None is JSON's `null` there)."""
    if solution.kind != "input" or _validator_mode(facts) != "before":
        return solution
    site = facts.stored.site
    owner = site.function.rpartition(".")[0]
    if not owner.endswith("Request"):
        return solution  # a protocol module's other model: data a Python caller may pass
    function = facts.site_function()
    params = [] if function is None else [a.arg for a in function.args.args]
    given = [p for p in params if p not in ("self", "cls")]
    if not given:
        return solution
    argument = f"the argument {code(given[0])} of {code(site.function)}"
    field = re.search(rf"`[\w.']+` (?:out )?of {re.escape(argument)}", solution.text)
    if field is None:
        return solution  # the data as a whole (its type), not one of its fields
    body = f"the request you send (its JSON body, a {code(owner)})"
    text = _json_words(solution.text.replace(argument, body))
    text = (
        f"{text} {code(site.function)} is a validator the framework runs on that body: the "
        "check is of your data, not of a call in your code."
    )
    # a field of the request, no argument of the function any more
    return msgspec.structs.replace(solution, text=text, change=None, fix=None, argument=None)


def _json_words(text: str) -> str:
    """A way out said of a request body in the body's own words: None as `null`, a key,
    JSON's strings and objects."""
    if text.startswith("Pass None for "):
        text = "Pass `null` for " + text.removeprefix("Pass None for ")
    text = _LEFT_OUT_KEY.sub(r"Leave the field `\1` out of ", text)
    return _PYTHON_STRING.sub(r'`"\1"`', text).replace("an instance of `dict`", "a JSON object")


def as_handed_request_field(solution: Solution, facts: Facts) -> Solution:
    """`solution` said of the request body where it names an argument of the site's
    function that every caller found hands it from one key of the data a `mode="before"`
    validator of a request class gets (`validate_cache_salt(data.get("cache_salt"))`): "Pass
    None for the argument `cache_salt` of `validate_cache_salt`" becomes "Pass `null` for
    the field `cache_salt` of the request you send ...". No user calls the helper; the field
    is what they write."""
    if solution.kind != "input":
        return solution
    site = facts.stored.site
    said = code(site.function)
    # the first "the argument `x` of `function`" (one pattern for every function: none
    # compiled per page)
    argument = next(
        (
            found
            for found in _ARGUMENT_OF.finditer(solution.text)
            if solution.text.startswith(said, found.end())
        ),
        None,
    )
    if argument is None:
        return solution
    handed = _handed_field(facts, argument[1])
    if handed is None:
        return solution
    key, validators = handed
    owners = listed([code(v.rpartition(".")[0]) for v in validators], "or")
    body = f"the field {code(key)} of the request you send (its JSON body, such as a {owners})"
    text = _json_words(solution.text.replace(argument[0] + said, body))
    text = (
        f"{text} The validator the framework runs on that body ({code(validators[0])}) "
        f"hands the field to {code(site.function)}: the check is of your data, not of a "
        "call in your code."
    )
    # a field of the request, no argument of the function any more
    return msgspec.structs.replace(solution, text=text, change=None, fix=None, argument=None)


def _handed_field(facts: Facts, param: str) -> tuple[str, list[str]] | None:
    """(the key, the validators) where each direct caller of the site's function found is
    a `mode="before"` validator of a request class (`...Request`) giving `param` one key of
    its data, the same key; else None. Read once a page for each argument."""
    return facts.once(f"raw_fields.handed.{param}", lambda: _read_handed(facts, param))


def _read_handed(facts: Facts, param: str) -> tuple[str, list[str]] | None:
    site = facts.stored.site
    callee = f"{facts.stored.module}.{site.function}"
    callers = [c for c in facts.callers if c.depth == 1 and c.calls == callee]
    function = facts.site_function()
    if not callers or function is None or facts.file_text is None:
        return None
    position = positional_index(function, param)
    if not all(c.function.rpartition(".")[0].endswith("Request") for c in callers):
        return None  # a caller of the program's own: not only the request's data
    keys: set[str] = set()
    for caller in callers:
        name = caller.function.rpartition(".")[2]
        text = facts.file_text(caller.file)
        if text is None:
            continue  # a file the index keeps no text of: the callers read decide
        span = function_span(text, name, caller.line)
        if span is None or _mode(decorators_above(text, span[0] + 1)) != "before":
            return None
        found = function_at(text, name, caller.line)
        given = [a.arg for a in found.args.args if a.arg not in ("self", "cls")] if found else []
        if found is None or not given:
            return None
        calls = calls_at(found, caller.line, callee)
        values = [given_argument(call, param, position) for call in calls]
        read = {_key_of(v, given[0]) if v is not None else None for v in values}
        if not values or None in read:
            return None
        keys |= {k for k in read if k is not None}
    if len(keys) != 1:
        return None
    return keys.pop(), [c.function for c in callers]


def _mode(decorators: list[ast.expr]) -> str | None:
    """ "before" for `model_validator(mode="before")` (or `root_validator(pre=True)`), whose
    validator gets the raw data; "after" for `model_validator(mode="after")`, which reads
    the model's fields on `self`; None for any other function."""
    for decorator in decorators:
        if not isinstance(decorator, ast.Call):
            continue
        func = decorator.func
        name = dotted_name(func) if isinstance(func, ast.Name | ast.Attribute) else None
        said = {k.arg: k.value for k in decorator.keywords}
        last = (name or "").rsplit(".", 1)[-1]
        value = said.get("mode") if last == "model_validator" else said.get("pre")
        if not isinstance(value, ast.Constant):
            continue
        if last == "model_validator" and value.value in ("before", "wrap", "after"):
            return "after" if value.value == "after" else "before"
        if last == "root_validator" and value.value is True:
            return "before"
    return None


def _fields_read(
    test: ast.expr, holder: str, sources: dict[str, list[ast.AST]], read: Reader
) -> set[str]:
    """The fields the test reads on `holder` (by `read`: `_path` for `self.thinking.
    budget_tokens`, `_key_of` for `data.get("k")`), also through a local that is only ever
    assigned one of those."""
    found: set[str] = set()
    for node in ast.walk(test):
        field = read(node, holder)
        if field is not None:
            found.add(field)
        elif isinstance(node, ast.Name) and node.id != holder:
            fields = {read(v, holder) for v in sources.get(node.id, [])}
            if len(fields) == 1 and None not in fields:
                found |= {f for f in fields if f is not None}
    return found


def _path(node: ast.AST, holder: str) -> str | None:
    """`a.b` of `holder.a.b` (not of a call's result: `holder.a()`)."""
    if not isinstance(node, ast.Attribute):
        return None
    name = dotted_name(node)
    if name is None or not name.startswith(holder + "."):
        return None
    return name[len(holder) + 1 :]


def _key_of(node: ast.AST, data: str) -> str | None:
    """`k` of `data.get("k")` (with or without a default) or `data["k"]`."""
    found = field_key(node) if isinstance(node, ast.expr) else None
    if found is None or not (isinstance(found[0], ast.Name) and found[0].id == data):
        return None
    return found[1]
