"""What a site's function says around it, read at extraction for its page: the comments by
the check, the docstring, the parameters, which branches fail, what a `try` did."""

from __future__ import annotations

import ast
import textwrap

import pytest

import errdex.extract.reading as reading_module
from errdex.extract import extract_file
from errdex.extract.block_flow import _def_words
from errdex.extract.skeleton import build_skeleton
from errdex.reading_facts import SourceRead, TryRead
from samples import QUIET_FUNCTIONS


def reading(source: str, marker: str) -> SourceRead:
    """The reading kept for the line holding `marker`."""
    text = textwrap.dedent(source)
    line = next(n for n, s in enumerate(text.splitlines(), 1) if marker in s)
    facts = extract_file("pkg/mod.py", text.encode())
    return facts.readings[line]


def test_comments_docstring_params_and_failing_branches() -> None:
    read = reading(
        '''
        LIMIT = 10

        def check(size, *, strict=False):
            """Check the size. Twice."""
            # sizes above the limit
            # overflow the buffer
            if size > LIMIT:  # the hard limit
                raise ValueError("too big")
            if strict:
                log("strict")
            else:
                raise ValueError("not strict")
        ''',
        '"too big"',
    )
    assert read.params == ("size", "strict")
    assert read.docstring == "Check the size. Twice."
    near = read.comments_near([8, 9])
    assert near == ["sizes above the limit overflow the buffer the hard limit"]
    # the `if` the raise is under: its other branch goes on, so it is a way out
    assert read.other_branch_fails(8, holds=True) is False
    # only the lines of the site's own conditions are kept
    assert set(read.other_side) == {8}


def test_a_guard_whose_other_branch_raises_too() -> None:
    read = reading(
        """
        def pick(kind):
            if kind == "a":
                raise KeyError("no a")
            else:
                raise KeyError("no b")
        """,
        '"no b"',
    )
    assert read.other_branch_fails(3, holds=False) is True


def test_what_the_try_of_an_except_did_and_where_the_site_sits() -> None:
    read = reading(
        """
        def load():
            try:
                import yaml
                yaml.safe_load(open("x"))
            except ImportError:
                raise RuntimeError("install pyyaml")
        """,
        '"install pyyaml"',
    )
    assert read.tries == {
        6: TryRead(
            imports=("yaml",),
            calls=("yaml.safe_load(open('x'))", "open('x')"),
            line=4,
            callees=("safe_load", "open"),
        )
    }
    assert read.placement == "in the clause `except ImportError` (line 6)"


def test_a_function_the_try_defines_runs_none_of_its_calls() -> None:
    read = reading(
        """
        def setup(config):
            try:
                def reduce(obj):
                    return pickle.dumps(obj)
                register(Config, reduce)
            except ImportError:
                raise RuntimeError("no pickling")
        """,
        '"no pickling"',
    )
    assert read.tries[7].calls == ("register(Config, reduce)",)


def test_the_else_of_a_loop() -> None:
    read = reading(
        """
        def find(items):
            for item in items:
                if item:
                    break
            else:
                raise LookupError("none")
        """,
        '"none"',
    )
    assert read.placement == (
        "in the `else` of the loop `for item in items` (line 3): "
        "it runs when the loop ends without a `break`"
    )


def test_init_params_from_a_constructor_the_skeleton_blanks() -> None:
    source = QUIET_FUNCTIONS + textwrap.dedent(
        """
        class Runner:
            def __init__(self, mode, size):
                self.mode = mode or "fast"
                self.size = int(size)
                self.other = 3

            def run(self):
                if self.mode == "slow":
                    raise ValueError("slow mode")
        """
    )
    skeleton = build_skeleton(source)
    assert skeleton is not None and "self.mode = mode" not in skeleton.text
    read = reading(source, '"slow mode"')
    # only the attributes the site's conditions name are kept
    assert read.init_params == {"mode": "mode"}


def test_defaults_of_the_inputs_a_condition_reads() -> None:
    read = reading(
        """
        def send(data, *, proxy=None, retries=3, timeout=None):
            if timeout is None:
                timeout = 5
            if proxy is not None and retries and timeout:
                raise ValueError("proxy")
        """,
        '"proxy"',
    )
    # `timeout` is rebound before the check: its default is not what it holds there
    assert read.defaults == {"proxy": "None", "retries": "3"}


def test_defaults_of_attributes_the_constructor_sets_as_given() -> None:
    read = reading(
        """
        class Base:
            def __init__(self, limit=20, gather=True, name=None):
                self.limit = limit
                self.gather = gather
                self.name = name or "x"

        class Forward(Base):
            def __init__(self, limit=10, gather=True, name=None):
                super().__init__(limit=limit, gather=gather, name=name)

            def run(self):
                assert self.limit > 4 or not self.gather or self.name, "no"
        """,
        '"no"',
    )
    # the subclass's own defaults are what a call leaving them out gives; `name or "x"`
    # is not the parameter as it is
    assert read.defaults == {"self.limit": "10", "self.gather": "True"}


def test_attributes_the_constructor_copies_from_another_object() -> None:
    read = reading(
        """
        class Strategy:
            def __init__(self, model_config, cache_config):
                self.max_model_len = model_config.max_model_len
                self.block = cache_config.block_size
                if cache_config.small:
                    self.block = 1
                self.dtype = cache_config.dtype if cache_config else "auto"

            def reset(self):
                self.seen = 0

            def read(self, ids):
                if len(ids) > self.max_model_len or self.block or self.dtype:
                    raise ValueError("too long")

        class Other:
            def __init__(self, config):
                self.max_model_len = 5
        """,
        '"too long"',
    )
    # `block` is assigned twice in its class: not the value as it is; `dtype` is the field
    # behind a default for its object's absence, what the field's setting gives whenever
    # there is one; another class assigning the same name says nothing of this one
    assert read.init_values == {
        "max_model_len": "model_config.max_model_len",
        "dtype": "cache_config.dtype",
    }


def test_an_attribute_given_as_a_keyword_is_still_copied_once() -> None:
    read = reading(
        """
        class Strategy:
            def __init__(self, model_config):
                self.max_model_len = model_config.max_model_len
                self.runner = Runner(max_len=self.max_model_len, strict=True)

            def read(self, ids):
                if len(ids) > self.max_model_len:
                    raise ValueError("too long")
        """,
        '"too long"',
    )
    # `max_len=self.max_model_len, strict=True` passes it: no second assignment
    assert read.init_values == {"max_model_len": "model_config.max_model_len"}


def test_attributes_the_constructor_copies_keep_its_order() -> None:
    # The index of a release must be the same from one run to the next: the attributes a
    # condition reads are a set, whose order changes with each run's string hashing.
    read = reading(
        """
        class Worker:
            def __init__(self, config):
                self.zeta = config.parallel.zeta
                self.alpha = config.cache.alpha
                self.mid = config.model.mid
                self.omega = config.load.omega
                self.kappa = config.model.kappa

            def run(self):
                if self.mid and self.alpha and self.zeta and self.kappa and self.omega:
                    raise ValueError("not supported")
        """,
        '"not supported"',
    )
    assert list(read.init_values) == ["zeta", "alpha", "mid", "omega", "kappa"]


def test_def_and_class_words_are_found_where_no_word_goes_on() -> None:
    text = "default = 1\ndef f(): pass\nclass_ = 2\nclass A: pass\nundef(x)\nclass"
    # `default` and `class_` go on as words; `undef(` ends with `def` all the same
    assert _def_words(text) == [12, 37, 53, 60]


def test_a_form_feed_ends_no_line_of_the_comments() -> None:
    # The parser ends lines at `\n` only: a form feed (a page break in older sources) inside
    # a line must not shift the comments after it by a line.
    text = (
        "\f\n"
        "def check(size):\n"
        "    x = 1\f\n"
        "    # sizes above the limit overflow the buffer\n"
        "    if size > 10:\n"
        "        raise ValueError('too big')\n"
    )
    facts = extract_file("pkg/mod.py", text.encode())
    read = facts.readings[6]
    assert read.comments == {4: "sizes above the limit overflow the buffer"}
    assert read.comments_near([5]) == ["sizes above the limit overflow the buffer"]


_NESTED = """
import os

if os.environ.get("FAST"):

    class Config:
        def __init__(self, size):
            self.size = size
            if self.size > 4:
                raise ValueError("too big")  # under `if`: the class holds it all the same

else:

    class Config:
        def __init__(self, size):
            self.size = size


class Plain:
    def __init__(self, size):
        self.size = size

    def check(self):
        if self.size > 4:
            raise ValueError("plain too big")  # a method of a top-level class

    def outer(self):
        def inner(x):
            try:
                class Local:
                    def go(self):
                        raise KeyError(x)
            except KeyError:
                raise
            raise TypeError(x)

        return inner
"""


def test_the_walker_hands_each_line_the_holders_the_chain_finds() -> None:
    """`Walker.holders` (what the readings take) says what `Enclosing.chain` of the line
    says, for every statement: a class under an `if` or `try` whose method holds the line
    holds it in both."""
    import ast

    from errdex.extract.block_flow import Enclosing
    from errdex.extract.module import collect_constants
    from errdex.extract.walker import Walker

    text = textwrap.dedent(_NESTED)
    tree = ast.parse(text)
    walker = Walker(text, collect_constants(tree, text))
    walker.run(tree)
    enclosing = Enclosing(tree, text)
    lines = {n.lineno for n in ast.walk(tree) if isinstance(n, ast.stmt)}
    assert lines == set(walker.holders)
    for line in lines:
        chain = enclosing.chain(line)
        func = next((n for n in reversed(chain) if isinstance(n, ast.FunctionDef)), None)
        cls = next((n for n in reversed(chain) if isinstance(n, ast.ClassDef)), None)
        assert walker.holders[line] == (func, cls), line
    assert reading(_NESTED, '"too big"').init_params == {"size": "size"}
    assert reading(_NESTED, '"plain too big"').init_params == {"size": "size"}
    # the class of `KeyError(x)`'s line is `Local` (in a `try`), not `Plain` around it
    line = next(n for n, s in enumerate(text.splitlines(), 1) if "KeyError(x)" in s)
    assert walker.holders[line][1].name == "Local"  # type: ignore[union-attr]


_UNDER_BLOCKS = """
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    LIMIT = 1
else:

    class Checked:
        def __init__(self, mode):
            self.mode = mode
            if self.mode not in ("a", "b"):
                raise ValueError("bad mode")  # a class under `else:`

try:
    import fast
except ImportError:
    fast = None
else:

    class Fast:
        def __init__(self, width, *, strict=False):
            self.width = width
            self.strict = strict

        def check(self):
            if self.strict and self.width > 8:
                raise ValueError("too wide")  # a method of a class under `try`'s `else:`

with open(__file__) as handle:

    class Held:
        def __init__(self, size):
            self.size = size

        def check(self):
            if self.size < 0:
                raise ValueError("negative")  # a class under `with`
"""


def test_a_class_under_a_module_level_block_holds_its_methods_sites() -> None:
    """A class under `if TYPE_CHECKING:`/`else:`, `try`/`else:` or `with` at the top of a
    module is the class of its methods' sites: their `self.attr` reads the constructor."""
    assert reading(_UNDER_BLOCKS, '"bad mode"').init_params == {"mode": "mode"}
    read = reading(_UNDER_BLOCKS, '"too wide"')
    assert read.init_params == {"width": "width", "strict": "strict"}
    assert read.init_required == ("width",)
    assert reading(_UNDER_BLOCKS, '"negative"').init_params == {"size": "size"}


def test_a_constructor_is_walked_for_held_dicts_only_when_a_kept_value_reads_a_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `_held_dicts` walks the whole constructor: worked out when a value kept once may be
    # one key of a dict a local holds, not for a call, a literal or arithmetic.
    walked: list[str] = []
    held_dicts = reading_module._held_dicts

    def counted(init: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, str]:
        walked.append(init.name)
        return held_dicts(init)

    monkeypatch.setattr(reading_module, "_held_dicts", counted)
    plain = reading(
        """
        class Loader:
            def __init__(self, config):
                self.size = compute(config)
                self.limit = config.limit * 2

            def load(self):
                if self.size > self.limit:
                    raise ValueError("too big")
        """,
        '"too big"',
    )
    assert plain.init_values == {}
    assert walked == []
    keyed = reading(
        """
        class Loader:
            def __init__(self, load_config):
                extra = copy(load_config.extra_config or {})
                self.fallback = extra.pop("fallback", True)

            def load(self):
                if not self.fallback:
                    raise ValueError("no fallback")
        """,
        '"no fallback"',
    )
    assert keyed.init_values == {"fallback": "load_config.extra_config.pop('fallback', True)"}
    assert walked == ["__init__"]


def test_a_key_of_a_dict_a_local_holds_through_another_local_is_the_whole_chain() -> None:
    """`extra = transfer_config.extra_config`, `transfer_config` a local bound above to
    `vllm_config.transfer_config`: a kept key of `extra` is one of the whole chain; not
    where the first local is bound twice."""
    read = reading(
        """
        class Scheduler:
            def __init__(self, vllm_config, spec):
                transfer_config = vllm_config.transfer_config
                assert transfer_config is not None
                extra = transfer_config.extra_config
                self.max_objects = extra.get("max_objects", 64)
                other = spec.extra_config
                if spec.reset:
                    other = {}
                sized = other.extra
                self.size = sized.get("size", 1)

            def check(self):
                if self.max_objects <= 0 or self.size <= 0:
                    raise ValueError("not positive")
        """,
        '"not positive"',
    )
    assert read.init_values == {
        "max_objects": "vllm_config.transfer_config.extra_config.get('max_objects', 64)"
    }
