"""A raise the class documents as its subclasses' to replace: subclass it, and pass yours.

Some libraries raise by default for what they cannot handle and say in the method's own
docstring that a subclass may do otherwise: pydantic's `GenerateJsonSchema.callable_schema`
is "Unless overridden in a subclass, this raises an error", and the functions that use the
class take another one in its place (`model_json_schema(schema_generator=...)`, whose
default is `GenerateJsonSchema`). That is the library's escape hatch, in its authors' words:
subclass the class, override the method, and pass the subclass where the package takes the
class. Taken when the raise is the whole of a public method of a public class (at the site,
or in the helper of the same class the method does nothing but call), the docstring of that
method, or of one whose whole body calls the raising helper, says it is overridden in a
subclass, and a function of the same file takes a class with this one as its default. A
method no docstring calls replaceable, or a class nothing takes in its place, gets nothing.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.context import Facts, class_in_file
from errdex.explain.name_scan import spaces_before
from errdex.explain.page import Solution
from errdex.explain.plain import code, listed
from errdex.extract.shapes import self_attribute
from errdex.extract.textscan import occurrences

__all__ = ["override_hatch_solution", "taking_class"]

# "Unless overridden in a subclass, this raises"; "override this method in a subclass".
_CLOSES_DEFAULT = re.compile(r"\s*[,)]")  # what follows a default in a signature
_OVERRIDDEN = re.compile(
    r"\b(?:overridden|override[sd]?(?:\s+(?:it|this(?:\s+method)?))?)\s+(?:in|by)\s+"
    r"(?:a\s+|your\s+)?subclass",
    re.I,
)
_SHOWN = 3  # functions named that take the class


def override_hatch_solution(facts: Facts) -> Solution | None:
    """ "Subclass `C`, override `m` ... and pass your subclass as `p=` ..." for a raise a
    public class's method is documented to make unless a subclass overrides it; else None."""
    owner, _, method = facts.stored.site.function.rpartition(".")
    text = facts.source_text or ""
    if not owner or "." in owner or owner.startswith("_") or method.startswith("_"):
        return None
    if not _defaulting(text, owner) or not _OVERRIDDEN.search(text):
        return None  # what the text says first: most files hold neither
    cls = class_in_file(facts, owner)
    if cls is None:
        return None
    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    function = methods.get(method)
    if function is None or not _raises_only(function, methods, facts.stored.site.line):
        return None
    said = _documented(function, methods)
    taken = [(p, f) for p, f in taking_class(facts, owner) if not f.startswith(f"{owner}.")]
    if said is None or not taken:
        return None
    documented, sentence = said
    returns = f" to return a {code(ast.unparse(function.returns))}" if function.returns else ""
    params = sorted({p for p, _ in taken})
    calls = ", which calls it," if documented != method else ""
    users = [code(f) for _, f in taken[:_SHOWN]]
    return Solution(
        text=(
            f"Subclass {code(owner)}, override its {code(method)}{returns} in place of "
            f"raising, and pass your subclass as {listed([code(p + '=') for p in params], 'or')} "
            f"(to {listed(users, 'or')}): the docstring of {code(documented)}{calls} says "
            f"“{sentence}”"
        ),
        kind="input",
    )


def _body(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.stmt]:
    """The function's statements after its docstring."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return body


def _raises_only(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef],
    line: int,
) -> bool:
    """Whether the method's whole body is the raise at `line`, or a call at `line` of a
    method of the class whose whole body is a raise."""
    body = _body(function)
    if len(body) != 1 or body[0].lineno > line or (body[0].end_lineno or 0) < line:
        return False
    if isinstance(body[0], ast.Raise):
        return True
    helper = _called_method(body[0])
    inner = _body(methods[helper]) if helper in methods else []
    return len(inner) == 1 and isinstance(inner[0], ast.Raise)


def _called_method(statement: ast.stmt) -> str | None:
    """`m` of a statement `return self.m(...)` or `self.m(...)`."""
    value = statement.value if isinstance(statement, ast.Return | ast.Expr) else None
    if isinstance(value, ast.Call):
        return self_attribute(value.func)
    return None


def _documented(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef],
) -> tuple[str, str] | None:
    """(method, sentence) of the docstring that calls the raise a subclass's to override:
    the site's method's own, else that of a method of the class whose whole body calls it."""
    callers = [
        m
        for m in methods.values()
        if len(body := _body(m)) == 1 and _called_method(body[0]) == function.name
    ]
    for candidate in (function, *sorted(callers, key=lambda m: m.lineno)):
        doc = ast.get_docstring(candidate) or ""
        for sentence in re.split(r"(?<=[.!?])\s+", " ".join(doc.split())):
            if _OVERRIDDEN.search(sentence):
                return candidate.name, sentence
    return None


def taking_class(facts: Facts, name: str) -> list[tuple[str, str]]:
    """(parameter, `function` or `Class.method`) of the site file's public functions and
    methods that take a class with `name` as the parameter's default
    (`schema_generator=GenerateJsonSchema`, `ShardedSession(query_cls=ShardedQuery)`)."""
    tree = facts.top_module(lambda chunk, start, end: _defaulting(chunk, name))
    out: list[tuple[str, str]] = []
    for top in tree.body if tree is not None else []:
        inner = top.body if isinstance(top, ast.ClassDef) else [top]
        prefix = f"{top.name}." if isinstance(top, ast.ClassDef) else ""
        for node in inner:
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if node.name.startswith("_") and node.name != "__init__":
                continue
            out.extend((p, prefix + node.name) for p in _defaulting_to(node.args, name))
    return out


def _defaulting(text: str, name: str) -> bool:
    r"""Whether `text` gives a parameter the bare name as its default, as a signature writes
    it (`= Name,`): `=\s*name\s*[,)]`."""
    return any(
        _CLOSES_DEFAULT.match(text, at + len(name)) is not None
        and text[spaces_before(text, at) - 1 : spaces_before(text, at)] == "="
        for at in occurrences(text, name)
    )


def _defaulting_to(args: ast.arguments, name: str) -> list[str]:
    """The parameters whose default is the bare name `name`."""
    positional = [*args.posonlyargs, *args.args]
    pairs = [
        *zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
        *((a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d),
    ]
    return [a.arg for a, d in pairs if isinstance(d, ast.Name) and d.id == name]
