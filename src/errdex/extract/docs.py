"""What a module's authors wrote beside a name: its attribute docstring or comment block.

A setting or a constant is often explained where it is declared, not where it is tested:
the string right after a dataclass field (`enforce_eager: bool = False`, then the string
"Whether to always use eager-mode PyTorch..."), the comment block above a dictionary entry that
reads an environment variable, the docstring after a module constant. A page quotes them as
the code's own words on why the check is there; each is kept short, its first paragraph.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence

from errdex.lazy_re import lazy_compile

MAX_DOC = 300
# A field documented where its default comes from: `DOC_OF` + `Class.attr` in place of a
# docstring (an arguments dataclass whose field defaults to a config class's field).
DOC_OF = "=doc-of:"
# A comment line that draws a rule (`# =====`) or a section's heading between rules
# (`# ==== Runtime ====`): no words on the name below it.
_RULE = lazy_compile(r"^(?:[\W_]*|[=\-*#~_]{3,}.*[=\-*#~_]{3,})$")


def doc_text(text: str) -> str | None:
    """The first paragraph of a docstring or comment, on one line, at most `MAX_DOC`."""
    first = text.strip().split("\n\n")[0]
    words = " ".join(first.split())
    return words[:MAX_DOC] or None


def comment_above(lines: Sequence[str], line: int) -> str | None:
    """The block of `#` lines right above `line` (1-based), without rules and blank ones."""
    block: list[str] = []
    at = line - 2
    while at >= 0:
        stripped = lines[at].strip()
        if not stripped.startswith("#"):
            break
        words = stripped.lstrip("#").strip()
        if words and not _RULE.match(words):
            block.insert(0, words)
        elif block:
            break  # a rule or an empty `#` line closes the block that explains this line
        at -= 1
    return doc_text(" ".join(block)) if block else None


def attribute_docs(
    body: Sequence[ast.stmt], lines: Sequence[str], names: Iterable[str] | None = None
) -> dict[str, str]:
    """Name → its docstring (the string statement right after its assignment), else the
    comment block above it; among `names` when given."""
    wanted = set(names) if names is not None else None
    out: dict[str, str] = {}
    for index, stmt in enumerate(body):
        target = assigned_name(stmt)
        if target is None or (wanted is not None and target not in wanted):
            continue
        under = docstring_under(body, index)
        doc = doc_text(under[0]) if under is not None else None
        doc = doc or comment_above(lines, stmt.lineno)
        if doc:
            out[target] = doc
    return out


def docstring_under(body: Sequence[ast.stmt], index: int) -> tuple[str, int] | None:
    """(text, line) of the string statement right after `body[index]` (an attribute's
    docstring), or None."""
    following = body[index + 1] if index + 1 < len(body) else None
    if (
        isinstance(following, ast.Expr)
        and isinstance(following.value, ast.Constant)
        and isinstance(following.value.value, str)
    ):
        return following.value.value, following.lineno
    return None


def assigned_name(stmt: ast.stmt) -> str | None:
    """The name a statement of a body assigns (`x: int = 0`, `x = 0`), else None."""
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return stmt.target.id
    if (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
    ):
        return stmt.targets[0].id
    return None
