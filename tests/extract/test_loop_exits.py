"""A site after a `for` loop that returns from its function: reached only when the loop
ran out, which the path says (`extract/loop_exits.py`)."""

from __future__ import annotations

from extract_samples import only_site

from errdex.facts import ConditionKind


def path_of(source: str) -> list[tuple[str, str]]:
    return [(str(c.kind), c.statement) for c in only_site(source).conditions]


def test_a_choice_loop_returning_on_a_match() -> None:
    # the shape of sqlalchemy.util.langhelpers.parse_user_argument_for_enum
    assert path_of(
        """
        def parse(arg, choices, name, resolve=False):
            for enum_value, choice in choices.items():
                if arg is enum_value:
                    return enum_value
                elif resolve and arg == enum_value.name:
                    return enum_value
                elif arg in choice:
                    return enum_value
            if arg is None:
                return None
            raise ArgumentError(f"Invalid value for '{name}': {arg!r}")
        """
    ) == [
        (
            "no_match",
            "not any(arg is enum_value or (resolve and arg == enum_value.name) or arg in choice"
            " for enum_value, choice in choices.items())",
        ),
        ("early_exit", "arg is not None"),
    ]


def test_the_condition_keeps_the_loop_header_and_line() -> None:
    site = only_site(
        """
        CHOICES = ("a", "b")

        def pick(value):
            for choice in CHOICES:
                if value == choice:
                    return choice
            raise ValueError(f"unknown {value}")
        """
    )
    (condition,) = site.conditions
    assert condition.kind is ConditionKind.NO_MATCH
    assert (condition.test, condition.line, condition.holds) == ("for choice in CHOICES", 5, False)
    assert condition.text == "not any(value == choice for choice in CHOICES)"


def test_a_loop_whose_body_does_more_than_test_says_only_that_it_ran_out() -> None:
    # a retry loop: what made it return is no test of the item
    assert path_of(
        """
        def fetch(url, retries):
            for attempt in range(retries):
                try:
                    return get(url)
                except OSError:
                    sleep(attempt)
            raise RuntimeError("gave up")
        """
    ) == [("no_match", "for attempt in range(retries)")]


def test_a_loop_that_may_break_gives_no_test() -> None:
    assert path_of(
        """
        def f(items, value):
            for item in items:
                if item is None:
                    break
                if item == value:
                    return item
            raise KeyError(value)
        """
    ) == [("no_match", "for item in items")]


def test_loops_that_do_not_return_or_have_an_else_add_nothing() -> None:
    assert (
        path_of(
            """
        def f(items, value):
            for item in items:
                if item == value:
                    found = item
            for item in items:
                def g():
                    return item
            for item in items:
                if item == value:
                    return item
            else:
                pass
            raise KeyError(value)
        """
        )
        == []
    )


def test_a_tuple_iterable_is_parenthesized_in_the_generator() -> None:
    assert path_of(
        """
        def f(value):
            for kind in int, str:
                if isinstance(value, kind):
                    return kind
            raise TypeError(value)
        """
    ) == [("no_match", "not any(isinstance(value, kind) for kind in (int, str))")]


def test_a_site_inside_the_loop_is_not_after_it() -> None:
    assert path_of(
        """
        def f(items, value):
            for item in items:
                if item == value:
                    return item
                raise KeyError(value)
        """
    ) == [("loop", "for item in items"), ("early_exit", "item != value")]


def test_a_branch_that_does_not_return_gives_no_test() -> None:
    assert path_of(
        """
        def f(items, value):
            for item in items:
                if item is None:
                    fail(item)
                elif item == value:
                    return item
            raise KeyError(value)
        """
    ) == [("no_match", "for item in items")]


def test_a_return_in_a_handler_or_case_of_the_body_counts() -> None:
    assert path_of(
        """
        def f(items, value):
            for item in items:
                try:
                    use(item)
                except KeyError:
                    return None
            for item in items:
                match item:
                    case 1:
                        return item
            raise KeyError(value)
        """
    ) == [("no_match", "for item in items"), ("no_match", "for item in items")]
