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
  {source_type!r}: {names}": leave those out, or declare them on a type that takes them;
- a name referred to that is not declared: "{holder} has no {noun} named {name}", "on
  {holder}: no {noun} named {name} is present", and
  "could not find {noun} {name}" where the raise's own test looks `name` up in a container
  (`tablekey not in parenttable.metadata`): declare it there, or refer to one that is.

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
from collections.abc import Callable

from errdex.explain.class_hooks import declaration_hook
from errdex.explain.context import Facts
from errdex.explain.entry_input import CHECKS
from errdex.explain.page import Solution
from errdex.explain.plain import code
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
    return None


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
    held = facts.held
    if not held:
        return None
    test = parse_expression(held[-1].text)
    if not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)):
        return None
    checked = isinstance_test(test.operand)
    if checked is None or not all(isinstance(part, ast.Name) for part in checked):
        return None
    local, kind = ast.unparse(checked[0]), ast.unparse(checked[1])
    for binding in facts.bindings:
        if binding.origin != "local" or binding.name != local:
            continue
        value = parse_expression(binding.value)
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and re.search(rf"\{{{re.escape(value.func.id)}\b", text) is not None
        ):
            article = _a(kind).partition(" ")[0]
            return value.func.id, f"{article} {code(kind)}", held[-1].line
    return None


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
    "submodel table constraint decorator".split()
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


def _has_no(found: re.Match[str], facts: Facts) -> str:
    kind, noun = found.group("kind"), found.group("noun")
    holder, name = quoted(found.group("holder")), quoted(found.group("name"))
    declared = f"Declare {_a(noun)} named {name} in the {kind} {holder}"
    return f"{declared}, or refer to {_a(noun)} that {kind} has"


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
    *((has_no, _has_no) for has_no in _HAS_NO),
    (_NOT_FOUND, _not_found),
)
