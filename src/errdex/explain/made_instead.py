"""The class a parse makes of the user's data instead of the one a check takes.

A check that wants one class of a value (`not isinstance(items, ImageProcessorItems)`, as
vllm's processors ask the items `MultiModalDataParser` made of a request's image) reads no
argument a user passes: the value was made by the package from the user's data, by a
function that returns one class or another by the data's form (`if
self.is_embeddings(data): return ImageEmbeddingItems(...)` ... `return
ImageProcessorItems(...)`). Where that function is the one that makes the class the check
takes, and the class its earlier branch makes is not among those taken, the way out is the
data in the other form: the one the function makes the wanted class of, not the one its
branch turns into the refused class (raw images, not their embeddings).

Taken only where the checked class is the package's own (the site's file defines it or
imports it from a module of the package whose file the index keeps), one function of that
module makes it, and that function's branch returns a class the check does not take: a
maker of which every branch is taken says nothing of why the value failed.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from errdex.explain.callee_advice import resolve_called
from errdex.explain.context import Facts, kept_module
from errdex.explain.imported_class import module_kept_text
from errdex.explain.outline import importing_or_defining
from errdex.explain.page import ConditionView, Solution
from errdex.extract.conditions import dotted_name
from errdex.extract.module import module_name
from errdex.link.expression_texts import negated_call, parse_expression

__all__ = ["made_instead_solution"]

_CLASS_NAME = re.compile(r"^[A-Z]\w*$")
_PREDICATE = re.compile(r"^is_(?P<words>[a-z][a-z0-9_]*)$")
_CAMEL_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z][a-z0-9]*")


@dataclass(frozen=True)
class _Maker:
    """A function that makes the wanted class, and the branch before that makes another."""

    function: str  # `MultiModalDataParser._parse_image_data`
    file: str
    wanted: str  # the class it ends by making: `ImageProcessorItems`
    made_line: int  # its `return Wanted(...)`
    test: str  # the branch's test: `self.is_embeddings(data)`
    test_line: int
    other: str  # the class the branch returns: `ImageEmbeddingItems`
    other_line: int


def made_instead_solution(facts: Facts) -> Solution | None:
    """ "Give the image itself, not image embeddings: ... `F` makes a `C` of the data", for a
    held `not isinstance` check whose class a function of the package makes, returning a
    class the check does not take on an earlier branch."""
    if facts.file_text is None:
        return None
    # every class the path lets through for a value: `if isinstance(x, A): ... else: assert
    # isinstance(x, B)` holds both `not isinstance` tests, and takes either
    taken: dict[str, list[str]] = {}
    tests: list[tuple[str, ConditionView]] = []
    for condition in facts.held:
        tested = _refused_classes(condition.text)
        if tested is None:
            continue
        value, names = tested
        if not all(_CLASS_NAME.match(t) for t in names):
            return None  # a class the text does not name: what the path takes is not known
        taken.setdefault(value, []).extend(names)
        tests.append((value, condition))
    for value, condition in tests:
        solution = _solution_for(facts, condition, list(dict.fromkeys(taken[value])))
        if solution is not None:
            return solution
    return None


def _solution_for(facts: Facts, condition: ConditionView, taken: list[str]) -> Solution | None:
    makers = [m for name in taken for m in _makers_of(facts, name, frozenset(taken))]
    if len({(m.function, m.file) for m in makers}) != 1:
        return None  # no maker, or several: which one made the value is not known
    maker = makers[0]
    # the user's words for what they give, not the parse's: "the image itself, not image
    # embeddings", of the word the two classes share (`ImageProcessorItems`,
    # `ImageEmbeddingItems`) and the predicate's name (`is_embeddings`); the function and
    # classes follow after the colon as the evidence
    thing = _shared_thing(maker.wanted, maker.other)
    predicate = _predicate_words(maker.test)
    if predicate is not None:
        way = f"Give the {thing or 'data'} itself, not {f'{thing} ' if thing else ''}{predicate}"
    else:
        way = f"Give the {thing or 'data'} in another form"
    only = "only " if len(taken) == 1 else ""
    accepted = " or ".join(f"`{name}`" for name in taken)
    return Solution(
        text=(
            f"{way}: this check takes {only}{accepted}; `{maker.function}` "
            f"({maker.file}:{maker.made_line}) makes {_article(maker.wanted)} `{maker.wanted}` "
            f"of the data, but {_article(maker.other)} `{maker.other}` of data for which "
            f"`{maker.test}` holds (lines {maker.test_line}-{maker.other_line})."
        ),
        condition=condition.text,
        kind="input",
    )


def _shared_thing(wanted: str, other: str) -> str | None:
    """ "image" of `ImageProcessorItems` and `ImageEmbeddingItems`: the leading words the two
    classes share, which name the thing both are made of; None when they share none or one
    is all of the other's words."""
    first, second = _CAMEL_WORD.findall(wanted), _CAMEL_WORD.findall(other)
    shared: list[str] = []
    for one, two in zip(first, second, strict=False):
        if one != two:
            break
        shared.append(one)
    if not shared or len(shared) in (len(first), len(second)):
        return None
    return " ".join(shared).lower()


def _refused_classes(text: str) -> tuple[str, list[str]] | None:
    """(`items`, [`A`, `B`]) of `not isinstance(items, (A, B))`, a value and classes that are
    names or chains of names; None for any other text."""
    call = negated_call(text, "isinstance")
    if call is None or len(call.args) != 2:
        return None
    value, kinds = call.args
    classes = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
    names = [dotted_name(k) for k in classes]
    held = dotted_name(value)
    if held is None or not names or None in names:
        return None
    return held, [n for n in names if n is not None]


def _article(name: str) -> str:
    return "an" if name[:1] in "AEIOU" else "a"


def _predicate_words(test: str) -> str | None:
    """`self.is_embeddings(data)` → "embeddings": what the data is when the test holds,
    from a predicate's own name, when the test is that one call."""
    node = parse_expression(test)
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    found = _PREDICATE.match(name)
    return found.group("words").replace("_", " ") if found else None


def _makers_of(facts: Facts, name: str, taken: frozenset[str]) -> list[_Maker]:
    located = _class_module_text(facts, name)
    if located is None:
        return []
    path, text = located
    if f"return {name}(" not in text:
        return []  # cheap: no function of that module returns a new one
    tree = kept_module(text)
    if tree is None:
        return []
    makers: list[_Maker] = []
    for owner, function in _functions(tree):
        maker = _maker_in(function, name, taken)
        if maker is not None:
            qualname = f"{owner}.{function.name}" if owner else function.name
            makers.append(_Maker(qualname, path, name, *maker))
    return makers


def _class_module_text(facts: Facts, name: str) -> tuple[str, str] | None:
    """(path, text) of the package's module that defines the class `name` the site's file
    names: the site's own file, or the module it imports the name from."""
    stored = facts.stored
    tree = facts.top_module(importing_or_defining(name))
    if tree is None or facts.file_text is None:
        return None
    module, is_package = module_name(stored.file)
    package = module if is_package else module.rpartition(".")[0]
    target = resolve_called(name, tree, module, package)
    if target is None:
        return None
    source, defined = target
    if defined != name:
        return None  # imported under another name: the maker returns it by its own
    if source == module:
        return (stored.file, facts.source_text) if facts.source_text is not None else None
    if source.partition(".")[0] != module.partition(".")[0]:
        return None  # another distribution's class: the index holds none of its files
    return module_kept_text(facts, source)


def _functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef]]:
    """The module's functions and its classes' methods, with the class they are in."""
    found: list[tuple[str, ast.FunctionDef]] = []
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef):
            found.append(("", statement))
        elif isinstance(statement, ast.ClassDef):
            found.extend(
                (statement.name, method)
                for method in statement.body
                if isinstance(method, ast.FunctionDef)
            )
    return found


def _maker_in(
    function: ast.FunctionDef, wanted: str, taken: frozenset[str]
) -> tuple[int, str, int, str, int] | None:
    """(the line of `return wanted(...)`, the test of an earlier `if` of the body that
    returns another class the check does not take, its line, that class, its return's line),
    of a function whose body ends by returning a new `wanted`; None otherwise."""
    body = function.body
    if not body or not _returns_new(body[-1], wanted):
        return None
    parameters = {a.arg for a in (*function.args.posonlyargs, *function.args.args)}
    for statement in body[:-1]:
        if not isinstance(statement, ast.If) or statement.orelse or not statement.body:
            continue
        last = statement.body[-1]
        other = _new_class(last)
        if other is None or other == wanted or other in taken:
            continue
        if not _tests_form_of(statement.test, parameters - {"self", "cls"}):
            return None  # a switch (`if not enable_caching:`), not the data's form
        return body[-1].lineno, ast.unparse(statement.test), statement.lineno, other, last.lineno
    return None


def _tests_form_of(test: ast.expr, parameters: set[str]) -> bool:
    """Whether `test` is one call that tests the form of a parameter, the data handed in:
    `self.is_embeddings(data)`, `isinstance(data, dict)`; a flag's truth
    (`not enable_caching`) or a comparison of settings says nothing of the data."""
    if not isinstance(test, ast.Call) or not test.args or test.keywords:
        return False
    first = test.args[0]
    return isinstance(first, ast.Name) and first.id in parameters


def _returns_new(statement: ast.stmt, name: str) -> bool:
    return _new_class(statement) == name


def _new_class(statement: ast.stmt) -> str | None:
    """The class a `return Name(...)` makes, when the name reads as a class."""
    if not isinstance(statement, ast.Return) or not isinstance(statement.value, ast.Call):
        return None
    func = statement.value.func
    if isinstance(func, ast.Name) and _CLASS_NAME.match(func.id):
        return func.id
    return None
