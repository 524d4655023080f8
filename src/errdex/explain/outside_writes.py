"""Whether code outside a record's class writes one of its fields on an object it holds.

A record the user builds (`SamplingParams(logprob_token_ids=...)`) is handed to code that may
fill or replace a field before a later method checks it (`job.token_ids = tokenize(prompt)`
before `job.verify()`, or another record's field copied in, `sampling_params.
logprob_token_ids = ids`): the check then sees the package's value, not the keyword the user
gave. The linker resolves no such call through the object (`job.verify()`), so which of those
writes come between the constructor and the check is not known; any write of the field on
an object other than `self` in the version's kept files counts, but one that only carries the
object's own value of the field on (`ids = params.trace_ids; params.trace_ids = ids[:n]`, a
cut of what the user gave). A field of that name on another class's objects counts too: the
texts do not say whose object it is, and leaving a way out unsaid is no wrong page.

The answer is the same for every page of a version (its revision is its content's hash): it
is kept across pages. A version's kept files are read once a process, for every attribute
name a file's text writes on a name other than `self`/`cls` (the writes `_file_writes`
reads), and only the files writing the field asked so are read again and parsed.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from errdex.ast_walk import walk
from errdex.explain.across_pages import AcrossPages
from errdex.explain.context import Facts, parse_module, top_block_at

__all__ = ["written_outside"]

_WRITERS = frozenset({"self", "cls"})  # the class's own code
_MAX_HOPS = 4  # locals followed back from a written value to the field it carries on
# `<x>.<name> =` (not `==`), `<x>.<name> +=`: a write of an attribute, on a name `<x>`
# other than `self`/`cls` (the name checked apart, back from the dot: a search opening
# with the name tries every character of a version and takes seven times as long)
_HOLDER = r"(?<![\w.])(?!(?:self|cls)\b)[A-Za-z_]\w*"
_SET = r"[ \t]*[-+*/|&]?=(?!=)"
_WRITE = re.compile(rf"\.(\w+){_SET}")
_HOLDER_BEFORE = re.compile(rf"{_HOLDER}\Z")
# a version's revision → the kept files writing each attribute name (a few versions kept)
_FILES: AcrossPages[dict[str, tuple[str, ...]]] = AcrossPages(4)
# (revision, field) → whether one of those files writes it outside the class
_WRITTEN: AcrossPages[bool] = AcrossPages(1024)
# (revision, a function's parameter) → whether every call of the version hands it a copy
# the caller builds
_FRESH: AcrossPages[bool] = AcrossPages(1024)


def written_outside(facts: Facts, field: str) -> bool:
    """Whether code of the version (its kept files) sets `<obj>.<field>` on an object other
    than `self` to a value other than that object's own `<field>`; True when the version's
    files cannot be read (unknown is not "never")."""
    file_text, version_paths = facts.file_text, facts.version_paths
    if version_paths is None or file_text is None:
        return True
    revision = facts.stored.revision

    def written() -> bool:
        files = _FILES.kept(revision, lambda: _writing_files(file_text, version_paths()))
        handed: list[_Handed] = []
        if any(_file_writes(file_text(path), field, handed) for path in files.get(field, ())):
            return True
        paths = version_paths() if handed else ()
        return not all(_fresh_everywhere(revision, file_text, paths, h) for h in set(handed))

    return _WRITTEN.kept((revision, field), written)


def _writing_files(
    file_text: Callable[[str], str | None], paths: Sequence[str]
) -> dict[str, tuple[str, ...]]:
    """Each attribute name a kept file writes on a name other than `self`/`cls`
    (`x.name = ...`, in its text) → those files: one read of the version for every field a
    page asks of it."""
    found: dict[str, list[str]] = {}
    for path in paths:
        text = file_text(path) if path.endswith(".py") else None
        if text is None:
            continue
        names = {
            write.group(1)
            for write in _WRITE.finditer(text)
            if _HOLDER_BEFORE.search(text, text.rfind("\n", 0, write.start()) + 1, write.start())
        }
        for name in names:
            found.setdefault(name, []).append(path)
    return {name: tuple(files) for name, files in found.items()}


def _file_writes(text: str | None, field: str, handed: list[_Handed]) -> bool:
    """`_writes` of the top-level blocks of the file holding a write of `<name>.<field>`
    on a name other than `self`/`cls`, each parsed alone where it can be (the whole file
    else)."""
    if text is None:
        return True
    other = re.compile(rf"{_HOLDER}\.{re.escape(field)}{_SET}")
    seen: set[int] = set()
    for found in other.finditer(text):
        line = text.count("\n", 0, found.start()) + 1
        block = top_block_at(text, line)
        if block is None:
            return _writes(parse_module(text), field, handed)
        if block.lineno not in seen:
            seen.add(block.lineno)
            if _writes(block, field, handed):
                return True
    return False


def _writes(tree: ast.AST | None, field: str, handed: list[_Handed]) -> bool:
    """Whether a statement of the module sets `<name>.<field>` on a name other than
    `self`/`cls` to a value other than that name's own `<field>` (a file that does not
    parse: as if it did). A write on an object the function builds itself
    (`params = Params(...)`) is none of the user's; one on an object a parameter holds is
    kept in `handed`, for the calls of the function to say whose it is."""
    if tree is None:
        return True
    for function in walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module):
            continue
        sources: dict[str, list[ast.AST]] | None = None
        for node in _own_statements(function):
            for target, value in _assigned(node):
                if not (
                    isinstance(target, ast.Attribute)
                    and target.attr == field
                    and isinstance(target.value, ast.Name)
                    and target.value.id not in _WRITERS
                ):
                    continue
                if isinstance(function, ast.Module):
                    return True  # at a module's top: no function's locals to follow
                if sources is None:
                    sources = _locals(function)
                holder = target.value.id
                if _carried_on(value, holder, field, sources) or _built(holder, sources):
                    continue
                given = _parameter(function, holder)
                if given is None or holder in sources:
                    return True
                handed.append(given)
    return False


@dataclass(frozen=True)
class _Handed:
    """A function's parameter whose object the function writes a field on: `name` of the
    function, the parameter's place in a call (counted without `self`/`cls` for a method)
    and its keyword."""

    function: str
    index: int
    keyword: str


def _parameter(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> _Handed | None:
    arguments = [*function.args.posonlyargs, *function.args.args]
    names = [a.arg for a in arguments]
    if name not in names:
        if any(a.arg == name for a in function.args.kwonlyargs):
            return _Handed(function.name, -1, name)
        return None
    index = names.index(name)
    if names and names[0] in _WRITERS:
        index -= 1  # a method, called through its object
    return _Handed(function.name, index, name)


def _built(name: str, sources: dict[str, list[ast.AST]]) -> bool:
    """Whether the function binds `name` only to objects it builds by calling a class
    (`sampling_params = SamplingParams(...)`): a copy of its own, not the user's."""
    values = sources.get(name, [])
    return bool(values) and all(_constructed(v) for v in values)


def _constructed(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return last[:1].isupper() and not last.isupper()


def _fresh_everywhere(
    revision: str, file_text: Callable[[str], str | None], paths: Sequence[str], handed: _Handed
) -> bool:
    """Whether the version calls `handed.function` at least once and every call hands, for
    the parameter, an object the calling function builds itself (`_built`); a file that
    does not parse, or a call not read, answers no."""
    return _FRESH.kept((revision, handed), lambda: _fresh(file_text, paths, handed))


def _fresh(file_text: Callable[[str], str | None], paths: Sequence[str], handed: _Handed) -> bool:
    call = re.compile(rf"(?<![\w])(?<!def ){re.escape(handed.function)}\(")
    seen = 0
    for path in paths:
        text = file_text(path) if path.endswith(".py") else None
        if text is None or handed.function not in text or not call.search(text):
            continue
        tree = parse_module(text)
        if tree is None:
            return False
        calls = _calls_in(tree, handed.function)
        seen += len(calls)
        if not all(_hands_built(function, node, handed) for function, node in calls):
            return False
    return seen > 0


def _calls_in(tree: ast.AST, name: str) -> list[tuple[ast.AST, ast.Call]]:
    """Each call of `name` (`name(...)`, `x.name(...)`) with the function (or module)
    whose own statements hold it."""
    found: list[tuple[ast.AST, ast.Call]] = []
    for scope in walk(tree):
        if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module):
            continue
        for node in _own_statements(scope):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called == name:
                    found.append((scope, node))
    return found


def _hands_built(scope: ast.AST, node: ast.Call, handed: _Handed) -> bool:
    given = next((k.value for k in node.keywords if k.arg == handed.keyword), None)
    if given is None and 0 <= handed.index < len(node.args):
        given = node.args[handed.index]
    if given is None or isinstance(given, ast.Starred):
        return False
    if _constructed(given):
        return True
    if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    if not isinstance(given, ast.Name) or _parameter(scope, given.id) is not None:
        return False
    return _built(given.id, _locals(scope))


def _own_statements(scope: ast.AST) -> list[ast.AST]:
    """The nodes of a function (or a module's top) not inside a function it defines."""
    found: list[ast.AST] = []
    pending = list(ast.iter_child_nodes(scope))
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        found.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return found


def _locals(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[ast.AST]]:
    """Each plain name the function assigns → the values it assigns it."""
    found: dict[str, list[ast.AST]] = {}
    for node in _own_statements(function):
        for target, value in _assigned(node):
            if isinstance(target, ast.Name) and value is not None:
                found.setdefault(target.id, []).append(value)
    return found


def _assigned(node: ast.AST) -> list[tuple[ast.expr, ast.expr | None]]:
    """The (target, value) pairs a statement assigns (None: an augmented assignment's, a
    change of what is there)."""
    if isinstance(node, ast.Assign):
        return [(t, node.value) for t in node.targets]
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        return [(node.target, node.value)]
    if isinstance(node, ast.AugAssign):
        return [(node.target, None)]
    return []


def _carried_on(
    value: ast.expr | None, holder: str, field: str, sources: dict[str, list[ast.AST]]
) -> bool:
    """Whether `value` is made only of `<holder>.<field>`, the object's own value, through
    locals the function assigns (`ids = holder.field; ids = ids[:n]`)."""
    if value is None:
        return False
    seen: set[str] = set()
    pending: list[ast.AST] = [value]
    reads_own = False
    for _ in range(_MAX_HOPS * 8):
        if not pending:
            break
        node = pending.pop()
        if (
            isinstance(node, ast.Attribute)
            and node.attr == field
            and isinstance(node.value, ast.Name)
            and node.value.id == holder
        ):
            reads_own = True
            continue
        if isinstance(node, ast.Name) and node.id in sources and node.id not in seen:
            seen.add(node.id)
            values = sources[node.id]
            if len(seen) > _MAX_HOPS:
                return False
            pending.extend(values)
            continue
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and (node.value.id == holder or node.value.id in sources)
        ):
            return False  # another field of the object, or of what a local holds
        pending.extend(ast.iter_child_nodes(node))
    return reads_own and not pending
