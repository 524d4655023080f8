"""A message that states what the user's value or subclass must be ("a str or object with
a __render__ method is required", "{entity!r} must be a module", "Plugins should implement
`make`") is the way out, said of what the user controls: an argument of a public call,
each item of one, or a method of their own subclass; never of what the program computes
itself, nor in a private or deep function."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import checks, indexed_package, offered, page_in_function

from errdex.explain.stated_requirement import GOT_TAIL, requirements
from errdex.store import Store

FILES = {
    "shapes/__init__.py": """
        from shapes.board import (
            Arg, Board, Chunking, Param, Parser, Trace, PluginProtocol, connect, dataset,
            label, map_name, ask, share
        )
        from shapes.scoring import Scoring, Trimmed
        """,
    "shapes/board.py": """
        import warnings
        from dataclasses import dataclass
        from typing import Protocol


        def is_drawable(value):
            return isinstance(value, str) or hasattr(value, "__draw__")


        class Board:
            def __init__(self):
                self._count = 0

            def draw(self, item, width=1):
                if width > 0:
                    if not is_drawable(item):
                        raise TypeError(
                            f"Unable to draw {item!r}; a str or object with __draw__ method is "
                            "required"
                        )
                return item

            def add_row(self, *cells):
                padded = list(cells)
                for index, cell in enumerate(padded):
                    if cell is not None and not is_drawable(cell):
                        raise TypeError(
                            f"can't draw {type(cell).__name__}; a string or drawable is required"
                        )

            def grow(self):
                if self._count < 0:
                    raise ValueError("count must be positive")
                self._count += 1


        class Trace:
            def __init__(self, suppress=()):
                self.paths = []
                for entity in suppress:
                    if not isinstance(entity, str):
                        assert entity.__file__, f"{entity!r} must be a module with '__file__'"
                        self.paths.append(entity.__file__)


        class PluginProtocol(Protocol):
            def make(self, schema):
                \"\"\"Called for each schema.\"\"\"
                raise NotImplementedError("Plugins should implement `make`.")


        @dataclass
        class Chunking:
            chunk_size: int

            def __post_init__(self):
                self.verify()

            def verify(self):
                if type(self.chunk_size) is not int or not 0 < self.chunk_size < 2**63:
                    raise ValueError(f"chunk_size must be a positive int, got {self.chunk_size}")


        class Parser:
            def __init__(self, tokenizer):
                self.vocab = load_vocab()
                if "<a>" not in self.vocab:
                    raise ValueError("Tokenizer must contain '<a>' token")


        def connect(engine):
            if not hasattr(engine, "dispatch"):
                raise TypeError(f"Engine or Connection expected, got {engine!r}")
            return engine


        def dump(source=None, source_file=None):
            if source is None and source_file is None:
                raise TypeError("source or source_file is required")


        def _draw(item):
            if not is_drawable(item):
                raise TypeError(f"Unable to draw {item!r}; a str is required")


        class Param:
            def __init__(self, default=None, multiple=False):
                check = default if not callable(default) else None
                if check is not None:
                    if multiple:
                        try:
                            check = next(iter(check), None)
                        except TypeError:
                            raise ValueError(
                                "'default' must be a list when 'multiple' is true."
                            ) from None
                self.default = default


        def label(text):
            if is_drawable(text) and not text.strip():
                raise ValueError("The label text cannot be empty")
            return text


        def map_name(name, mapper):
            mapped = mapper(name)
            if mapped is None:
                raise ValueError("Mapped name cannot be None")
            return mapped


        def ask(name=None, prompt=False):
            if prompt is True:
                if name is None:
                    raise TypeError("'name' is required with 'prompt=True'.")
            return name


        def share(func=None, reuse=False):
            if reuse is True:
                warnings.warn("`reuse` is deprecated and will be ignored", DeprecationWarning)
            return func


        def dataset(cls=None, validate=None):
            assert validate is not False, "validate=False is no longer supported"
            return cls


        class Arg:
            def __init__(self, default=None, nargs=1):
                if nargs > 1 and len(default) != nargs:
                    subject = "length"
                    raise ValueError(f"'default' {subject} must match nargs={nargs}.")
                self.default = default
        """,
    "shapes/scoring.py": """
        from dataclasses import dataclass


        @dataclass
        class Scoring:
            token_ids: list | None = None

            def __post_init__(self):
                self.count = 0

            def verify(self):
                self._check_ids()

            def _check_ids(self):
                if self.token_ids is not None:
                    n = len(self.token_ids)
                    if n > 16:
                        raise ValueError(
                            f"Requested token_ids of length {n}, which is greater than "
                            "max allowed: 16"
                        )


        @dataclass
        class Trimmed:
            token_ids: list | None = None

            def __post_init__(self):
                self.count = 0

            def verify(self):
                self.token_ids = (self.token_ids or []) * 2
                self._check()

            def _check(self):
                if len(self.token_ids) > 16:
                    raise ValueError("Requested token_ids longer than max allowed: 16")
        """,
    "shapes/jobs.py": """
        from dataclasses import dataclass


        @dataclass
        class Job:
            prompt_ids: list | None = None

            def __post_init__(self):
                self.count = 0

            def verify(self):
                self._check_ids()

            def _check_ids(self):
                if len(self.prompt_ids) > 16:
                    raise ValueError(
                        f"Requested prompt_ids of length {len(self.prompt_ids)}, which is "
                        "greater than max allowed: 16"
                    )


        @dataclass
        class Replay:
            trace_ids: list | None = None

            def __post_init__(self):
                self.count = 0

            def verify(self):
                self._check_trace()

            def _check_trace(self):
                if self.trace_ids is not None and len(self.trace_ids) == 0:
                    raise ValueError("trace_ids must be a non-empty list.")
        """,
    "shapes/engine.py": """
        def tokenize(prompt):
            return [ord(c) for c in prompt]


        def submit(job, prompt):
            if not prompt:
                raise ValueError("an empty prompt")
            job.prompt_ids = tokenize(prompt)
            job.verify()
            return job


        def replay(params, room):
            ids = params.trace_ids
            ids = ids[: max(room, 1)]
            params.trace_ids = ids
            params.verify()
            return params
        """,
    "shapes/ranking.py": """
        from dataclasses import dataclass


        @dataclass
        class Ranking:
            ranked_ids: list | None = None

            def __post_init__(self):
                self.count = 0

            def verify(self):
                self._check_ranked()

            def _check_ranked(self):
                if self.ranked_ids is not None:
                    n = len(self.ranked_ids)
                    if n > 16:
                        raise ValueError(
                            f"Requested ranked_ids of length {n}, which is greater than "
                            "max allowed: 16"
                        )


        @dataclass
        class Voting:
            voted_ids: list | None = None

            def __post_init__(self):
                self.count = 0

            def verify(self):
                self._check_voted()

            def _check_voted(self):
                if self.voted_ids is not None and len(self.voted_ids) > 16:
                    raise ValueError(
                        f"Requested voted_ids of length {len(self.voted_ids)}, which is "
                        "greater than max allowed: 16"
                    )


        @dataclass
        class Search:
            allowed: list | None = None

            def configure(self, params):
                params.ranked_ids = self.allowed

            def vote(self, params):
                params.voted_ids = self.allowed


        def search(search_params, prompt):
            params = Ranking()
            search_params.configure(params)
            params.verify()
            return prompt


        def vote(search_params, params):
            search_params.vote(params)
            params.verify()
        """,
    "shapes/_scan.py": """
        class _ClassScan:
            def scan(self, cls):
                args = cls.__dict__.get("__table_args__")
                if not isinstance(args, (tuple, dict, type(None))):
                    raise TypeError("__table_args__ value must be a tuple, dict, or None")
                return args


        class _ModuleScan:
            def scan(self, module):
                names = getattr(module, "__all__", [])
                if not isinstance(names, list):
                    raise TypeError("__all__ must be a list of str")
                return names

            def sizes(self, size):
                if not isinstance(size, tuple):
                    raise TypeError("__sizes__ value must be a tuple")
                return size
        """,
    "shapes/ops/__init__.py": "",
    "shapes/ops/kernels/__init__.py": "",
    "shapes/ops/kernels/impl.py": """
        def run(q):
            if not hasattr(q, "shape"):
                raise TypeError(f"a tensor is required, got {q!r}")
            return q
        """,
}


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("shapes"), "shapes", FILES)


def _first(store: Store, function: str) -> str:
    page = page_in_function(store, "shapes", function)
    assert page.solutions, page.what_it_means
    return page.solutions[0].text


def test_a_required_value_of_a_public_argument_is_what_to_pass(shapes: Store) -> None:
    assert _first(shapes, "Board.draw").startswith(
        "Pass a str or object with __draw__ method as the argument `item` of `Board.draw`, "
        "as the message says: “Unable to draw"
    )


def test_an_expected_value_names_the_argument_it_got(shapes: Store) -> None:
    assert _first(shapes, "connect").startswith(
        "Pass Engine or Connection as the argument `engine` of `connect`, as the message says"
    )


def test_a_field_the_class_takes_as_a_keyword_is_the_argument_of_its_call(shapes: Store) -> None:
    # `self.chunk_size` in a dataclass's check: the keyword the call gave, without the
    # value it got
    assert _first(shapes, "Chunking.verify") == (
        "Make the argument `chunk_size` of `Chunking` a positive int, as the message "
        "says: “chunk_size must be a positive int, got CHUNK_SIZE”"
    )


def test_each_item_of_an_argument_the_function_walks(shapes: Store) -> None:
    assert _first(shapes, "Board.add_row").startswith(
        "Pass a string or drawable as each of the arguments `*cells` of `Board.add_row`"
    )
    # an `assert` of a class users make tests their argument as a raise does
    assert _first(shapes, "Trace.__init__").startswith(
        "Make each item of the argument `suppress` of `Trace` a module with '__file__', "
        "as the message says"
    )


def test_the_case_a_requirement_holds_in_names_no_more_arguments(shapes: Store) -> None:
    # "when 'multiple' is true" is the case, not an argument asked for; what the message
    # asks keeps `multiple`, and comes before dropping it
    page = page_in_function(shapes, "shapes", "Param.__init__")
    texts = [s.text for s in page.solutions]
    assert texts[0] == (
        "Make the argument `default` of `Param` a list when 'multiple' is true, as the "
        "message says: “'default' must be a list when 'multiple' is true.”"
    )
    assert any("`multiple`" in t for t in texts[1:]), texts


def test_what_an_argument_must_match_is_said_of_it(shapes: Store) -> None:
    # click 8.1.7 core.py (Parameter.__init__): the subject quotes the argument by name
    assert _first(shapes, "Arg.__init__").startswith(
        "Make the argument `default` of `Arg` match nargs=NARGS, as the message says: "
        "“'default' length must match nargs=NARGS.”"
    )


def test_a_method_the_message_says_to_implement_is_defined_in_the_users_class(
    shapes: Store,
) -> None:
    assert _first(shapes, "PluginProtocol.make") == (
        "Define `make` in your own class that subclasses `PluginProtocol` (`shapes`), as "
        "the message says: “Plugins should implement `make`.”"
    )


@pytest.mark.parametrize(
    "function",
    [
        "Board.grow",  # the object's own count: no argument of the user's
        "Parser.__init__",  # names an argument, but the check reads other state
        "dump",  # it asks for arguments, not what a value must be
        "_draw",  # a private function: no call a user writes
        "run",  # deep in the package: its internals
        "map_name",  # "name cannot be None" of what the mapper made of it, not the name
    ],
)
def test_no_requirement_solution_for_what_the_user_does_not_pass(
    shapes: Store, function: str
) -> None:
    page = page_in_function(shapes, "shapes", function)
    assert not any("as the message says" in s.text for s in page.solutions), page.solutions
    # what the page offers instead, its check read
    assert offered(page) == _INSTEAD.get(function, []) and checks(page), page.solutions


# the way out a page above offers where the message's requirement is not said
_INSTEAD = {"dump": ["Give the argument `source` of `dump` a value (it is None here)."]}


@pytest.mark.parametrize(
    ("sentence", "subject", "verb", "wants"),
    [
        ("Port must be an integer or None", "Port", "be", "an integer or None"),
        ("iter_full() must yield names", None, None, None),  # no verb of what it is
        ("{x!r} must be a module", "{x!r}", "be", "a module"),
        ("Unsupported type, must be either A or B", None, "be", "either A or B"),
        ("x; a str or Segment is required", None, "required", "a str or Segment"),
        ("Expected mapped class, got {arg!r}", None, "expected", "mapped class"),
        ("validators should be used with fields", None, None, None),  # a use, not a value
        # what it cannot be, as what it must be: a bound turned round
        ("The {kind} prompt cannot be empty", "The {kind} prompt", "be", "not empty"),
        ("limit cannot be greater than 10", "limit", "be", "at most 10"),
        ("size must not be less than {low}", "size", "be", "at least {low}"),
        ("x cannot be used with y", None, None, None),  # a use
        ("a cannot be both x and y", None, None, None),  # a pair of arguments
        # past a limit the message gives as a number
        (
            "Requested ids of length {n}, which is greater than max allowed: 16",
            "Requested ids of length {n}",
            "be",
            "at most 16 long",
        ),
        (
            "Identifier '{name}' exceeds maximum length of 30 characters",
            "Identifier '{name}'",
            "be",
            "at most 30 characters long",
        ),
        ("fps {fps} exceeds maximum allowed {cls.LIMIT}", None, None, None),  # a setting's
        (
            "'default' {subject} must match nargs={nargs}.",
            "'default' {subject}",
            "match",
            "nargs={nargs}",
        ),
    ],
)
def test_requirement_clauses(
    sentence: str, subject: str | None, verb: str | None, wants: str | None
) -> None:
    found = requirements(sentence)
    if verb is None:
        assert found == []
        return
    (stated,) = found
    assert (stated.subject, stated.verb, stated.wants) == (subject, verb, wants)


def test_a_class_attribute_in_dunder_form_is_said_of_the_users_class(shapes: Store) -> None:
    # a private scan of the user's declarative class: its attribute, not an argument
    assert _first(shapes, "_ClassScan.scan") == (
        "Make `__table_args__` value a tuple, dict, or None in the body of your class, as the "
        "message says: “__table_args__ value must be a tuple, dict, or None”"
    )


@pytest.mark.parametrize("function", ["_ModuleScan.scan", "_ModuleScan.sizes"])
def test_no_class_body_for_a_module_name_or_one_the_check_does_not_read(
    shapes: Store, function: str
) -> None:
    # a module's `__all__` is no class body; a name the check reads nowhere, nor
    page = page_in_function(shapes, "shapes", function)
    assert not any("body of your class" in s.text for s in page.solutions), page.solutions
    assert offered(page) == [] and checks(page), page.solutions


@pytest.mark.parametrize(
    ("wants", "asked"),
    [
        ("of the same size as `names`: got {a} and {b}", "of the same size as `names`"),
        ("an int, got {x!r}", "an int"),
        ("a list; found {n}", "a list"),
        ("positive (got 3)", "positive"),
    ],
)
def test_what_the_value_was_is_no_part_of_what_is_asked(wants: str, asked: str) -> None:
    # ": got {a} and {b}" as ", got {x}": no colon left behind ("as `names`:, as the message")
    assert GOT_TAIL.sub("", wants) == asked


def test_a_field_a_later_check_reads_as_given_is_the_keyword_of_the_records_call(
    shapes: Store,
) -> None:
    # vllm 0.33.0 sampling_params.py:943: `verify()` (run by the engine, not at
    # construction) checks `n = len(self.logprob_token_ids)` against a limit of 128; no code
    # of the class writes the field, so it is the keyword the user gave
    assert _first(shapes, "Scoring._check_ids") == (
        "Keep the argument `token_ids` of `Scoring` at most 16 long, as the message says: "
        "“Requested token_ids of length VALUE, which is greater than max allowed: 16”"
    )
    # a field the class writes itself before the check is no longer what was given
    page = page_in_function(shapes, "shapes", "Trimmed._check")
    assert not any("as the message says" in s.text for s in page.solutions), page.solutions
    assert offered(page) == []
    assert "raises `ValueError` when all of these hold: the length of `self.token_ids` is" in (
        page.what_it_means
    )


def test_a_field_code_outside_the_record_writes_on_it_is_no_keyword_as_given(
    shapes: Store,
) -> None:
    # the engine fills `job.prompt_ids` from the prompt before it runs `job.verify()`: the
    # check sees the engine's value, not a keyword of the user's `Job(...)`
    page = page_in_function(shapes, "shapes", "Job._check_ids")
    # not offered: "Keep the argument `prompt_ids` of `Job` at most 16 long, as the message
    # says"
    assert not any("argument `prompt_ids` of `Job`" in s.text for s in page.solutions), [
        s.text for s in page.solutions
    ]
    assert offered(page) == []
    assert "raises `ValueError` when all of these hold: the length of `self.prompt_ids` is" in (
        page.what_it_means
    )
    # a cut of the object's own value of the field (`ids = params.trace_ids; params.trace_ids
    # = ids[:n]`) carries on what the user gave: the keyword stays
    assert _first(shapes, "Replay._check_trace").startswith(
        "Make the argument `trace_ids` of `Replay` a non-empty list, as the message says"
    )


def test_a_field_written_only_on_copies_the_package_builds_stays_the_keyword(
    shapes: Store,
) -> None:
    # vllm 0.33.0 sampling_params.py:943: beam search writes `logprob_token_ids` on the
    # `SamplingParams` it builds itself (`configure_logprobs`, whose every caller hands it a
    # `SamplingParams(...)` of its own): the user's object is never written, the keyword stays
    assert _first(shapes, "Ranking._check_ranked") == (
        "Keep the argument `ranked_ids` of `Ranking` at most 16 long, as the message says: "
        "“Requested ranked_ids of length VALUE, which is greater than max allowed: 16”"
    )
    # a caller handing on an object it was given (the user's, maybe) still counts
    page = page_in_function(shapes, "shapes", "Voting._check_voted")
    assert offered(page) == [], offered(page)
    assert "raises `ValueError` when all of these hold" in page.what_it_means


def test_a_keyword_value_no_longer_supported_is_left_out(shapes: Store) -> None:
    # pydantic 2.7.1 dataclasses.py:142: `assert validate_on_init is not False`, the
    # keyword's default None: leaving it out passes, and the fix leaves it out
    page = page_in_function(shapes, "shapes", "dataset")
    assert page.solutions[0].text == (
        "Pass the argument `validate` of `dataset` other than `False`, or leave it out "
        "(it is `None` by default)."
    )
    fix = page.example_fix
    assert fix is not None
    assert fix.before.endswith("dataset(validate=False)"), fix.before
    assert fix.after.endswith("dataset()"), fix.after


def test_what_a_value_cannot_be_is_said_of_the_argument_the_check_measures(
    shapes: Store,
) -> None:
    # as "The {prompt_type} prompt cannot be empty" (vllm 0.33.0 input_processor.py:566),
    # where the public call's own argument is what the check reads
    page = page_in_function(shapes, "shapes", "label")
    assert any(
        s.text.startswith("Make the argument `text` of `label` not empty, as the message says")
        for s in page.solutions
    ), page.solutions


def test_a_switch_is_given_up_only_where_the_message_refuses_it(shapes: Store) -> None:
    # pydantic 2.7.1 deprecated/class_validators.py:127: a keyword the message calls
    # deprecated and ignored is left out, with no call drawn as if that were all of it
    page = page_in_function(shapes, "shapes", "share")
    assert page.solutions[0].text == (
        "Pass the argument `reuse` of `share` other than `True`, or leave it out "
        "(it is `False` by default)."
    )
    assert page.example_fix is None
    # click 8.1.7 core.py:2540: the message wants a name with the prompt, not the prompt
    # given up
    page = page_in_function(shapes, "shapes", "ask")
    assert not any(s.text.startswith("Pass the argument `prompt`") for s in page.solutions)
    assert offered(page) == [
        "Give the argument `name` of `ask` a value (it is None here).",
        "Give `name` too when you give `prompt=True`, or leave `prompt=True` out, as the "
        "message says",
    ]
