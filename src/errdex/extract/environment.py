"""What a file says about the environment it runs in: optional imports and platform tests.

- An **optional import**: a module-level `try: import pkg` whose `except ImportError` binds
  a name to `None` or `False` (`pkg = None`, `HAS_PKG = False`, `Wrapper = None`). A
  condition that finds the name `None` (or false) means the package is not installed.
- A **platform test**: a function whose whole body is `return <test>` where the test asks
  the machine (`torch.cuda.is_available()`, `current_platform.is_rocm()`,
  `get_device_capability()[0] >= 10`, `sys.platform`). A condition calling it asks which
  platform the program runs on. Found by a scan of the text: the skeleton the extractor
  parses has blanked most function bodies.
"""

from __future__ import annotations

import ast
import re

from errdex.extract.textscan import (
    after_word_boundary,
    line_heads,
    matches_from,
    occurrences,
    offsets_of,
    starting,
)
from errdex.lazy_re import lazy_compile

_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})
_MAX_TESTS = 200
# A platform query, as calls and names write it.
PLATFORM_WORDS = lazy_compile(
    r"\b(?:is_(?:cuda|rocm|cpu|tpu|xpu|hpu|neuron|cuda_alike|mps)\(\)|"
    r"(?:has|is)_device_capability(?:_family)?\(|get_device_capability\(|"
    r"cuda\.is_available\(\)|mps\.is_available\(\)|sys\.platform\b|os\.name\b|"
    r"platform\.system\(\))"
)


# The gate tried before `PLATFORM_WORDS`, which starts with `\b` and so is tried at every
# character: each alternative of the pattern holds one of these words (`is_`, `capability`,
# `platform`, `os.name`); an alternative added there needs its word here. Written out: `any`
# over a tuple of the words costs as much as the pattern.
def _may_name_platform(line: str) -> bool:
    """Whether `line` may hold a platform query."""
    return "is_" in line or "capability" in line or "platform" in line or "os.name" in line


# `def name(params) -> T:` on one line (a method's `self` and defaults included).
_ONE_LINE_DEF = lazy_compile(r"([ \t]*)(?:async[ \t]+)?def[ \t]+(\w+)[ \t]*\([^()]*\)[^:]*:[ \t]*$")


def optional_imports(tree: ast.Module) -> dict[str, str]:
    """Module-level name → the modules a `try` imports (joined by ", "), for each name
    its `except ImportError` binds to `None` or `False`."""
    out: dict[str, str] = {}
    for stmt in _module_tries(tree.body):
        modules = [m for m in _imported(stmt.body) if m]
        if not modules:
            continue
        for handler in stmt.handlers:
            if not _catches_import_error(handler.type):
                continue
            for name in _bound_to_nothing(handler.body):
                out.setdefault(name, ", ".join(dict.fromkeys(modules)))
    return out


def platform_tests(text: str) -> dict[str, str]:
    """Function name → the platform test it returns, for functions whose body is one
    `return` of a platform query (module-level functions and methods alike, by name).

    Read from the lines around each platform word: the word's line must be the `return`
    and the line before it (blank and comment lines aside) the one-line `def`."""
    out: dict[str, str] = {}
    # Each line that starts with `return ` (from the file's one `str.find` pass for
    # `return`, which the skeleton and `value_accessors` share), then the platform words
    # in it: a regex search of every file is far slower, and so are a pass for each of
    # their fixed parts.
    returns = starting(text, "return ", offsets_of(text, "return"))
    for at in line_heads(text, "return ", returns):
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        line = text[start : end if end != -1 else len(text)]
        body = line[at - start :]
        if not _may_name_platform(body) or PLATFORM_WORDS.search(body) is None:
            continue
        head = _line_before(text, start)
        found = _ONE_LINE_DEF.match(head) if head is not None else None
        if found is None or len(found.group(1)) >= len(line) - len(body):
            continue
        returned = body[len("return ") :].split("  #")[0].strip()
        try:
            ast.parse(returned, mode="eval")
        except (SyntaxError, ValueError, RecursionError):
            continue  # a return continued on the next lines
        out.setdefault(found.group(2), returned)
        if len(out) >= _MAX_TESTS:
            break
    return out


def _line_before(text: str, start: int) -> str | None:
    """The line before the one at `start`, skipping blank and comment lines."""
    while start > 0:
        previous = text.rfind("\n", 0, start - 1) + 1
        line = text[previous : start - 1]
        if line.strip() and not line.lstrip().startswith("#"):
            return line
        start = previous
    return None


def _module_tries(body: list[ast.stmt]) -> list[ast.Try]:
    """The `try` statements at module level, also under a module-level `if`."""
    out: list[ast.Try] = []
    for stmt in body:
        if isinstance(stmt, ast.Try):
            out.append(stmt)
        elif isinstance(stmt, ast.If):
            out.extend(_module_tries(stmt.body))
            out.extend(_module_tries(stmt.orelse))
    return out


def _imported(body: list[ast.stmt]) -> list[str]:
    modules: list[str] = []
    for stmt in body:
        if isinstance(stmt, ast.Import):
            modules.extend(a.name for a in stmt.names)
        elif isinstance(stmt, ast.ImportFrom) and not stmt.level and stmt.module:
            modules.append(stmt.module)
    return modules


def _catches_import_error(node: ast.expr | None) -> bool:
    if node is None:
        return True
    caught = node.elts if isinstance(node, ast.Tuple) else [node]
    names = {c.attr if isinstance(c, ast.Attribute) else getattr(c, "id", "") for c in caught}
    return bool(names & _IMPORT_ERRORS)


def _bound_to_nothing(body: list[ast.stmt]) -> list[str]:
    """Names a handler binds to `None` or `False` (`a = b = None` too)."""
    names: list[str] = []
    for stmt in body:
        if not isinstance(stmt, ast.Assign | ast.AnnAssign) or stmt.value is None:
            continue
        value = stmt.value
        if not (isinstance(value, ast.Constant) and (value.value is None or value.value is False)):
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        names.extend(t.id for t in targets if isinstance(t, ast.Name))
    return names


_NAME = r"[A-Za-z_]\w*(?:\.\w+)*"
# `return name.chain` (or `return a and b`, names joined by `and`) as a whole line (a
# trailing comment aside): tried at each `return ` (`matches_from`), so that only the
# returns of names are read in Python
_RETURNED_NAME = lazy_compile(
    rf"return [ \t]*({_NAME}(?:[ \t]+and[ \t]+{_NAME})*)[ \t]*(?:#[^\n]*)?$", re.MULTILINE
)
# Parameters of a function that takes nothing but its object: `()`, `(self)`, `(cls)`.
_NO_ARGUMENTS = lazy_compile(r"def[ \t]+\w+[ \t]*\([ \t]*(?:self|cls)?[ \t]*\)")
_MAX_ACCESSORS = 400
# what follows a name its line assigns a dotted name: ` = envs.VLLM_X`, `: bool = envs.X`
_ASSIGNED_NAME = lazy_compile(r"[ \t]*(?::[^=\n]*)?=[ \t]*([A-Za-z_]\w*(?:\.\w+)+)[ \t]*(?:#.*)?$")


def value_accessors(text: str) -> dict[str, str]:
    """Function name → the name its body returns, for functions that take no argument
    but their object and whose whole body is `return <name>` (a docstring aside):
    `def is_shuffle_kv_cache_enabled(cls): return cls._SHUFFLE_KV_CACHE_ENABLED`. An
    attribute of the object or a module-level name is replaced by what this file first
    assigns it as a plain name (`_SHUFFLE_KV_CACHE_ENABLED = envs.VLLM_ROCM_SHUFFLE_...`),
    so the linker can follow a call of the function to the setting it hands back. A body
    returning names joined by `and` gives them joined so (`envs.A and envs.B`)."""
    out: dict[str, str] = {}
    # the pattern starts with `return `: tried at its occurrences, found for the file once
    returns = starting(text, "return ", offsets_of(text, "return"))
    for found in matches_from(_RETURNED_NAME, text, returns):
        at = found.start()
        start = text.rfind("\n", 0, at) + 1
        if text[start:at].strip():
            continue  # not the first thing on its line
        head = _line_before(text, _past_docstring(text, start))
        defined = _ONE_LINE_DEF.match(head) if head is not None else None
        if defined is None or len(defined.group(1)) >= at - start:
            continue
        if _NO_ARGUMENTS.search(defined.group(0)) is None:
            continue
        parts = [_first_value(text, part) for part in re.split(r"[ \t]+and[ \t]+", found[1])]
        returned = " and ".join(p for p in parts if p is not None)
        if None not in parts:
            out.setdefault(defined.group(2), returned)
            if len(out) >= _MAX_ACCESSORS:
                break
    return out


def _past_docstring(text: str, start: int) -> int:
    """The start of the line above `start` when that line is a one-line docstring: the
    `def` is above it."""
    previous = text.rfind("\n", 0, max(0, start - 1)) + 1
    line = text[previous : max(previous, start - 1)].strip()
    for quote in ('"""', "'''"):
        if len(line) >= 6 and line.startswith(quote) and line.endswith(quote):
            return previous
    return start


def _first_value(text: str, returned: str) -> str | None:
    """What `returned` holds as the file writes it: the name itself when it is a dotted
    name of another object, or the name first assigned to it (an attribute of the
    object, `cls._X` / `self._X`, or a module-level `_X`); None when it is assigned no
    plain name."""
    root, _, rest = returned.partition(".")
    if root not in ("self", "cls"):
        attr = returned if "." not in returned else None
        if attr is None:
            return returned  # `envs.VLLM_X`, `other.attr`: the linker resolves it
    else:
        if not rest.isidentifier():
            return None
        attr = rest
    # `str.find` of the name, then its line: a multi-line regex per name is far slower
    for at in occurrences(text, attr):
        start = text.rfind("\n", 0, at) + 1
        if text[start:at].strip() not in ("", "self.", "cls.") or not after_word_boundary(text, at):
            continue
        end = text.find("\n", at)
        assigned = _ASSIGNED_NAME.match(text, at + len(attr), end if end != -1 else len(text))
        if assigned is not None:
            return assigned.group(1)
    return None
