"""A type whose hook hands the framework a validator that splits the value into parts and
hands them on to class methods of its own, whose checks read the type's class settings
(`cls.tail_needed`, `cls.kinds`) that types built on it in the same module set anew: the
ways out are the value a field declared as one of those types is given (one that has the
part the check asks for, one among the type's collection) and the type of the family
that leaves the setting off, not the method's argument."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain.build import build_page
from errdex.store import Store

FILES = {
    "links/__init__.py": "from links.types import Link, WebLink, StrictWebLink\n",
    "links/types.py": """
        import re

        link_re = re.compile(r"(?:(?P<kind>[a-z]+)://)?(?:(?P<label>\\w+)@)?(?P<host>[^/]*)")
        host_re = re.compile(r"\\w+(?P<tail>\\.[a-z]{2,})?")


        class KindMissing(ValueError):
            pass


        class KindRefused(ValueError):
            pass


        class LabelMissing(ValueError):
            pass


        class TailMissing(ValueError):
            pass


        class Link(str):
            kinds = None
            tail_needed: bool = False
            label_needed: bool = False

            @classmethod
            def __get_validators__(cls):
                yield cls.validate

            @classmethod
            def validate(cls, value):
                found = link_re.match(value)
                parts = found.groupdict()
                cls.check_parts(parts)
                return cls._finish(parts)

            @classmethod
            def _finish(cls, parts):
                tail = cls.check_host(parts)
                return cls(parts["host"] + tail)

            @classmethod
            def check_parts(cls, parts):
                kind = parts["kind"]
                if kind is None:
                    raise KindMissing()
                if cls.kinds and kind.lower() not in cls.kinds:
                    raise KindRefused()
                label = parts["label"]
                if cls.label_needed and label is None:
                    raise LabelMissing()
                return parts

            @classmethod
            def check_host(cls, parts):
                tail = None
                found = host_re.fullmatch(parts["host"])
                tail = found.group("tail")
                if tail is not None:
                    tail = tail[1:]
                elif cls.tail_needed:
                    raise TailMissing()
                return tail

            @classmethod
            def joined(cls, parts):
                if parts["host"] is None:
                    raise ValueError("no host to join")
                return parts["host"]


        class WebLink(Link):
            kinds = {"web", "webs"}


        class StrictWebLink(WebLink):
            tail_needed = True


        class MailLink(Link):
            kinds = {"mail"}
            label_needed = True
        """,
}


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("links"), "links", FILES)


def texts(store: Store, exception: str) -> list[str]:
    (site,) = [s for s in store.list_sites("links") if s.site.exception.endswith(exception)]
    return [s.text for s in build_page(store, site.id).solutions]


def test_a_setting_a_subclass_turns_on_the_part_and_the_type_it_is_built_on(
    links: Store,
) -> None:
    assert texts(links, "TailMissing") == [
        "In the data you validate, give a field declared as `StrictWebLink` a value that has "
        "a `tail` (here `tail` is `found.group('tail')`): `Link.check_host` checks it inside "
        "`Link.validate`, the validator the framework runs on such a field, and the check at "
        "line 64 applies only where the type's `tail_needed` is set, as `StrictWebLink` "
        "(line 80) does.",
        "Declare the field as `WebLink` in place of `StrictWebLink`: it leaves `tail_needed` "
        "false, and the check at line 64 applies only where the type sets it.",
    ]


def test_a_collection_setting_its_members_per_type(links: Store) -> None:
    assert texts(links, "KindRefused") == [
        "In the data you validate, give a field declared as `WebLink`, `StrictWebLink` or "
        "`MailLink` a value whose `kind.lower()` is one of its type's `kinds`: `'web'`, "
        "`'webs'` for `WebLink`, `StrictWebLink`; `'mail'` for `MailLink`. `Link.check_parts` "
        "checks it inside `Link.validate`, the validator the framework runs on such a field.",
        "Declare the field as `Link`, the type the others are built on: it leaves `kinds` "
        "None, and the check at line 50 applies only where the type sets it.",
    ]


def test_a_part_tested_with_the_setting(links: Store) -> None:
    (first, *_) = texts(links, "LabelMissing")
    assert first.startswith(
        "In the data you validate, give a field declared as `MailLink` a value that has a "
        "`label` (here `label` is `parts['label']`)"
    )


def test_a_part_no_setting_guards_on_every_type_of_the_family(links: Store) -> None:
    assert texts(links, "KindMissing") == [
        "In the data you validate, give a field declared as `Link` or a type built on it a "
        "value that has a `kind` (here `kind` is `parts['kind']`): `Link.check_parts` checks "
        "it inside `Link.validate`, the validator the framework runs on such a field."
    ]


def test_a_method_the_validator_does_not_reach_keeps_its_argument(links: Store) -> None:
    (site,) = [
        s
        for s in links.list_sites("links")
        if s.site.message is not None and "no host to join" in s.site.message.text
    ]
    found = [s.text for s in build_page(links, site.id).solutions]
    assert not any("In the data you validate" in t for t in found), found
