"""A first answer's subset parses of a module imported for a few names only those names'
definitions and what they use: the rest cut to stubs, every line where it was."""

from __future__ import annotations

from pathlib import Path

from errdex.extract import extract_file
from errdex.indexing import index_source
from errdex.match.needed_text import Need, only_needed
from errdex.match.partial import SubsetSource
from errdex.sources import open_source
from errdex.sources.base import SourceFile
from errdex.store import open_store

MODULE = (
    b"import os\n"
    b"LIMIT = 10\n"
    b"class BaseError(Exception):\n"
    b"    pass\n"
    b"class QuotaError(BaseError):\n"
    b"    def __str__(self):\n"
    b"        return 'over the quota'\n"
    b"def check(n):\n"
    b"    if n > LIMIT:\n"
    b"        _fail(n)\n"
    b"def _fail(n):\n"
    b"    raise QuotaError(n)\n"
    b"def unrelated(path):\n"
    b'    """Reads a file.\n'
    b"def not_code(): this line is the docstring's, at column 0\n"
    b'    """\n'
    b"    if not os.path.exists(path):\n"
    b"        raise FileNotFoundError(f'no file at {path}')\n"
    b"class Model:\n"
    b"    def load(self):\n"
    b"        raise ValueError('cannot load the model')\n"
)


def _lines(data: bytes) -> list[str]:
    return data.decode().split("\n")


def test_a_module_imported_for_one_name_keeps_that_definition_and_what_it_uses() -> None:
    cut = only_needed(MODULE, Need(frozenset({"check"})))
    lines = _lines(cut)
    assert len(lines) == len(_lines(MODULE))  # every line where it was
    assert lines[7:12] == _lines(MODULE)[7:12]  # check, and the helper it calls, whole
    assert lines[4] == "class QuotaError(BaseError):"  # the exception the helper raises
    assert lines[12] == "def unrelated(*a, **k): ..."  # what no needed name uses: a stub
    assert lines[13:18] == ["", "", "", "", ""]
    facts = extract_file("pkg/quota.py", cut)
    assert [(s.line, s.exception) for s in facts.sites] == [(12, "QuotaError")]


def test_a_class_that_is_no_exception_is_cut_though_a_needed_name_uses_it() -> None:
    module = MODULE + b"def build():\n    return Model()\n"
    lines = _lines(only_needed(module, Need(frozenset({"build"}))))
    assert lines[18] == "class Model: ..."  # a model's methods: linking does not read them
    assert lines[21:23] == ["def build():", "    return Model()"]


def test_the_definition_holding_a_line_is_kept_whole() -> None:
    cut = only_needed(MODULE, Need(frozenset(), frozenset({21})))
    facts = extract_file("pkg/quota.py", cut)
    assert [s.line for s in facts.sites] == [21]  # Model.load's raise, and nothing else


def test_a_file_needed_for_nothing_cut_keeps_its_bytes() -> None:
    assert only_needed(b"X = 1\n", Need(frozenset({"X"}))) == b"X = 1\n"
    latin = "# -*- coding: latin-1 -*-\ndef f():\n    return 'caf\xe9'\n".encode("latin-1")
    assert only_needed(latin, Need(frozenset())) == latin  # not UTF-8: read as it says


def test_a_cut_that_would_not_parse_leaves_the_file_as_it_is() -> None:
    # A list whose items sit at column 0 ends no definition for Python, but looks as if it
    # did to a reader of lines: the cut would leave its tail at module level.
    module = b"def table():\n    return [\n1, 2,\n    ]\nGOOD = 1\n"
    assert only_needed(module, Need(frozenset({"GOOD"}))) == module


def test_a_large_class_whose_method_raised_keeps_that_method_and_what_it_calls() -> None:
    module = (
        b"class Compiler:\n"  # 1
        b"    def __init__(self, dialect):\n"
        b"        self.dialect = dialect\n"
        b"    @property\n"
        b"    def name(self):\n"  # 5
        b"        return self.dialect\n"
        b"    def visit_insert(self, stmt):\n"
        b"        if not self._multirow():\n"
        b"            raise ValueError(f'{self.name} cannot insert many rows')\n"
        b"    def _multirow(self):\n"  # 10
        b"        return False\n"
        b"    def visit_select(\n"
        b"        self, stmt,\n"
        b"    ):\n"
        b"        raise ValueError('no select')\n"  # 15
    )
    cut = only_needed(module, Need(frozenset(), frozenset({9})))
    lines = _lines(cut)
    assert lines[:11] == _lines(module)[:11]  # the raise, its helper, __init__, the property
    assert lines[11:15] == ["    def visit_select(*a, **k): ...", "", "", ""]
    facts = extract_file("pkg/compiler.py", cut)
    assert [s.line for s in facts.sites] == [9]


def test_a_method_is_followed_through_self_calls_not_its_message_or_other_objects() -> None:
    module = (
        b"class Session:\n"  # 1
        b"    def __init__(self, bind):\n"
        b"        self.bind = bind\n"
        b"        self._connect()\n"
        b"    def _connect(self):\n"  # 5
        b"        raise OSError('cannot connect')\n"
        b"    def _merge(self, obj, load):\n"
        b"        if not load and obj.dirty:\n"
        b"            raise ValueError('merge() does not take dirty objects; flush() them first')\n"
        b"        obj.owner.refresh(obj)\n"  # 10
        b"        return self._check(obj)\n"
        b"    def _check(self, obj):\n"
        b"        return self._fail(f'{self.describe(obj)} is stale')\n"
        b"    def _fail(self, text):\n"
        b"        raise ValueError(text)\n"  # 15
        b"    def describe(self, obj):\n"
        b"        return repr(obj)\n"
        b"    def flush(self):\n"
        b"        raise OSError('cannot flush')\n"
        b"    def refresh(self, obj):\n"  # 20
        b"        raise OSError('cannot refresh')\n"
    )
    lines = _lines(only_needed(module, Need(frozenset(), frozenset({9}))))
    # The method that raised, what it calls on `self` in turn (f-string fields included);
    # `__init__` kept for the attributes it sets, what it calls not.
    assert lines[:4] == _lines(module)[:4]
    assert lines[4] == "    def _connect(*a, **k): ..."
    assert lines[6:17] == _lines(module)[6:17]
    # Named only in the message (`flush()`) or called on another object (`owner.refresh`).
    assert lines[17] == "    def flush(*a, **k): ..."
    assert lines[19] == "    def refresh(*a, **k): ..."


def test_a_file_extracted_cut_is_stored_as_written(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "quota.py").write_bytes(MODULE)
    source = open_source(str(tmp_path), project="pkg", version="1.0")
    cut = only_needed(MODULE, Need(frozenset({"check"})))
    assert cut != MODULE
    subset = SubsetSource(source, [SourceFile("pkg/quota.py", cut)], 1, {"pkg/quota.py": MODULE})
    with open_store(tmp_path / "errdex.db", create=True) as store:
        report = index_source(subset, store, partial=True, workers=1)
        # The sites of the definitions kept; a page quoting the file reads it as written.
        assert report.sites == 1
        assert store.file_text(("pkg", "1.0"), "pkg/quota.py") == MODULE.decode()


def test_a_closing_quote_at_column_0_ends_no_definition() -> None:
    # A template at column 0 inside a function (the shape of a code generator's source):
    # neither its `def` line nor its closing quote is a top-level statement.
    module = (
        b"class BaseError(Exception):\n"
        b"    pass\n"
        b"def generate(metadata):\n"
        b'    code = """\\\n'
        b"%(prefix)sdef %(name)s(%(args)s):\n"
        b"    return %(target)s(%(args)s)\n"
        b'""" % metadata\n'
        b"    if not code:\n"
        b"        raise BaseError('no code')\n"
        b"    return code\n"
        b"def check(n):\n"
        b"    raise BaseError(n)\n"
    )
    cut = only_needed(module, Need(frozenset({"check"})))
    assert cut != module  # cut, not given up on as text that would not parse
    lines = _lines(cut)
    assert lines[2] == "def generate(*a, **k): ..."
    assert lines[3:10] == [""] * 7
    assert lines[10:12] == _lines(module)[10:12]
