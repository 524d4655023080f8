"""The message's own rule on a declaration the user wrote and the library reads.

A library that reads what the user declared (a model's decorated methods, a table's
columns, a foreign key's target, a statement's bind parameters, the members of a union)
says in its message what is wrong with that declaration. No setting or argument of a call
decides it, so the rules that follow one find nothing; the way out is the declaration the
message names, changed as the message says. Offered where the message states that rule
whole, in one of these shapes, and names the declared thing by a placeholder (the user's
own name) or by the kind the user declares:

- one is allowed, more were declared: "Multiple {things} were defined for {target}, this
  is not allowed", "Only one {thing} may be marked {how}, found both {a} and {b}", "a
  {holder} may have only one {thing}": declare only one;
- one of a kind, more declared: "Class {cls} has multiple mapped bases: {found!r}", "A
  validation function for mapped attribute {name!r} on mapper {self} already exists": give
  it only one;
- a name the library keeps for itself: "Attribute name '{k}' is reserved when using the
  Declarative API": another name;
- a value is required for a named thing: "A value is required for {noun} {name}": pass
  one under that name;
- characters a name may not hold: "{chars} not supported in {noun} name {name}": a name
  without them;
- one name declared unlike across members: "{Noun} {name} is not the same for all
  {members} of {whole}": declare it alike in each;
- what a declared thing needs: "{source} needs a discriminator field for key {key!r}",
  "{source} needs field {key!r} to be of type `Literal`": declare it there, as it says;
- what cannot be put on a declared thing: "The following constraints cannot be applied to
  {source_type!r}: {names}", "Unable to apply constraint {constraint} to schema {type}":
  leave those out, or declare them on a type that takes them;
- what each declared thing should be: "{x} is not a valid discriminated union variant;
  should be a `BaseModel` or `dataclass`", "invalid field env: {env!r}; should be string,
  list or set": make the one named that;
- a function the user declares refused by its signature: "Unrecognized field_serializer
  function signature for {serializer} ...", "Unsupported signature for V1 style validator
  {validator}: ...": change its signature (where no class statement runs the check: the
  class rule says it then);
- names a declared thing may not take: "{names} are not permitted as argument names when
  using the {deco} decorator": rename it;
- a declared value of a kind the raise's own test refuses: "Alias {alias!r} is not
  supported in a discriminated union" under `not isinstance(alias, str)`: make it a
  `str`, the kind the test names;
- one thing declared unlike in several places: "Aliases for discriminator {key!r} must be
  the same": give it the same one wherever it is declared;
- a name referred to that is not declared: "{holder} has no {noun} named {name}", "on
  {holder}: no {noun} named {name} is present", "{Kind} {holder} does not have a mapped
  column named {name}", and
  "could not find {noun} {name}" where the raise's own test looks `name` up in a container
  (`tablekey not in parenttable.metadata`): declare it there, or refer to one that is;
- one thing the library takes only alone among its kind: "__root__ cannot be mixed with other
  fields": declare it alone;
- the type arguments given a generic class, counted against its type parameters: "Too
  {description} parameters for {cls}; actual {actual}, expected {expected}": as many as it
  declares;
- an operation a thing of the user's does not support: "'{self}' does not support object
  population - eager loading cannot be applied": do not apply it to that thing, and where the
  raising method's class is registered by a decorator under literal keywords
  (`@RelationshipProperty.strategy_for(lazy="subquery")`), leave out those keywords' values,
  the user's choice that runs it.

One rule reads the raise's own test, whatever the message says: the type arguments of the
generic type the user wrote in an annotation (`get_args(tp)`, `tp.__args__`), counted
(`len(args) != 2`, `not argument.__args__`) or compared with classes (`param != str`,
`param != bytes` of `param = get_args(pattern_type)[0]`): write it with the number or the
class the test lets through.

The shapes whose words do not say "declared" ("... already exists", "not the same for all",
"needs", "cannot be applied to", "a value is required for", "not supported in ... name")
are read only where they name a kind of code the user declares (a field, a function, a
column, a bind parameter, a schema): a placeholder alone is no declaration ("A checkpoint
for step {step} already exists", "Shape {name} is not the same for all tensors of
{batch}", "A value is required for step {step}": the program's state).

A message of these shapes about something no user declares names no placeholder or kind
("Window left is not the same for all layers", "Only one live display may be active at
once": no declaration, a state) and gets nothing here; nor does an `assert`, which guards
the package's own invariant (a provider name its own registration already refused).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator

from errdex.explain.class_hooks import declaration_hook
from errdex.explain.context import Facts, kept_module
from errdex.explain.entry_input import CHECKS
from errdex.explain.page import Solution
from errdex.explain.plain import code, listed
from errdex.explain.stated_requirement import message_text
from errdex.explain.table_lookup import module_names
from errdex.extract.shapes import isinstance_test
from errdex.facts import SiteKind
from errdex.link.expression_texts import parse_expression

__all__ = ["class_rule_solution", "code_kind", "declared_rule_solution", "quoted"]

_REPORTED = frozenset({SiteKind.RAISE, SiteKind.HELPER, SiteKind.WARN})
_PH = r"\{[^{}]+\}"  # a placeholder: the user's own name
_QPH = rf"['\"“]?(?:{_PH})['\"”]?"  # the same, quoted as the message quotes it
_WORDS = r"[A-Za-z][\w-]*(?: [A-Za-z][\w-]*)*?"  # a noun of a few words
_DECLARE = {"marked": "Mark", "defined": "Define", "declared": "Declare", "specified": "Specify"}

# "Multiple field serializer functions were defined for field {f!r}, this is not allowed."
_MULTIPLE = re.compile(
    rf"^multiple (?P<things>{_WORDS}) (?:were|are) (?P<verb>defined|declared|specified) "
    rf"for (?P<target>(?:{_WORDS} )?{_QPH}),? (?:this|which) is not (?:allowed|permitted|"
    r"supported)\.?$",
    re.I,
)
# "Only one Column may be marked autoincrement=True, found both {col.name} and {a.name}."
_ONLY_ONE = re.compile(
    rf"^only one (?P<thing>{_WORDS}) (?:may|can) be (?P<verb>marked|defined|declared|"
    rf"specified) (?P<how>[^,;{{}}]+?),? (?:found|got|but got) both (?P<a>{_QPH}) and "
    rf"(?P<b>{_QPH})\.?$",
    re.I,
)
# "a Table may have only one explicit sentinel column": the holder is a kind the user
# declares (a capitalised class name)
_HOLDER_ONE = re.compile(
    rf"^an? (?P<holder>[A-Z]\w*) (?:may|can) (?:only )?have only one (?P<thing>{_WORDS})\.?$"
)
# "Class {cls} has multiple mapped bases: {inherits_search!r}"
_MANY = re.compile(
    rf"^(?P<kind>[A-Z][a-z]+) (?P<name>{_QPH}) has multiple (?P<things>{_WORDS}): {_QPH}\.?$"
)
# "A validation function for mapped attribute {name!r} on mapper {self} already exists."
_EXISTS = re.compile(
    rf"^an? (?P<thing>{_WORDS}) for (?P<target>(?:{_WORDS} )?{_QPH})(?: on (?:{_WORDS} )?"
    rf"{_QPH})? already exists\.?$",
    re.I,
)
# "Attribute name '{k}' is reserved when using the Declarative API."
_RESERVED = re.compile(rf"^(?P<noun>{_WORDS}) name (?P<name>{_QPH}) is reserved\b", re.I)
# "A value is required for bind parameter {bindparam.key!r}, in parameter group {n:d}"
_VALUE = re.compile(
    rf"^an? value is required for (?:the )?(?P<noun>{_WORDS}) (?P<name>{_QPH})"
    rf"(?P<rest>,? in (?:{_WORDS}) {_QPH})?\.?$",
    re.I,
)
# "Square bracket characters ([]) not supported in schema translate name '{name}'"
_CHARS = re.compile(
    rf"^(?P<chars>{_WORDS}(?: \([^()]+\))?) (?:are )?not (?:supported|allowed|permitted) in "
    rf"(?:an? |the )?(?P<noun>(?:{_WORDS} )?name) (?P<name>{_QPH})\.?$",
    re.I,
)
# "Field {discriminator_key!r} is not the same for all submodels of {tp!r}"
_SAME = re.compile(
    rf"^(?P<noun>{_WORDS}) (?P<name>{_QPH}) is not the same for all (?P<members>{_WORDS}) "
    rf"of (?P<whole>{_QPH})\.?$",
    re.I,
)
# "{source} needs a discriminator field for key {self.discriminator!r}": the holder the
# user declared lacks a named thing of a kind the user declares
_NEEDS = re.compile(
    rf"^(?P<holder>(?:{_WORDS} )?{_QPH}) needs (?:an? )?(?P<noun>{_WORDS}) (?P<by>for (?:the )?key|"
    rf"named) (?P<name>{_QPH})\.?$",
    re.I,
)
# "{source} needs field {self.discriminator!r} to be of type `Literal`": a type is declared;
# "to be set", "to be non-null" ask the value the program holds, no declaration
_NEEDS_TO_BE = re.compile(
    rf"^(?P<holder>(?:{_WORDS} )?{_QPH}) needs (?:the )?(?P<noun>{_WORDS}) (?P<name>{_QPH}) "
    r"to be (?P<what>of (?:type|kind) [^{}]+?)\.?$",
    re.I,
)
# "The following constraints cannot be applied to {source_type!r}: {...}": what the user put
# on a declared type, listed after the colon
_NOT_APPLIED = re.compile(
    rf"^(?:the following )?(?P<things>{_WORDS}) (?:cannot|can't|can not) be applied to "
    rf"(?P<target>(?:{_WORDS} )?{_QPH}): \{{.+\}}\.?$",
    re.I,
)
# "Unrecognized field_serializer function signature for {serializer} with `mode={mode}`:
# {sig}", "Unsupported signature for V1 style validator {validator}: {sig} is not supported.":
# a function the user declares (given in an annotation, decorated), refused by its signature
_SIGNATURE_FOR = re.compile(
    rf"^(?:unrecognized|unsupported) (?:(?P<kind>{_WORDS}) )?signature for "
    rf"(?:(?P<thing>{_WORDS}) )?(?P<name>{_QPH})",
    re.I,
)
# "Unable to apply constraint {constraint} to schema {schema_type}": one thing the user put
# on a declared type, named alone
_NOT_APPLIED_ONE = re.compile(
    rf"^(?:unable to|cannot|can't|can not) apply (?:the )?(?P<noun>{_WORDS}) (?P<name>{_QPH}) "
    rf"to (?:the )?(?P<target>(?:{_WORDS} )?{_QPH})\.?$",
    re.I,
)
# "... table '{table.name}' has no column named '{key}'", "Can't create ... on table
# '{parent.description}': no column named '{ke.args[0]}' is present."
_HAS_NO = (
    re.compile(
        rf"\b(?P<kind>[a-z]\w*) (?P<holder>{_QPH}) has no (?P<noun>\w+) named "
        rf"(?P<name>{_QPH})\.?$"
    ),
    re.compile(
        rf"\bon (?P<kind>[a-z]\w*) (?P<holder>{_QPH}): no (?P<noun>\w+) named "
        rf"(?P<name>{_QPH}) is present\.?$"
    ),
)
# "Class {self.cls!r} does not have a mapped column named {key!r}" (a name in the user's
# `relationship()` string looked up on the class they mapped)
_DOES_NOT_HAVE = re.compile(
    rf"\b(?P<kind>[A-Za-z]\w*) (?P<holder>{_QPH}) does not have an? (?P<noun>(?:\w+ )?\w+) "
    rf"named (?P<name>{_QPH})\.?$"
)
# "{choice["type"]!r} is not a valid discriminated union variant; should be a `BaseModel` or
# `dataclass`", "invalid field env: {env!r} ({display_as_type(env)}); should be string, list
# or set": the message says what each of the user's declared things should be
_SHOULD_BE = (
    re.compile(
        rf"^(?P<name>{_QPH}) is not an? valid (?P<noun>{_WORDS}); (?:it )?should be "
        r"(?P<what>[^;{}]+?)\.?$",
        re.I,
    ),
    re.compile(
        rf"^invalid (?P<noun>{_WORDS}): (?P<name>{_QPH})(?: \({_PH}\))?; (?:it )?should be "
        r"(?P<what>[^;{}]+?)\.?$",
        re.I,
    ),
)
# '"v__args", "v__kwargs" ... are not permitted as argument names when using the "{deco}"
# decorator': names the library keeps for itself among those of the user's declaration
_NOT_AS_NAMES = re.compile(
    rf"^(?P<names>.+?) (?:is|are) not (?:permitted|allowed|supported) as (?:an? )?"
    rf"(?P<noun>{_WORDS}) names?\b",
    re.I,
)
# "Alias {alias!r} is not supported in a discriminated union": a value the message names by
# its noun, refused by the raise's own `isinstance` test (read for the kind that passes)
_REFUSED_KIND = re.compile(
    rf"^(?P<noun>[A-Za-z][\w-]*) (?P<name>{_QPH}) is not (?:supported|allowed|permitted|valid)\b",
    re.I,
)
# "Aliases for discriminator {self.discriminator!r} must be the same (got {a}, {b})": one
# thing the user declares in several places, declared unlike
_ALIKE = re.compile(
    rf"^(?P<things>{_WORDS}) (?:for|of) (?:the )?(?P<noun>{_WORDS}) (?P<name>{_QPH}) must "
    r"(?:all )?be the same\b",
    re.I,
)
# "__root__ cannot be mixed with other fields": a thing the user declares that the library
# takes only alone among its kind
_ALONE = re.compile(
    rf"^(?P<name>{_QPH}|`?\w+`?) (?:cannot|can't|can not|may not) be (?:mixed|combined|"
    rf"declared|used) with (?:any )?other (?P<things>{_WORDS})\.?$",
    re.I,
)
# "Too {description} parameters for {cls}; actual {actual}, expected {expected}": the type
# arguments the user gave a generic class of theirs, counted against the type parameters it
# declares
_TOO_MANY = re.compile(
    rf"^too (?:many|few|{_PH}) (?:type )?parameters for (?P<name>{_QPH});? actual "
    rf"(?P<actual>{_QPH}),? expected (?P<expected>{_QPH})\.?$",
    re.I,
)
# "'{self}' does not support object population - eager loading cannot be applied.": an
# operation the user asked of a thing of theirs that it does not support
_NOT_APPLICABLE = re.compile(
    rf"^(?P<name>{_QPH}) does not support (?P<what>[^{{}};-]+?)\s*[-;:]\s*(?P<how>{_WORDS}) "
    r"(?:cannot|can't|can not) be applied\.?$",
    re.I,
)
# "Foreign key associated with column ... could not find table '{tablekey}' with which ..."
_NOT_FOUND = re.compile(rf"\bcould not find (?P<noun>[a-z]\w*) (?P<name>{_QPH})", re.I)


def declared_rule_solution(facts: Facts) -> Solution | None:
    """The declaration the message names, changed as it says, or None."""
    if facts.stored.site.kind not in _REPORTED:
        return None  # an `assert` guards the package's own invariant, not a user's input
    text = message_text(facts)
    if not text:
        return None
    for pattern, phrase in _RULES:
        found = pattern.search(text)
        said = phrase(found, facts) if found is not None else None
        if said is not None:
            return Solution(text=f"{said}: the message says “{text.rstrip('.')}”.", kind="input")
    return _type_arguments(facts, text)


# What a test of a type's arguments asks of their number, by its operator as held where the
# raise is reached (`len(args) != 1` raises: exactly one is asked)
_COUNTED: dict[type[ast.cmpop], Callable[[int], tuple[str, int] | None]] = {
    ast.NotEq: lambda n: ("exactly", n),
    ast.Lt: lambda n: ("at least", n),
    ast.LtE: lambda n: ("at least", n + 1),
    ast.Gt: lambda n: ("at most", n) if n > 0 else None,
    ast.GtE: lambda n: ("at most", n - 1) if n > 1 else None,
}
_PLACES = {0: "first", 1: "second", 2: "third", -1: "last"}


def _type_arguments(facts: Facts, text: str) -> Solution | None:
    """The type arguments of the generic type the user wrote in an annotation, where the
    raise's own test reads them (`get_args(tp)`, `tp.__args__`, directly or through a local)
    and asks their number ("Expected mapping to have exactly 2 generic parameters" under
    `len(args) != 2`, "Generic alias {argument} requires an argument" under `not
    argument.__args__`) or compares one of them with classes (`param != str`, `param !=
    bytes` of `param = get_args(pattern_type)[0]`): write it with the number or the class
    the test lets through; else None. The message need say nothing of it: the test does."""
    held = facts.held
    own = parse_expression(held[-1].text) if held else None
    if own is None:
        return None
    line = held[-1].line
    asked: tuple[str, int] | None = ("at least", 1)  # `not args`: none given
    if isinstance(own, ast.UnaryOp) and isinstance(own.op, ast.Not):
        typed = _type_of_arguments(facts, own.operand)
    elif (
        isinstance(own, ast.Compare)
        and len(own.ops) == 1
        and isinstance(own.left, ast.Call)
        and isinstance(own.left.func, ast.Name)
        and own.left.func.id == "len"
        and len(own.left.args) == 1
        and isinstance(own.comparators[0], ast.Constant)
        and type(own.comparators[0].value) is int
        and type(own.ops[0]) in _COUNTED
    ):
        typed = _type_of_arguments(facts, own.left.args[0])
        asked = _COUNTED[type(own.ops[0])](own.comparators[0].value)
    else:
        return _type_argument_classes(facts, text)
    if typed is None or asked is None:
        return None
    how, number = asked
    plural = "type argument" if number == 1 else "type arguments"
    said = _NUMBERS.get(number, str(number))
    return Solution(
        text=(
            f"Write the generic type in your annotation{_named(typed, text, facts)} with {how} "
            f"{said} {plural}: the check at line {line} ({code(held[-1].text)}) counts the "
            f"type arguments of {code(ast.unparse(typed))}."
        ),
        kind="input",
    )


_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four"}


def _type_argument_classes(facts: Facts, text: str) -> Solution | None:
    """The classes one type argument is compared with on the raise's path (`param != str`,
    `param != bytes` held, `param = get_args(tp)[0]`): "Make the first type argument of the
    generic type in your annotation `str` or `bytes`"; else None."""
    own = _refused_class(parse_expression(facts.held[-1].text))
    if own is None:
        return None
    taken = ast.dump(own.left)
    classes, lines = [], []
    for held in facts.held:
        test = _refused_class(parse_expression(held.text))
        if test is not None and ast.dump(test.left) == taken:
            classes.append(code(ast.unparse(test.comparators[0])))
            lines.append(str(held.line))
    argument = own.left
    if isinstance(argument, ast.Name):
        argument = next(iter(_local_values(facts, argument.id)), argument)
    if not (
        isinstance(argument, ast.Subscript)
        and isinstance(argument.slice, (ast.Constant, ast.UnaryOp))
        and _args_of(argument.value) is not None
    ):
        return None
    index = ast.literal_eval(argument.slice)
    typed = _args_of(argument.value)
    if typed is None or type(index) is not int or index not in _PLACES:
        return None
    checks = "check at line" if len(lines) == 1 else "checks at lines"
    return Solution(
        text=(
            f"Make the {_PLACES[index]} type argument of the generic type in your annotation"
            f"{_named(typed, text, facts)} {listed(classes, 'or')}: the {checks} "
            f"{', '.join(lines)} compare it ({code(ast.unparse(own.left))}) with "
            f"{'that class' if len(classes) == 1 else 'those classes'} and the raise is "
            "reached for any other."
        ),
        kind="input",
    )


def _refused_class(test: ast.expr | None) -> ast.Compare | None:
    """A held test `x != C` or `x is not C` of a class named `C`, else None."""
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], (ast.NotEq, ast.IsNot))
        and isinstance(test.comparators[0], (ast.Name, ast.Attribute))
        and isinstance(test.left, (ast.Name, ast.Subscript))
    ):
        return test
    return None


def _type_of_arguments(facts: Facts, node: ast.expr) -> ast.expr | None:
    """The type whose arguments `node` is, itself or through the site's local it names."""
    if isinstance(node, ast.Name):
        return next((t for v in _local_values(facts, node.id) if (t := _args_of(v))), None)
    return _args_of(node)


def _args_of(node: ast.expr) -> ast.expr | None:
    """`tp` of `get_args(tp)` (any function named so, or ending so: `typing.get_args`,
    `self._get_args_resolving_forward_refs(tp)`) or of `tp.__args__`; else None."""
    if isinstance(node, ast.Attribute) and node.attr == "__args__":
        return node.value
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if re.fullmatch(r"_?get_args(?:_\w+)?", name):
            return node.args[0]
    return None


def _named(typed: ast.expr, text: str, facts: Facts) -> str:
    """`" (the message names it “ARGUMENT”)"` where a placeholder of the message is the type
    or its origin (`{origin}` of `origin = get_origin(tp)`); else nothing."""
    wanted = ast.dump(typed)
    for placeholder in re.findall(_PH, text):
        value = parse_expression(_source_of(placeholder))
        if value is None:
            continue
        origin = value
        if isinstance(value, ast.Name):
            origin = next(iter(_local_values(facts, value.id)), value)
        if ast.dump(value) == wanted:
            return f" (the message names it “{_bare(placeholder)}”)"
        if (
            isinstance(origin, ast.Call)
            and origin.args
            and ast.dump(origin.args[0]) == wanted
            and getattr(origin.func, "id", getattr(origin.func, "attr", "")) == "get_origin"
        ):
            return f" (the message names its origin “{_bare(placeholder)}”)"
    return ""


# A rule a message states on what may be declared: "X must (not) be Y", "only X is
# allowed", "X and Y are mutually exclusive", "cannot ... with ...", "is not allowed",
# "X can only have one type", "an annotation is required for ...", "Fields of type X are
# not supported"
_CLASS_RULE = re.compile(
    r"\bmust (?:not )?[a-z]+\b|\bonly\b[^.;]{1,60}?\b(?:is|are) allowed\b|"
    r"\bmutually exclusive\b|\b(?:can't|cannot|can not)\b|\bnot (?:allowed|accepted|permitted)\b|"
    r"\bcan only\b|\b(?:is|are) required for\b|\b(?:is|are) not supported\b",
    re.I,
)
# "Unrecognized field_validator function signature for {validator} with `mode={mode}`": a
# function the class declares (a decorated method) whose signature the library refuses
_SIGNATURE = re.compile(r"\bunrecognized\b[^.;]{0,60}\bsignature\b", re.I)


def class_rule_solution(facts: Facts) -> Solution | None:
    """ "Change the definition of your class so that it keeps the rule the message states":
    where the check runs while Python creates the user's class (`declaration_hook`) and
    the message states a rule on what may be declared (`_CLASS_RULE`), else None."""
    text = message_text(facts)
    signature = _SIGNATURE.search(text) is not None if text else False
    if not text or (_CLASS_RULE.search(text) is None and not signature):
        return None
    hook = declaration_hook(facts)
    if hook is None:
        return None
    function = facts.stored.site.function
    if hook.depth == 0:
        how = f"{code(function)} checks it"
    else:
        called = f"{code(hook.function)} ({hook.file}:{hook.line})"
        how = f"{code(function)} checks it, reached from {called}"
    when = f"{how} when Python creates {hook.made()}, at the end of its `class` statement."
    returned = _returned_type(facts, text)
    if returned is not None:
        given, kind, line = returned
        return Solution(
            text=(
                f"Make the {code(given)} you gave your class return {kind}: the check at "
                f"line {line} tests what {code(given)} returned, and it returned something "
                f"else (the message: “{text.rstrip('.')}”). {when}"
            ),
            kind="input",
        )
    if signature:
        return Solution(
            text=(
                "Change the signature of the function the message names, which your class "
                "declares (a decorated method, or a function given in a field's annotation), to "
                f"one taken in the mode the message names: “{text.rstrip('.')}”. {when}"
            ),
            kind="input",
        )
    return Solution(
        text=(
            "Change the definition of your class (its fields' annotations and defaults, its "
            "decorators' arguments, its configuration, its bases, the keywords of its `class` "
            "line) so that it keeps the rule "
            f"the message states: “{text.rstrip('.')}”. {when}"
        ),
        kind="input",
    )


def _returned_type(facts: Facts, text: str) -> tuple[str, str, int] | None:
    """(the callable, `a `T``, the check's line) where the raise's own test is `not
    isinstance(x, T)` of a local `x = f(...)` that calls a name `f` the message names by a
    placeholder (`alias = alias_generator(field_name)` ... "alias_generator
    {alias_generator} must return str"): a callable the user declared, whose result the
    library type-checks; else None."""
    refused = _refused_test(facts)
    if refused is None or not all(isinstance(part, ast.Name) for part in refused[:2]):
        return None
    local, kind = ast.unparse(refused[0]), ast.unparse(refused[1])
    for value in _local_values(facts, local):
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and re.search(rf"\{{{re.escape(value.func.id)}\b", text) is not None
        ):
            article = _a(kind).partition(" ")[0]
            return value.func.id, f"{article} {code(kind)}", refused[2]
    return None


def _refused_test(facts: Facts) -> tuple[ast.expr, ast.expr, int] | None:
    """(`x`, `K`, the test's line) of the raise's own test `not isinstance(x, K)`; else None."""
    held = facts.held
    test = parse_expression(held[-1].text) if held else None
    if not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)):
        return None
    checked = isinstance_test(test.operand)
    return (*checked, held[-1].line) if checked is not None else None


def _local_values(facts: Facts, name: str) -> Iterator[ast.expr]:
    """The values the site's function assigns to its local `name`, parsed."""
    for binding in facts.bindings:
        if binding.origin == "local" and binding.name == name:
            value = parse_expression(binding.value)
            if value is not None:
                yield value


def _bare(placeholder: str) -> str:
    """A placeholder without the quotes the message puts around it (its conversion and
    spec kept, so that it reads as the same value of the user's as the message's own)."""
    return placeholder.strip("'\"“”")


def quoted(text: str) -> str:
    """A part of the message with each placeholder in quotes of the page's own."""
    return re.sub(_QPH, lambda m: f"“{_bare(m.group(0))}”", text)


def _lower(noun: str) -> str:
    """A noun that opens the message, as it reads inside a sentence (`Field` -> `field`,
    an acronym kept)."""
    return noun if noun[:2].isupper() else f"{noun[0].lower()}{noun[1:]}"


def _a(noun: str) -> str:
    """The noun with its indefinite article."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _multiple(found: re.Match[str], facts: Facts) -> str:
    verb = _DECLARE[found.group("verb").lower()]
    return (
        f"{verb} only one of the {found.group('things')} for the "
        f"{quoted(found.group('target'))} (remove the others, or make them one)"
    )


def _only_one(found: re.Match[str], facts: Facts) -> str:
    verb = _DECLARE[found.group("verb").lower()]
    thing, how = found.group("thing"), found.group("how")
    return f"{verb} only one {thing} {how}, not both of those the message names"


def _holder_one(found: re.Match[str], facts: Facts) -> str:
    return f"Declare only one {found.group('thing')} in the {found.group('holder')}"


def _many(found: re.Match[str], facts: Facts) -> str:
    kind, name = found.group("kind").lower(), quoted(found.group("name"))
    return f"Give the {kind} {name} only one of its {found.group('things')}"


def _exists(found: re.Match[str], facts: Facts) -> str | None:
    if not code_kind(found.group("thing"), found.group("target")):
        return None  # "A checkpoint for step {step} already exists": the program's own state
    return f"Define only one {found.group('thing')} for the {quoted(found.group('target'))}"


def _reserved(found: re.Match[str], facts: Facts) -> str:
    noun, name = _lower(found.group("noun")), quoted(found.group("name"))
    return f"Give the {noun} another name than {name} in your code"


def _value(found: re.Match[str], facts: Facts) -> str | None:
    if not _named_kind(found.group("noun")):
        return None  # "A value is required for step {step}": a step the program reached
    rest = re.sub(_QPH, lambda m: _bare(m.group(0)), found.group("rest") or "")
    where = f" ({rest.lstrip(', ')})" if rest else ""
    noun, name = found.group("noun"), quoted(found.group("name"))
    return (
        f"Pass a value for the {noun} {name}, under that name, among the values you run it with"
        + where
    )


def _chars(found: re.Match[str], facts: Facts) -> str | None:
    if not _named_kind(found.group("noun")):
        return None  # "Spaces not supported in run name {name}": a name the program made
    chars, name = _lower(found.group("chars")), quoted(found.group("name"))
    return f"Give {_a(found.group('noun'))} without {chars} in place of {name}"


def _same(found: re.Match[str], facts: Facts) -> str | None:
    if not code_kind(found.group("noun"), found.group("members")):
        return None  # "Shape {name} is not the same for all tensors of {batch}": computed
    noun, name = _lower(found.group("noun")), quoted(found.group("name"))
    members, whole = found.group("members"), quoted(found.group("whole"))
    alike = "alike, with the same type and values,"
    return f"Declare the {noun} {name} {alike} in all {members} of {whole}"


# What a user declares in code: the nouns a message of a shape that does not say "declared"
# must use of what it speaks of, for the placeholder to be the user's declaration
_CODE_KINDS = frozenset(
    "field attribute column method function validator serializer property class model "
    "submodel table constraint decorator union discriminator alias".split()
)


def code_kind(*parts: str) -> bool:
    """Whether the words of a message's part (its placeholders aside) name a kind of code
    a user declares ("validation function for mapped attribute {name}", "Field {key}"): a
    placeholder alone says nothing of where its value comes from ("A checkpoint for step
    {step} already exists" is the program's own state)."""
    words = re.findall(r"[a-z]+", re.sub(_PH, " ", " ".join(parts)).lower())
    return any(w in _CODE_KINDS or w.removesuffix("s") in _CODE_KINDS for w in words)


# what a user also declares by a name of their own, for a value a run is given under it
# or a name it holds: a statement's bind parameter, a schema
_NAMED_KINDS = frozenset({"parameter", "schema"})


def _named_kind(noun: str) -> bool:
    """Whether the message's noun ("bind parameter", "schema translate name") is a kind of
    code the user declares (`code_kind`) or names themselves."""
    return code_kind(noun) or not _NAMED_KINDS.isdisjoint(re.findall(r"[a-z]+", noun.lower()))


def _needs(found: re.Match[str], facts: Facts) -> str | None:
    noun = found.group("noun")
    if not code_kind(noun):
        return None  # "{model} needs the target input embedding": no declaration named
    holder, name = _holder(found.group("holder")), quoted(found.group("name"))
    by = "named" if found.group("by").lower() == "named" else "for the key"
    return f"Declare in {holder} {_a(noun)} {by} {name}"


def _needs_to_be(found: re.Match[str], facts: Facts) -> str | None:
    noun = found.group("noun")
    if not code_kind(noun):
        return None
    holder, name = _holder(found.group("holder")), quoted(found.group("name"))
    return f"Declare the {noun} {name} of {holder} so that it is {found.group('what')}"


def _holder(text: str) -> str:
    """The declared holder as a sentence names it: "the model “TP”", or “SOURCE” alone."""
    said = quoted(_lower(text))
    return said if said.startswith("“") else f"the {said}"


def _not_applied(found: re.Match[str], facts: Facts) -> str | None:
    things = found.group("things")
    if not code_kind(things):
        return None  # "eager loading cannot be applied": no declaration of the user's
    target = _holder(found.group("target"))
    return (
        f"Leave the {things} the message lists off your declaration of {target}, or put "
        "them on a type that takes them"
    )


def _signature_for(found: re.Match[str], facts: Facts) -> str | None:
    noun = " ".join(p for p in (found.group("kind"), found.group("thing")) if p)
    if not code_kind(noun):
        return None  # "Unsupported signature for handle {h}": no function of the user's
    if declaration_hook(facts) is not None:
        return None  # the class rule says it, with the class statement that runs it
    return (
        f"Change the signature of your {noun} {quoted(found.group('name'))} to one the "
        "library takes"  # the message quoted after it shows the one refused
    )


def _not_applied_one(found: re.Match[str], facts: Facts) -> str | None:
    noun = found.group("noun")
    if not code_kind(noun):
        return None  # "Unable to apply patch {p} to file {f}": no declaration of the user's
    target, name = _holder(found.group("target")), quoted(found.group("name"))
    return (
        f"Leave the {_lower(noun)} {name} off your declaration of {target}, or put it on a "
        "type that takes it"
    )


def _has_no(found: re.Match[str], facts: Facts) -> str:
    kind, noun = _lower(found.group("kind")), found.group("noun")
    holder, name = quoted(found.group("holder")), quoted(found.group("name"))
    declared = f"Declare {_a(noun)} named {name} in the {kind} {holder}"
    return f"{declared}, or refer to {_a(noun)} that {kind} has"


def _does_not_have(found: re.Match[str], facts: Facts) -> str | None:
    if not code_kind(found.group("noun")):
        return None  # "Session {s} does not have a job named {j}": no declaration named
    return _has_no(found, facts)


def _should_be(found: re.Match[str], facts: Facts) -> str | None:
    noun = found.group("noun")
    if not code_kind(noun):
        return None  # "{x} is not a valid step; should be ...": no declaration named
    what = found.group("what").strip()
    if re.match(r"(?:an?|one of|the)\b", what, re.I) is None:
        what = _a(what)
    # the one refused is named by the message, quoted after this
    return f"Make the {_lower(noun)} the message names {what}"


def _not_as_names(found: re.Match[str], facts: Facts) -> str | None:
    noun = found.group("noun")
    words = set(re.findall(r"[a-z]+", noun.lower()))
    if not (code_kind(noun) or not words.isdisjoint(_NAMED_KINDS | {"argument"})):
        return None  # "... are not allowed as run names": a name the program makes
    names = quoted(found.group("names").strip())
    names = re.sub(r" and (?=[^,]+$)", " or ", names)  # any one of them is refused
    return f"Rename each {_lower(noun)} of yours named {names}"


def _refused_kind(found: re.Match[str], facts: Facts) -> str | None:
    noun = _lower(found.group("noun"))
    refused = _refused_isinstance(facts, _bare(found.group("name")))
    if refused is None:
        return None  # the message's own words say nothing of the kind that passes
    kinds, line = refused
    said = listed([f"{_a(k).partition(' ')[0]} {code(k)}" for k in kinds], "or")
    key = _read_key(facts, _source_of(_bare(found.group("name"))))
    # the key the value is read by is the name the user gives it by (`Field(validation_alias=
    # ...)`): said beside the noun, not as where the library reads it
    named = f" ({code(key)})" if key is not None else ""
    return f"Make the {noun}{named} {said}, the only kind the check at line {line} lets through"


def _read_key(facts: Facts, name: str) -> str | None:
    """The key a local is read from, `alias = field.get('validation_alias', ...)` or
    `field['validation_alias']`: the name the user gives that value by; else None."""
    for value in _local_values(facts, name):
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == "get"
            and value.args
        ):
            value = value.args[0]
        elif isinstance(value, ast.Subscript):
            value = value.slice
        else:
            return None
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return value.value
    return None


def _source_of(placeholder: str) -> str:
    """The expression of a placeholder, its braces, conversion and spec left out."""
    return re.sub(r"(?:![rsa])?(?::[^{}]*)?$", "", placeholder[1:-1])


def _refused_isinstance(facts: Facts, placeholder: str) -> tuple[list[str], int] | None:
    """The class names of the raise's own test `not isinstance(x, K)` (each of a tuple
    `K`), where `x` is the placeholder's expression, with the test's line; else None."""
    wanted = parse_expression(_source_of(placeholder))
    refused = _refused_test(facts)
    if wanted is None or refused is None or ast.dump(refused[0]) != ast.dump(wanted):
        return None
    parts = refused[1].elts if isinstance(refused[1], ast.Tuple) else [refused[1]]
    if not all(isinstance(p, (ast.Name, ast.Attribute)) for p in parts):
        return None
    return [ast.unparse(p) for p in parts], refused[2]


def _alike(found: re.Match[str], facts: Facts) -> str | None:
    things, noun = found.group("things"), found.group("noun")
    if not code_kind(things, noun):
        return None  # "Lengths of prompts {n} must be the same": no declaration named
    one = _lower(re.sub(r"(?<=[sxz])es$|s$", "", things))
    name = quoted(found.group("name"))
    return f"Give the {_lower(noun)} {name} the same {one} wherever it is declared"


def _alone(found: re.Match[str], facts: Facts) -> str | None:
    things = found.group("things")
    if not code_kind(things):
        return None  # "Dense and sparse patches cannot be mixed with other patches": no declaration
    name = found.group("name")
    name = quoted(name) if re.search(_PH, name) else code(name.strip("`"))
    return f"Declare {name} alone, with no other {things} beside it"


def _not_applicable(found: re.Match[str], facts: Facts) -> str:
    how, name = _lower(found.group("how")), quoted(found.group("name"))
    keys = _registered_keys(facts)
    if not keys:
        return f"Do not apply {how} to {name}"
    options = [code(f"{o}()") for k in keys for o in _choosing(facts, k)]
    choices = [code(k) for k in keys] + list(dict.fromkeys(options))
    # the user's own words for the choice, not the class it picks or the decorator that
    # registers it: those are the library's, which the user never writes
    each = "it asks" if len(choices) == 1 else "each asks"
    return (
        f"Do not apply {how} to {name}: leave out {listed(choices)} for it ({each} for the "
        f"{how} this check refuses)"
    )


def _choosing(facts: Facts, key: str) -> list[str]:
    """The public functions and methods of the site's folder whose body gives the choice
    `key` (`lazy='subquery'`) as a one-entry mapping (`{"lazy": "subquery"}`): the calls a
    user makes to choose it (`subqueryload`); empty when there is none or no store."""
    name, _, value = key.partition("=")
    said = ast.literal_eval(value)
    if not isinstance(said, str) or facts.folder_paths is None or facts.file_text is None:
        return []
    text_form = re.compile(rf"""['"]{re.escape(name)}['"]\s*:\s*['"]{re.escape(said)}['"]""")
    found: list[str] = []
    for path in facts.folder_paths():
        text = facts.file_text(path) if path.endswith(".py") else None
        tree = kept_module(text) if text is not None and text_form.search(text) else None
        for node in ast.walk(tree) if tree is not None else ():
            if (
                isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and not node.name.startswith("_")
                and any(_one_entry(d, name, said) for d in ast.walk(node))
            ):
                found.append(node.name)
    return found


def _one_entry(node: ast.AST, key: str, value: str) -> bool:
    """Whether `node` is the mapping `{key: value}` of two strings, alone."""
    return (
        isinstance(node, ast.Dict)
        and len(node.keys) == 1
        and isinstance(node.keys[0], ast.Constant)
        and node.keys[0].value == key
        and isinstance(node.values[0], ast.Constant)
        and node.values[0].value == value
    )


def _registered_keys(facts: Facts) -> list[str]:
    """The `key=value` forms of the decorator calls that register the class of the site's
    method under literal keywords (`@RelationshipProperty.strategy_for(lazy="subquery")`):
    what a user writes to have that class run; empty when there is none."""
    owner = facts.stored.site.function.rpartition(".")[0]
    tree = facts.source_tree()
    if not owner or "." in owner or tree is None:
        return []
    for node in tree.body:
        if not (isinstance(node, ast.ClassDef) and node.name == owner):
            continue
        keys = []
        for decorator in node.decorator_list:
            if not isinstance(decorator, ast.Call) or decorator.args or not decorator.keywords:
                continue
            pairs = [
                f"{k.arg}={k.value.value!r}"
                for k in decorator.keywords
                if k.arg is not None and isinstance(k.value, ast.Constant)
            ]
            if len(pairs) == len(decorator.keywords):
                keys.append(", ".join(pairs))
        if keys:
            return keys
    return []


def _too_many(found: re.Match[str], facts: Facts) -> str:
    name, expected = quoted(found.group("name")), quoted(found.group("expected"))
    return (
        f"Parametrize {name} with {expected} type arguments, one for each type parameter it "
        f"declares, not {quoted(found.group('actual'))}"
    )


def _not_found(found: re.Match[str], facts: Facts) -> str | None:
    name = _bare(found.group("name"))
    looked = _looked_up(name, facts)
    if looked is None:
        return None  # no sign the name is looked up among the user's declarations
    container, line = looked
    noun = found.group("noun")
    return (
        f"Declare the {noun} “{name}” in {code(container)}, where the check at line {line} "
        f"looks it up, or refer by name to {_a(noun)} declared there"
    )


def _looked_up(name: str, facts: Facts) -> tuple[str, int] | None:
    """The container a test on the raise's path looks the placeholder's expression up in
    (`tablekey not in parenttable.metadata`), with the test's line, or None."""
    wanted = parse_expression(name[1:-1])
    tree = facts.source_tree()
    if wanted is None or tree is None:
        return None
    own = module_names(tree)  # the module's own tables: no user declares a name in them
    for check in reversed([c for c in facts.held if c.kind in CHECKS]):
        test = parse_expression(check.text)
        for node in ast.walk(test) if test is not None else ():
            if (
                isinstance(node, ast.Compare)
                and len(node.ops) == 1
                and isinstance(node.ops[0], ast.NotIn)
                and ast.dump(node.left) == ast.dump(wanted)
                and isinstance(node.comparators[0], (ast.Name, ast.Attribute))
                and _users(ast.unparse(node.comparators[0]), own)
            ):
                return ast.unparse(node.comparators[0]), check.line
    return None


def _users(container: str, own: set[str]) -> bool:
    """Whether a container may hold what the user declared: not a table of the module's
    own (`BACKENDS`, assigned or imported at its top) nor one held in a private attribute
    (`self._handles`, the package's own state)."""
    parts = container.split(".")
    return parts[0] not in own and not any(p.startswith("_") for p in parts)


_RULES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str], Facts], str | None]], ...] = (
    (_MULTIPLE, _multiple),
    (_ONLY_ONE, _only_one),
    (_HOLDER_ONE, _holder_one),
    (_MANY, _many),
    (_EXISTS, _exists),
    (_RESERVED, _reserved),
    (_VALUE, _value),
    (_CHARS, _chars),
    (_SAME, _same),
    (_NEEDS, _needs),
    (_NEEDS_TO_BE, _needs_to_be),
    (_NOT_APPLIED, _not_applied),
    (_NOT_APPLIED_ONE, _not_applied_one),
    (_SIGNATURE_FOR, _signature_for),
    *((has_no, _has_no) for has_no in _HAS_NO),
    (_DOES_NOT_HAVE, _does_not_have),
    *((should_be, _should_be) for should_be in _SHOULD_BE),
    (_NOT_AS_NAMES, _not_as_names),
    (_REFUSED_KIND, _refused_kind),
    (_ALIKE, _alike),
    (_NOT_FOUND, _not_found),
    (_ALONE, _alone),
    (_NOT_APPLICABLE, _not_applicable),
    (_TOO_MANY, _too_many),
)
