"""Ways out through the user's own input: the values a `Literal` type or an enum declares,
the optional keywords that narrow a lookup, and a validator's check of the value itself.
No page calls such a check the program's own state, "worth reporting to the project"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "shop/__init__.py": """
        from shop.session import Session, pause
        from shop.cookies import Cookies
        from shop.cards import CardNumber, parse_network, Regime, pick_regime
        """,
    "shop/modes.py": """
        from typing import Literal

        PauseMode = Literal["abort", "wait", "keep"]


        def check_timeout(timeout):
            # the index keeps the files that hold an error: this one is read through it
            if timeout is not None and timeout < 0:
                raise ValueError("timeout must not be negative")
        """,
    "shop/session.py": """
        from typing import Literal, get_args

        from shop.modes import PauseMode

        JoinMode = Literal[
            "conditional_savepoint",
            "rollback_only",
            "control_fully",
        ]


        class ArgumentError(Exception):
            pass


        class Session:
            def __init__(self, bind=None, join_mode: JoinMode = "conditional_savepoint"):
                if join_mode and join_mode not in JoinMode.__args__:
                    raise ArgumentError(f"invalid selection for join_mode: {join_mode}")
                self.join_mode = join_mode


        def pause(mode: PauseMode = "abort", timeout=None):
            if mode not in get_args(PauseMode):
                raise ValueError(f"Invalid pause mode: {mode}")
            return mode
        """,
    "shop/cookies.py": """
        class CookieConflict(Exception):
            pass


        class Cookies:
            def __init__(self):
                self.jar = []

            def get(self, name, default=None, domain=None, path=None):
                value = None
                for cookie in self.jar:
                    if cookie.name == name:
                        if domain is None or cookie.domain == domain:
                            if path is None or cookie.path == path:
                                if value is not None:
                                    raise CookieConflict(f"Multiple cookies exist with name={name}")
                                value = cookie.value
                return default if value is None else value

            def pick(self, name, domain="example.org"):
                found = None
                for cookie in self.jar:
                    if domain is None or cookie.domain == domain:
                        if found is not None:
                            raise CookieConflict(f"Two cookies under {domain}")
                        found = cookie
                return found
        """,
    "shop/cards.py": """
        import enum
        import ipaddress

        from shop.state import current_platform


        class CardError(ValueError):
            pass


        class Regime(enum.Enum):
            FP = 0
            INT8 = 1
            INT4 = 2


        class CardNumber(str):
            @classmethod
            def validate_check_digit(cls, card_number):
                total = int(card_number[-1])
                for digit in card_number[:-1]:
                    total += int(digit)
                valid = total % 10 == 0
                if not valid:
                    raise CardError("Card number is not valid")
                return card_number

            @classmethod
            def validate_on_platform(cls, card_number):
                usable = current_platform.accepts(card_number)
                if not usable:
                    raise CardError("Card number is not accepted here")
                return card_number


        def parse_network(value):
            try:
                return ipaddress.ip_network(value)
            except ValueError:
                raise CardError("value is not a valid network") from None


        def pick_regime(name):
            if name not in Regime.__members__:
                raise CardError(f"unknown regime {name}")
            return Regime[name]


        class Ledger:
            def __init__(self):
                self._entries = {}

            def discard(self, key):
                entry = self._entries[key]
                assert entry.pins != -1
                del self._entries[key]


        def compare(first, limit):
            count = len(first) + current_platform.extra()
            if count > limit and current_platform.strict:
                raise CardError("too many on this platform")
            return count


        def quantize(data, method="quest"):
            if method == "quest":
                return 1
            elif method == "abs_max":
                return 2
            else:
                raise CardError(f"invalid method {method!r}")


        def rounding(data, mode=None):
            if mode == "up":
                return 1
            elif mode == "down":
                return 2
            elif mode is not None:
                raise CardError(f"invalid rounding {mode!r}")
            return 0


        def check_port(args):
            if not 0 <= args.port <= 65535:
                raise CardError("port out of range")


        def check_spec(args):
            if any(getattr(args, name, None) is not None for name in ("spec", "draft")):
                raise CardError("speculative decoding is not supported here")


        def observe(stats):
            kind = stats.get("kind")
            if kind is None:
                raise AssertionError(f"unknown stats {stats}")
        """,
    "shop/state.py": """
        class _Platform:
            strict = True

            def accepts(self, number):
                return True

            def extra(self):
                return 1


        current_platform = _Platform()
        """,
    "shop/receipt.py": """
        class Receipt:
            def __init__(self, plain):
                self.plain = plain

            def __getitem__(self, key):
                if isinstance(key, int):
                    return self.plain[key]
                start, stop, step = key.indices(len(self.plain))
                if step == 1:
                    return Receipt(self.plain[start:stop])
                raise TypeError("slices with step!=1 are not supported")

            def __delitem__(self, key):
                start, stop, step = key.indices(len(self.plain))
                if step > 0:
                    raise TypeError("only reversed slices are deleted")
        """,
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("shop"), "shop", FILES)


def test_a_literal_alias_of_the_module_names_the_values_to_pass(shop: Store) -> None:
    page = page_in_function(shop, "shop", "Session.__init__")
    first = page.solutions[0]
    assert first.text == (
        "Pass the argument `join_mode` of `Session` as one of `'conditional_savepoint'`, "
        "`'rollback_only'`, `'control_fully'`, or leave it out (it is "
        "`'conditional_savepoint'` by default)."
    )
    assert first.fix is not None
    assert first.fix.after.splitlines()[-1] == "Session(join_mode='conditional_savepoint')"
    assert "worth reporting" not in page.what_it_means


def test_a_literal_imported_from_another_module_through_get_args(shop: Store) -> None:
    page = page_in_function(shop, "shop", "pause")
    assert page.solutions[0].text == (
        "Pass the argument `mode` of `pause` as one of `'abort'`, `'wait'`, `'keep'`, "
        "or leave it out (it is `'abort'` by default)."
    )


def test_an_enum_checked_by_its_member_names(shop: Store) -> None:
    page = page_in_function(shop, "shop", "pick_regime")
    assert page.solutions[0].text == (
        "Pass the argument `name` of `pick_regime` as one of `'FP'`, `'INT8'`, `'INT4'`."
    )


def test_optional_keywords_that_narrow_a_lookup_are_the_way_out(shop: Store) -> None:
    page = page_in_function(shop, "shop", "Cookies.get")
    first = page.solutions[0]
    assert first.text == (
        "Pass `domain` or `path` to `Cookies.get` so that only one `cookie` matches: left "
        "out (None), they let every `cookie` through the filter at lines 14, 15, and this "
        "is raised on the second match."
    )
    assert first.fix is not None
    assert first.fix.before.splitlines()[-1] == "cookies.get(name=NAME)"
    assert first.fix.after.splitlines()[-1] == "cookies.get(name=NAME, domain=DOMAIN)"


def test_a_filter_on_a_keyword_with_a_value_by_default_is_no_narrowing(shop: Store) -> None:
    page = page_in_function(shop, "shop", "Cookies.pick")
    assert not any("so that only one" in s.text for s in page.solutions)


def test_a_check_of_what_the_function_computes_from_its_argument(shop: Store) -> None:
    page = page_in_function(shop, "shop", "CardNumber.validate_check_digit")
    assert page.solutions[0].text == (
        "Give `CardNumber.validate_check_digit` another `card_number`: the check at line 25 "
        "(`valid` is false) reads only `card_number` and what the function computes from "
        "it (`valid`) (“Card number is not valid”). The check is of the value given, not of "
        "the program's state."
    )
    assert "worth reporting" not in page.what_it_means


def test_a_value_a_module_call_rejects_under_except(shop: Store) -> None:
    page = page_in_function(shop, "shop", "parse_network")
    assert page.solutions[0].text == (
        "Give `parse_network` another `value`: the value given makes "
        "`ipaddress.ip_network(value)` fail, and this error is raised in its place "
        "(“value is not a valid network”). The check is of the value given, not of the "
        "program's state."
    )


def test_what_the_machine_decides_is_not_called_the_users_data(shop: Store) -> None:
    page = page_in_function(shop, "shop", "CardNumber.validate_on_platform")
    assert not any("the value given" in s.text for s in page.solutions)
    page = page_in_function(shop, "shop", "compare")
    assert not any("the value given" in s.text for s in page.solutions)


def test_a_check_reading_an_argument_and_state_is_not_worth_reporting(shop: Store) -> None:
    page = page_in_function(shop, "shop", "compare")
    assert "worth reporting" not in page.what_it_means
    assert "the conditions read the argument `limit` of `compare`, the value" in page.what_it_means


def test_an_assert_reaching_an_argument_through_state_is_not_called_a_bug(shop: Store) -> None:
    page = page_in_function(shop, "shop", "Ledger.discard")
    # no evidence that only the program's own state decides it: not sent to the project
    assert "worth reporting" not in page.what_it_means
    assert "the traceback's frames above this one show which call led here" in page.what_it_means
    assert not page.solutions


def test_an_if_elif_chain_of_literals_names_every_value_it_takes(shop: Store) -> None:
    page = page_in_function(shop, "shop", "quantize")
    assert page.solutions[0].text == (
        "Pass the argument `method` of `quantize` as one of `'quest'`, `'abs_max'`, or "
        "leave it out (it is `'quest'` by default)."
    )


def test_a_chain_of_literals_ending_in_not_none_names_its_values_before_none(
    shop: Store,
) -> None:
    # `elif mode is not None: raise`: None avoids it, and so does each value the chain takes,
    # which keeps the user's choice
    page = page_in_function(shop, "shop", "rounding")
    assert page.solutions[0].text == (
        "Pass the argument `mode` of `rounding` as one of `'up'`, `'down'`, or leave it out "
        "(it is None by default)."
    )


def test_an_objects_attribute_or_a_broken_invariant_is_not_the_value_given(shop: Store) -> None:
    # a namespace's field is a setting's (another rule's); an AssertionError is raised for
    # what the program got wrong, whatever reached it
    for function in ("check_port", "check_spec", "observe"):
        page = page_in_function(shop, "shop", function)
        assert not any("the value given" in s.text for s in page.solutions)


def test_a_slice_step_the_subscript_refuses_is_a_plain_slice(shop: Store) -> None:
    page = page_in_function(shop, "shop", "Receipt.__getitem__")
    first = page.solutions[0]
    assert first.text.startswith(
        "Index your `Receipt` with a slice of step 1, without a third part "
        "(`receipt[start:stop]`): `Receipt.__getitem__` takes the step from "
        "`key.indices(len(self.plain))`"
    )
    assert first.fix is not None and first.fix.after == "receipt[START:STOP]"
    # a step of 1 meets the check too: no plain slice offered
    page = page_in_function(shop, "shop", "Receipt.__delitem__")
    assert not any("slice of step 1" in s.text for s in page.solutions)
