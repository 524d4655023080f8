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
        return any(_file_writes(file_text(path), field) for path in files.get(field, ()))

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


def _file_writes(text: str | None, field: str) -> bool:
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
            return _writes(parse_module(text), field)
        if block.lineno not in seen:
            seen.add(block.lineno)
            if _writes(block, field):
                return True
    return False


def _writes(tree: ast.AST | None, field: str) -> bool:
    """Whether a statement of the module sets `<name>.<field>` on a name other than
    `self`/`cls` to a value other than that name's own `<field>` (a file that does not
    parse: as if it did)."""
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
                if not _carried_on(value, target.value.id, field, sources):
                    return True
    return False


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
