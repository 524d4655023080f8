"""A check in a helper on a value a public call hands down through every chain of callers:
a loop over the user's mapping or list, a literal default, a helper many callers reach.
The way out names the nearest public calls and the part of their argument that reaches
the check."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "form/__init__.py": "from form.api import Request, Upload, dive, plan, render, show, tag\n",
    "form/_fields.py": """
        class Field:
            def __init__(self, name, value):
                if not isinstance(name, str):
                    raise TypeError(f"Invalid type for name: {name!r}")
                self.name = name


        def fields(data):
            for name, value in data.items():
                yield Field(name=name, value=value)


        def check_part(part):
            if part.startswith("::"):
                raise ValueError("A part cannot start with '::'")
            return part


        def parts(items):
            for item in items:
                check_part(item)
            return items


        def mark(text):
            if "[/]" in text:
                raise ValueError("A closing tag has nothing to close")
            return text


        def marked(text):
            return mark(text.strip())


        def _prepared(text):
            return mark(text)


        def check_label(label):
            if not label.isidentifier():
                raise ValueError("A label must be an identifier")
            return label


        def check_depth(depth):
            if not isinstance(depth, int):
                raise TypeError("A depth must be an int")
            return depth


        def _one(depth):
            return check_depth(depth)


        def _two(depth):
            return _one(depth)


        def _three(depth):
            return _two(depth)


        def _four(depth):
            return _three(depth)


        def check_list(value, name):
            if not isinstance(value, list):
                raise TypeError(f"{name} must be a list")
            return value


        def _plan(first, second):
            check_list(first, "first")
            check_list(second, "second")


        def labels(keys):
            for at, key in enumerate(keys):
                check_label(key)
        """,
    "form/api.py": """
        from form._fields import _four, _plan, fields, labels, mark, marked, parts


        class Request:
            def __init__(self, data=None):
                self.fields = list(fields(data or {}))


        class Upload:
            def __init__(self, paths):
                self.paths = parts(paths)


        def render(body):
            return mark(body)


        def show(body):
            return marked(body)


        def dive(depth):
            return _four(depth)


        def plan(first, second):
            return _plan(first, second)


        def tag(keys):
            return labels(keys)


        def close():
            raise NotImplementedError("closing is not supported")
        """,
}


@pytest.fixture(scope="module")
def form(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("form"), "form", FILES)


def test_a_key_of_the_users_mapping_handed_down_by_a_loop_names_the_mapping(
    form: Store,
) -> None:
    # `Request(data=...)` hands `data or {}` to `fields`, which gives each key to `Field`
    page = page_with_message(form, "form", "Invalid type for name")
    assert page.solutions[0].text == (
        "Make each key of the mapping `data` you pass to `form.Request` a `str`: each "
        "reaches `Field` as `name`, which raises at line 5 for any other value (“Invalid "
        "type for name: NAME”)."
    )


def test_an_item_of_the_users_list_names_the_list(form: Store) -> None:
    page = page_with_message(form, "form", "A part cannot start")
    assert any(
        s.text.startswith(
            "Change each item of `paths` you pass to `form.Upload`: each reaches `check_part` "
            "as `part`, and the check at line 15 fails"
        )
        for s in page.solutions
    )


def test_the_nearest_public_calls_of_every_chain_are_named(form: Store) -> None:
    # `mark` is reached from `_prepared` (private, which nothing calls), `render` (as it
    # is) and `marked` (a value it computed): the first chain alone reaches no public call;
    # `render` hands the text on as it is
    page = page_with_message(form, "form", "A closing tag has nothing")
    assert page.solutions[0].text.startswith(
        "Change the argument `body` you pass to `form.render`: it reaches `mark` as `text`"
    )


def test_an_enumerated_item_names_the_list(form: Store) -> None:
    page = page_with_message(form, "form", "A label must be")
    assert page.solutions[0].text.startswith(
        "Change each item of `keys` you pass to `form.tag`: each reaches "
        "`check_label` as `label`, and the check at line 41 fails when"
    )


def test_a_public_call_five_calls_up_is_named(form: Store) -> None:
    # `dive` → `_four` → `_three` → `_two` → `_one` → `check_depth`: past the three calls
    # a page shows, through the callers the linker keeps for the walk
    page = page_with_message(form, "form", "A depth must be")
    assert page.solutions[0].text == (
        "Pass `depth` to `form.dive` as an `int`: it reaches `check_depth` as `depth`, which "
        "raises at line 48 for any other value (“A depth must be an int”)."
    )


def test_both_arguments_a_caller_gives_the_check_are_named(form: Store) -> None:
    # `_plan` checks `first` and then `second` with one helper: the message names which,
    # the call the linker kept is only one of them; each is what the user gave `plan`
    page = page_with_message(form, "form", "{name} must be a list")
    assert any(
        s.text.startswith(
            "Pass `first` or `second` to `form.plan` as a `list`: each reaches `check_list` "
            "as `value`, which raises at line 70 for any other value"
        )
        for s in page.solutions
    )


SPREAD = {
    "bag/__init__.py": "from bag.api import Form, Sizes, Tags\n",
    "bag/_fields.py": """
        class Item:
            def __init__(self, name, value):
                if not isinstance(value, (str, int)):
                    raise TypeError(f"Unsupported value: {value!r}")
                self.value = value


        def collect(data):
            for name, value in data.items():
                if isinstance(value, (tuple, list)):
                    for item in value:
                        yield Item(name=name, value=item)
                else:
                    yield Item(name=name, value=value)


        def check_tag(tag):
            if tag.startswith("-"):
                raise ValueError("A tag cannot start with '-'")


        def check_size(size):
            if size < 0:
                raise ValueError("A size cannot be negative")


        def sizes(values):
            for key, value in values.items():
                if isinstance(value, list):
                    for item in value:
                        check_size(item)
                else:
                    print(value)


        def tags(values):
            for key, value in values.items():
                if isinstance(value, list):
                    for item in value:
                        check_tag(item)
                else:
                    check_tag(key)
        """,
    "bag/api.py": """
        from bag._fields import collect, sizes, tags


        class Form:
            def __init__(self, data=None):
                self.items = list(collect(data or {}))


        class Tags:
            def __init__(self, values):
                tags(values)


        class Sizes:
            def __init__(self, values):
                sizes(values)


        def close():
            raise NotImplementedError("closing is not supported")
        """,
}


@pytest.fixture(scope="module")
def bag(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("bag"), "bag", SPREAD)


def test_a_value_of_the_users_mapping_or_each_of_its_items_names_the_mapping(bag: Store) -> None:
    # `collect` hands each value of `data` to `Item`, and each item of it where it is a
    # tuple or list: both are what the user wrote in `Form(data=...)`
    page = page_with_message(bag, "bag", "Unsupported value")
    assert page.solutions[0].text == (
        "Make each value of the mapping `data` you pass to `bag.Form` (or each item of it, "
        "where it is a `tuple` or `list`) a `str` or an `int`: each reaches `Item` as "
        "`value`, which raises at line 5 for any other value (“Unsupported value: VALUE”)."
    )


def test_items_of_a_value_whose_other_branch_checks_another_value_are_not_said(
    bag: Store,
) -> None:
    # `tags` checks the items of a list value but the key of any other: which the user
    # wrote where is not one argument handed alike
    page = page_with_message(bag, "bag", "A tag cannot start")
    assert not any("`bag.Tags`" in s.text for s in page.solutions)


def test_items_of_a_value_not_itself_checked_are_not_said(bag: Store) -> None:
    # `sizes` checks the items of a list value and prints any other: "each value (or each
    # item of it)" would say the value itself reaches the check
    page = page_with_message(bag, "bag", "A size cannot be negative")
    assert not any("`bag.Sizes`" in s.text for s in page.solutions)


BODY = {
    "body/__init__.py": "from body.api import Reply, Send, both, close, toggle_text, toggles\n",
    "body/_encode.py": """
        def encode(content):
            if isinstance(content, (bytes, str)):
                return content
            elif hasattr(content, "__iter__") and not isinstance(content, dict):
                return b"".join(content)
            raise TypeError(f"Unexpected type for content: {type(content)!r}")


        def encode_send(content=None, data=None):
            if data is not None and not isinstance(data, dict):
                return encode(data)
            if content is not None:
                return encode(content)
            return b""


        def encode_reply(content=None, text=None):
            if content is not None:
                return encode(content)
            return text.encode()


        def check_name(name):
            if not name.isidentifier():
                raise ValueError(f"Not an identifier: {name!r}")


        def check_all(first, second):
            check_name(first)
            check_name(second.strip())


        def check_flag(flag):
            if not isinstance(flag, bool):
                raise TypeError("A flag must be a bool")


        def parse_flag(text):
            check_flag(text == "on" or None)
        """,
    "body/api.py": """
        from body._encode import check_all, check_flag, encode_reply, encode_send, parse_flag


        class Send:
            def __init__(self, content=None, data=None):
                self.body = encode_send(content=content, data=data)


        class Reply:
            def __init__(self, content=None, text=None):
                self.body = encode_reply(content, text)


        def both(first, second):
            return check_all(first, second)


        def toggles(first, second):
            check_flag(first)
            check_flag(second)


        def toggle_text(text):
            parse_flag(text)


        def close():
            raise NotImplementedError("closing is not supported")
        """,
}


@pytest.fixture(scope="module")
def body(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("body"), "body", BODY)


def test_each_argument_a_helper_hands_on_to_the_check_names_its_public_calls(
    body: Store,
) -> None:
    # `encode_send` hands `encode` its `data` and, in another call, its `content`; `Send`
    # and `Reply` take `content`, `Send` alone `data`: each is the user's
    page = page_with_message(body, "body", "Unexpected type for content")
    assert page.solutions[0].text.startswith(
        "Change the argument `content` you pass to `body.Send` or `body.Reply`, or `data` "
        "you pass to `body.Send`: each reaches `encode` as `content`, and the check at line "
    )


def test_no_public_call_is_named_where_a_caller_also_gives_the_check_a_value_it_computed(
    body: Store,
) -> None:
    # `check_all` hands `check_name` its `first` as it is and its `second` stripped: what
    # the user wrote in `second` is not the value checked
    page = page_with_message(body, "body", "Not an identifier")
    assert not any("`body.both`" in s.text for s in page.solutions)


def test_no_arguments_are_named_where_another_chain_reaches_the_check(body: Store) -> None:
    # `toggles` hands `check_flag` its `first` and its `second`, but `parse_flag` hands it a
    # value it computed: naming the two would say the check is of them alone
    page = page_with_message(body, "body", "A flag must be a bool")
    assert not any("`body.toggles`" in s.text for s in page.solutions)


LINK = {
    "link/__init__.py": (
        "from link.api import Link, Site, Token, close\n"
        "from link._parse import pack_live, pack_rest\n"
    ),
    "link/_parse.py": """
        import re

        LINK_REGEX = re.compile(r"(?:(?P<scheme>[a-z]+):)?(?://(?P<place>[^/]*))?(?P<rest>.*)")
        PLACE_REGEX = re.compile(r"(?:(?P<user>[^@]*)@)?(?P<site>[^:]*)")


        def check_rest(rest, has_place):
            if has_place:
                if rest and not rest.startswith("/"):
                    raise ValueError("A rest after a place must begin with '/'")


        def check_colon(rest, has_scheme):
            if rest.startswith(":") and not has_scheme:
                raise ValueError("Links with no scheme cannot have a rest starting with ':'")


        def _pack(rest, slots=None, *, live=False):
            if live and slots is None:
                raise ValueError("Live packing needs slots")
            return rest


        def pack_rest(rest):
            return _pack(rest)


        def pack_live(rest, slots, live=False):
            return _pack(rest, slots, live=live)


        def check_site(site):
            if site.startswith("-"):
                raise ValueError(f"Invalid site: {site!r}")


        def check_scheme(scheme):
            if scheme.startswith("x"):
                raise ValueError("A scheme cannot start with 'x'")


        def check_token(token):
            if token.endswith("!"):
                raise ValueError(f"Invalid token: {token!r}")


        def tokens(text, **kwargs):
            text_match = LINK_REGEX.match(text)
            text_dict = text_match.groupdict()
            token = kwargs.get("token", text_dict["rest"])
            check_token(token)


        def parse(text, **kwargs):
            link_match = LINK_REGEX.match(text)
            link_dict = link_match.groupdict()
            place = kwargs.get("place", link_dict["place"]) or ""
            rest = kwargs.get("rest", link_dict["rest"]) or ""
            place_match = PLACE_REGEX.match(place)
            place_dict = place_match.groupdict()
            site = place_dict["site"]
            check_site(site)
            encode_site(site)
            check_rest(rest, has_place=site != "")
            check_colon(rest, has_scheme=link_dict["scheme"] is not None)
            scheme = link_dict["scheme"]
            if not scheme:
                scheme = "http"
            check_scheme(scheme)
            return site


        def encode_site(site):
            if not site:
                return ""
            if site.isascii():
                return site
            try:
                return site.encode("idna")
            except UnicodeError:
                raise ValueError(f"Invalid international site: {site!r}")
        """,
    "link/api.py": """
        from link._parse import parse, tokens


        class Link:
            def __init__(self, text, **kwargs):
                self.site = parse(text, **kwargs)


        class Token:
            def __init__(self, text, **kwargs):
                tokens(text, **kwargs)


        class Site:
            def __init__(self, text, strict=False):
                self.site = parse(text)


        def close():
            raise NotImplementedError("closing is not supported")
        """,
}


@pytest.fixture(scope="module")
def link(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("link"), "link", LINK)


def test_a_named_group_of_a_match_on_the_users_string_names_that_part(link: Store) -> None:
    # `parse` hands `check_rest` the group `rest` of `LINK_REGEX`'s match on `text`, or the
    # keyword `rest` in its place: the user writes that part of the text given to `Link`;
    # the keyword is not said, `Site` handing on none
    page = page_with_message(link, "link", "A rest after a place")
    assert page.solutions[0].text.startswith(
        "Change the `rest` part of `text` you pass to `link.Link` or `link.Site`: each "
        "reaches `check_rest` as `rest`, and the check at line "
    )


def test_a_check_also_reading_a_computed_value_names_the_part_the_user_gives(
    link: Store,
) -> None:
    # `has_scheme` is computed from the match; `rest` is the user's part: making the part
    # on it false avoids the check, whatever the other holds
    page = page_with_message(link, "link", "Links with no scheme")
    assert page.solutions[0].text.startswith(
        "Change the `rest` part of `text` you pass to `link.Link` or `link.Site`: each "
        "reaches `check_colon` as `rest`, and the check at line "
    )
    assert "and `has_scheme` is false" in page.solutions[0].text


def test_a_switch_beside_what_is_missing_is_not_the_part_to_change(link: Store) -> None:
    # `live` only says whether the packing is asked for: `slots` is what is missing
    page = page_with_message(link, "link", "Live packing needs slots")
    assert not any("`live`" in s.text for s in page.solutions)


def test_a_group_of_a_match_on_another_group_names_the_inner_part(link: Store) -> None:
    # `site` is a group of `PLACE_REGEX`'s match on the group `place` of the user's text
    page = page_with_message(link, "link", "Invalid site")
    assert page.solutions[0].text.startswith(
        "Change the `site` part of `text` you pass to `link.Link` or `link.Site`: each reaches "
        "`check_site` as `site`"
    )


def test_a_keyword_given_in_place_of_the_part_is_said_where_every_call_hands_it_on(
    link: Store,
) -> None:
    page = page_with_message(link, "link", "Invalid token")
    assert page.solutions[0].text.startswith(
        "Change the `rest` part of `text` you pass to `link.Token`, or the keyword `token` "
        "given in its place: each reaches `check_token` as `token`"
    )


def test_a_group_bound_again_in_a_branch_is_not_said_as_the_users_part(link: Store) -> None:
    # `scheme` may be the package's own `"http"` by the time it is checked
    page = page_with_message(link, "link", "A scheme cannot start")
    assert not any("part of `text`" in s.text for s in page.solutions)


def test_a_part_under_an_except_is_named_on_the_public_call(link: Store) -> None:
    # `encode_site` raises in the `except` of a failed encoding; the guard above it (an ASCII
    # site is returned first) reads the `site` part of the user's text: the way out is said
    # of that part of `Link`'s and `Site`'s `text`, not of the internal `encode_site`
    page = page_with_message(link, "link", "Invalid international site")
    assert page.solutions[0].text == (
        "Pass the `site` part of the argument `text` of `link.Link` or `link.Site` (it "
        "reaches `encode_site` as `site`) as ASCII text."
    )


def test_a_guard_on_a_part_the_user_passes_is_not_said_to_have_no_argument_behind(
    link: Store,
) -> None:
    # `if not site: return` says when the check applies; `site` is the user's part of `text`
    page = page_with_message(link, "link", "Invalid international site")
    assert "The check applies only when `site` is set" in page.what_it_means
    assert "errdex found no setting behind that" in page.what_it_means
    assert "argument a user passes" not in page.what_it_means
