"""`errdex lookup`'s start-up: what it imports before it answers. A first answer from an
empty database is meant to come in a tenth of the package's full index, and a small
package indexes in a few seconds: the modules only other paths use (the extraction
pool's processes, a default folder's lookup, a test pattern's regex engine, wheel tags)
stay out, and a lookup into what is indexed does not load the extractor and the linker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from samples import among

# Modules of paths a lookup does not take; each is imported where that path begins.
_NEVER = (
    "concurrent.futures",  # the extraction pool and the store's compression threads
    "multiprocessing",
    "platformdirs",  # the default database and cache folders: ERRDEX_DB names them
    "regex",  # only a test's `match=` pattern with regex syntax
    "packaging.tags",  # wheel tags: a distribution's name is compared without them
    "rich",  # `--json` draws nothing
    "errdex.web",
    "errdex.explain",  # `--json` renders no page
    # the path's records are msgspec Structs: a dataclass compiles its methods at import
    "dataclasses",
)
# What only indexing needs: a lookup into an indexed package loads none of it.
_INDEXING = (
    "errdex.extract",
    "errdex.link",
    "errdex.indexing.pipeline",
    "errdex.indexing.parallel",
)

# A bare message into pygments (installed wherever errdex is), never indexed, as `lookup
# --json --project pygments` answers it: the files holding its text are extracted and linked
# in this process before the answer. Prints the modules loaded when the answer is given.
_FIRST_ANSWER = (
    "import json, sys\n"
    "import errdex\n"
    "seen = []\n"
    "answer = errdex.answer(\"ClassNotFound: no lexer for alias 'no-such-language' found\",\n"
    "                       project='pygments', pages=False,\n"
    "                       answered=lambda _: seen.append(list(sys.modules)))\n"
    "assert answer.partial, 'answered from the whole package'\n"
    "print(json.dumps(seen[0]))\n"
)


def loaded(code: str, tmp_path: Path) -> list[str]:
    """The modules a fresh interpreter holds after `code` prints them (as a JSON list)."""
    env = {**os.environ, "ERRDEX_DB": str(tmp_path / "e.db"), "ERRDEX_CACHE": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_lookup_command_loads_no_indexing_machinery(tmp_path: Path) -> None:
    modules = loaded("import json, sys, errdex.cli.lookup; print(json.dumps(list(sys.modules)))",
                     tmp_path)  # fmt: skip
    assert "errdex.answers" in modules
    assert among(modules, _NEVER + _INDEXING) == []


def test_a_first_answer_from_an_empty_database_loads_only_what_it_uses(tmp_path: Path) -> None:
    modules = loaded(_FIRST_ANSWER, tmp_path)
    assert "errdex.indexing.pipeline" in modules  # it did index, from this paste's files
    assert "errdex.link" in modules  # and link
    assert among(modules, _NEVER) == []


def test_the_modules_a_first_answer_imports_compile_no_pattern_at_import(tmp_path: Path) -> None:
    # A lazy pattern read at import (`_TOKEN.groupindex` once was: 5 ms) compiles in every
    # lookup, whether its path runs or not.
    code = (
        "import json, errdex.lazy_re as lazy\n"
        "forced = []\n"
        "first_use = lazy._LazyPattern.__getattr__\n"
        "def noted(self, name):\n"
        "    forced.append(repr(self))\n"
        "    return first_use(self, name)\n"
        "lazy._LazyPattern.__getattr__ = noted\n"
        "import errdex.cli.lookup, errdex.match.partial, errdex.indexing.pipeline\n"
        "import errdex.indexing.installed, errdex.sources.installed\n"
        "print(json.dumps(forced))\n"
    )
    assert loaded(code, tmp_path) == []
