"""Which raises have a text a user of the class may set (`self.message or "default"`), read
from the raise's argument as extracted."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.settable import settable_key, settable_text

SOURCE = """
class Field:
    def check(self, value):
        if value is None:
            raise ValueError(self.invalid_value_message or self.gettext("Not a valid value."))
        if value == "":
            raise ValueError(message=self.messages["empty"] or "Empty.")
        if value == 0:
            raise ValueError("" or "Zero.")
        if value == 1:
            raise ValueError(describe(value) or "One.")
        raise ValueError("Not a valid value.")
"""


def test_the_text_a_user_may_set_in_place_of_the_default() -> None:
    sites = extract_file("field.py", textwrap.dedent(SOURCE).encode()).sites
    assert [settable_text(site) for site in sites] == [
        "self.invalid_value_message",
        "self.messages['empty']",
        None,  # a literal chooses nothing
        None,  # a call computes the text: not one a user set
        None,
    ]


def test_or_is_read_as_the_tokenizer_reads_it() -> None:
    # `or` written without spaces is the keyword; inside a name, or as one, it is not
    source = """
def check(self, value):
    if value is None:
        raise ValueError((self.msg)or("Not set."))
    if value == 1:
        raise ValueError(self.error_message_for("One."))
    if value == 2:
        raise ValueError(self.orders or "Two.")
    raise ValueError(f"{value!r} is wrong")
"""
    sites = extract_file("check.py", source.encode()).sites
    assert [settable_text(site) for site in sites] == ["self.msg", None, "self.orders", None]


def test_the_key_is_the_class_s_last_name() -> None:
    assert settable_key("builtins.ValueError") == settable_key("ValueError")
