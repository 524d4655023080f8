"""The user's object a visitor method is handed, said as the call that builds it.

A visitor dispatches each object of a tree to the method named for the object's class
(`visit_<Class>`: SQLAlchemy's compilers, `ast.NodeVisitor`). SQLAlchemy's MySQL type
compiler raises "NVARCHAR requires a length on dialect mysql" in
`MySQLTypeCompiler.visit_NVARCHAR(self, type_, **kw)` when `type_.length is None`: the
method's argument is no value a user passes (the compiler hands it the `NVARCHAR` the
user's column holds), so "Pass for the argument `type_` of
`MySQLTypeCompiler.visit_NVARCHAR` a value whose `length` is set" is right and no user can
take it. The way out is in the call that builds the visited object: `NVARCHAR(length=...)`.

Only where the method is `visit_<Name>` with `<Name>` a class of the package users build
themselves (the site's file defines it or imports it from the package by that name, and
the package hands it to users: its top package imports or lists it, or its module's
`__all__` does; a node a template engine's parser builds from the user's text is visited
with what the parser gave it, and "Pass `dyn_args` to the `Call` you build" speaks to a
user who builds none), the test is on an
attribute of the method's first argument (`arg.attr is None`, `not arg.attr`), and
`attr` is a parameter of that class's own constructor (or of the first base that defines
one): the value the check sees is what the user gave there. A name that is no class of
the package (`visit_unary`, `visit_Name` of an `ast` visitor: Python's node, which the
package parsed itself) and an attribute no constructor takes get nothing here.

Other classes reach the same method where another visitor method only hands its argument
on (`def visit_string(self, type_, **kw): return self.visit_VARCHAR(type_, **kw)`, in the
site's file or its class's bases' files): the class whose `__visit_name__` is that name
(`String`, found in the files of the visited class and of its bases) is named beside it
when its constructor takes the attribute too (`Enum`'s computes its length: not named).
`Column(String)` on MySQL is the usual way to meet "VARCHAR requires a length".
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from errdex.explain.callee_advice import resolve_called
from errdex.explain.context import Facts, at_margin, parse_module, top_class_in
from errdex.explain.declared_fields import base_name
from errdex.explain.imported_class import module_kept_text
from errdex.explain.item_fields import own_init
from errdex.explain.library_export import module_all
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.explain.table_lookup import module_names
from errdex.extract.module import module_name
from errdex.extract.shapes import tested_absent

__all__ = ["visited_object_solution"]

_PREFIX = "visit_"
_MAX_BASES = 3  # bases followed for the constructor that takes the attribute
_MAX_ALSO = 4  # the other classes named, at most
# a class's own name for its visitor method, where it is not the class's name
_VISIT_NAME = r"""\n[ \t]+__visit_name__\s*=\s*["']{}["']"""


def visited_object_solution(facts: Facts, conditions: list[ConditionView]) -> Solution | None:
    """ "Pass `length` to the `NVARCHAR` you build ...", where a visitor method's test is
    on an attribute its class's constructor takes; else None."""
    owner, _, method = facts.stored.site.function.rpartition(".")
    name = method[len(_PREFIX) :] if method.startswith(_PREFIX) else ""
    if not owner or "." in owner or not name or name.startswith("_"):
        return None
    function = facts.site_function()
    if function is None:
        return None
    params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    if len(params) < 2 or params[0] != "self":
        return None
    visited = params[1]
    for condition in reversed(conditions):
        shape = _attribute_test(condition.text, visited)
        if shape is None:
            continue
        attribute, empty = shape
        init = _visited_constructor(facts, name)
        if init is None or attribute not in _named(init):
            return None
        also = _also_visited(facts, owner, method, name, attribute)
        others = f" (or the {_listed(also)} visited as one)" if also else ""
        if empty:
            wanted = (
                f"Pass a non-empty (true) {code(attribute)} to the {code(name)} you build{others}"
            )
        else:
            before = "..., " if any(p != attribute for p in _required(init)) else ""
            built = code(f"{name}({before}{attribute}=...)")
            wanted = f"Pass {code(attribute)} to the {code(name)}{others} you build: {built}"
        held = "is empty (false)" if empty else "is None"
        text = (
            f"{wanted}; {code(facts.stored.site.function)} is handed that object when it "
            f"is visited, and raises when its {code(attribute)} {held}."
        )
        return Solution(text=text, condition=condition.text, kind="input")
    return None


def _attribute_test(text: str, visited: str) -> tuple[str, bool] | None:
    """The attribute of `visited` a condition as it holds tests missing, and whether the
    test is that it is empty (`not x.a`) rather than None (`x.a is None`); None for other
    tests."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    missing = tested_absent(node)
    attribute = _attribute_of(missing, visited) if missing is not None else None
    return (attribute, isinstance(node, ast.UnaryOp)) if attribute else None


def _attribute_of(node: ast.expr, visited: str) -> str | None:
    """`a` of `visited.a`; None for any other expression."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == visited
        and not node.attr.startswith("_")
    ):
        return node.attr
    return None


def _named(init: ast.FunctionDef) -> set[str]:
    """The parameters a call may give by name."""
    args = init.args
    return {a.arg for a in (*args.args, *args.kwonlyargs)} - {"self"}


def _required(init: ast.FunctionDef) -> list[str]:
    """The positional parameters with no default (not `self`)."""
    args = [*init.args.posonlyargs, *init.args.args]
    given = args[: len(args) - len(init.args.defaults)]
    return [a.arg for a in given if a.arg != "self"]


def _visited_constructor(facts: Facts, name: str) -> ast.FunctionDef | None:
    """The constructor of the class `name` the site's file defines or imports by name from
    a module of the package, read in the file that defines it (bases there followed);
    None where the class declares a `__visit_name__` other than `name` (its objects are
    handed to the method of that name, not to `visit_<name>`)."""
    tree = facts.source_tree()
    module = module_name(facts.stored.file)[0]
    found = _class_text(facts, tree, module, name) if tree is not None else None
    if found is None or _visit_name(found[0], name) not in (None, name):
        return None
    if not _users_build(facts, name, found[0]):
        return None
    return _constructor(found[0], name)


def _users_build(facts: Facts, name: str, text: str) -> bool:
    """Whether users build the class `name` (defined in `text`) themselves: the package
    hands it to them by that name, its top package importing or listing it
    (`sqlalchemy.VARCHAR`), or its own module listing it in `__all__`. A class only the
    package's own code builds (a template engine's parser making a `Call` node of the
    user's text) is visited with the attributes the package gave it."""
    if name.startswith("_"):
        return False
    listed = module_all(text)
    return (listed is not None and name in listed) or name in facts.once(
        "top_names", lambda: _top_names(facts)
    )


def _top_names(facts: Facts) -> frozenset[str]:
    """The names the top package binds at its top (imported, assigned) or lists in its
    `__all__`; none when its `__init__` is not kept."""
    text = facts.top_init() if facts.top_init is not None else None
    tree = parse_module(text)
    if tree is None:
        return frozenset()
    return frozenset(module_names(tree) | (module_all(text) or frozenset()))


def _visit_name(text: str, name: str) -> str | None:
    """The `__visit_name__` the top-level class `name` of `text` declares, or the first of
    its bases (by name, in the same text, a few levels) that declares one; None when none
    does."""
    for cls in _lineage(text, name):
        for statement in cls.body:
            if (
                isinstance(statement, ast.Assign)
                and any(
                    isinstance(t, ast.Name) and t.id == "__visit_name__" for t in statement.targets
                )
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            ):
                return statement.value.value
    return None


def _constructor(text: str, name: str) -> ast.FunctionDef | None:
    """The constructor of the top-level class `name` of `text`: its own `__init__`, else
    that of the first of its bases (by name, in the same text, a few levels) that defines
    one; None when not found."""
    for cls in _lineage(text, name):
        init = own_init(cls)
        if init is not None:
            return init
    return None


def _lineage(text: str, name: str) -> Iterator[ast.ClassDef]:
    """The top-level class `name` of `text`, then its first base, and that one's, while
    the same text defines them (a few levels)."""
    cls = top_class_in(text, name)
    for _ in range(_MAX_BASES):
        if cls is None:
            return
        yield cls
        bases = [b for b in map(base_name, cls.bases) if b is not None]
        cls = top_class_in(text, bases[0]) if bases else None


def _listed(names: list[str]) -> str:
    """`A`, `B` or `C`."""
    shown = [code(n) for n in names]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _also_visited(facts: Facts, owner: str, method: str, name: str, attribute: str) -> list[str]:
    """The other classes whose objects reach the method: a visitor method of the site's
    file or of its class's bases' files that only hands its argument on to it (`def
    visit_string(self, type_, **kw): return self.visit_VARCHAR(type_, **kw)`), for a class
    whose `__visit_name__` is that name (`String`), found in the files of the visited
    class and of its bases, and whose constructor takes the attribute too."""
    tree = facts.source_tree()
    cls = class_in_site_file(facts, owner)
    if tree is None or cls is None or facts.file_text is None:
        return []
    module = module_name(facts.stored.file)[0]
    # the visitor methods of the site's class and of its bases (in its file, and those it
    # names from other files, a level): a method the class defines itself is not its
    # bases' (an override that renders the type its own way hands nothing on), and another
    # class of the same files is no base at all
    methods = _own_methods(facts.source_text or "", cls)
    for text, base in _bases_elsewhere(facts, tree, module, cls):
        for visit, function in _own_methods(text, base).items() if base is not None else ():
            methods.setdefault(visit, function)
    handed = [v[len(_PREFIX) :] for v, f in methods.items() if _hands_on(f, method)]
    if not handed:
        return []
    visited = _class_text(facts, tree, module, name)
    if visited is None:
        return []
    own_text, own_module = visited
    own_tree = tree if own_module == module else parse_module(own_text)  # the site's, parsed
    own_cls = top_class_in(own_text, name)
    if own_tree is None or own_cls is None:
        return []
    kinds = [own_text]
    for text, _ in _bases_elsewhere(facts, own_tree, own_module, own_cls):
        if text not in kinds:
            kinds.append(text)
    found: list[str] = []
    for visit in handed:
        for text in kinds:
            other = _class_by_visit_name(text, visit)
            if other is None or other == name or other in found or other.startswith("_"):
                continue
            init = _constructor(text, other)
            if init is not None and attribute in _named(init) and _users_build(facts, other, text):
                found.append(other)
            break
    return found[:_MAX_ALSO]


def _own_methods(text: str, cls: ast.ClassDef) -> dict[str, ast.FunctionDef]:
    """The `visit_` methods of the class and of its bases defined in the same file (the
    class's own first), by name."""
    methods: dict[str, ast.FunctionDef] = {}
    seen: set[str] = set()
    pending: list[ast.ClassDef] = [cls]
    while pending and len(seen) <= _MAX_BASES:
        current = pending.pop(0)
        seen.add(current.name)
        for statement in current.body:
            if isinstance(statement, ast.FunctionDef) and statement.name.startswith(_PREFIX):
                methods.setdefault(statement.name, statement)
        for written in map(base_name, current.bases):
            base = top_class_in(text, written) if written and written not in seen else None
            if base is not None:
                pending.append(base)
    return methods


def _hands_on(function: ast.FunctionDef, method: str) -> bool:
    """Whether the method only hands its argument on to `method` (`return
    self.visit_VARCHAR(type_, **kw)`)."""
    params = [a.arg for a in function.args.args]
    body = function.body[1:] if ast.get_docstring(function) is not None else function.body
    if len(params) != 2 or len(body) != 1 or not isinstance(body[0], ast.Return):
        return False
    call = body[0].value
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == params[0]
        and call.func.attr == method
        and [ast.unparse(a) for a in call.args] == [params[1]]
    )


def class_in_site_file(facts: Facts, name: str) -> ast.ClassDef | None:
    """The top-level class `name` of the site's file."""
    return top_class_in(facts.source_text, name)


def _resolved(tree: ast.Module, module: str, written: str) -> tuple[str, str] | None:
    """(module, class) of a class written `Name` or `mod.Name` in a file of `module`:
    imported by name, defined there, or an attribute of a module imported from a package
    (`from ..sql import compiler`; `compiler.GenericTypeCompiler`)."""
    package = module.rpartition(".")[0]
    root, _, attr = written.partition(".")
    found = resolve_called(written, tree, module, package)
    if found is not None or not attr or "." in attr:
        return found
    held = resolve_called(root, tree, module, package)
    return (f"{held[0]}.{held[1]}", attr) if held is not None else None


def _module_text(facts: Facts, module: str) -> str | None:
    kept = module_kept_text(facts, module)
    return kept[1] if kept is not None else None


def _class_text(facts: Facts, tree: ast.Module, module: str, name: str) -> tuple[str, str] | None:
    """The text of the file that defines the class `name` as the file of `module` (whose
    statements are `tree`) writes it, and that file's module; None when not found."""
    found = _resolved(tree, module, name)
    if found is None:
        return None
    if found[0] == module:
        return (facts.source_text or "", module) if tree is facts.source_tree() else None
    text = _module_text(facts, found[0])
    return (text, found[0]) if text is not None else None


def _bases_elsewhere(
    facts: Facts, tree: ast.Module, module: str, cls: ast.ClassDef
) -> list[tuple[str, ast.ClassDef | None]]:
    """The class's direct bases defined in other files: each file's text, with the base's
    class in it (None where that text does not define it at its top)."""
    found: list[tuple[str, ast.ClassDef | None]] = []
    for base in cls.bases:
        written = ast.unparse(base.value if isinstance(base, ast.Subscript) else base)
        at = _resolved(tree, module, written)
        text = _module_text(facts, at[0]) if at is not None and at[0] != module else None
        if text is not None and at is not None:
            found.append((text, top_class_in(text, at[1])))
    return found


def _class_by_visit_name(text: str, visit: str) -> str | None:
    """The top-level class of `text` whose `__visit_name__` is `visit`."""
    at = re.search(_VISIT_NAME.format(re.escape(visit)), text)
    if at is None:
        return None
    headers = [m for _, m in at_margin(r"class\s+(\w+)", text[: at.start()])]
    return headers[-1].group(1) if headers else None
