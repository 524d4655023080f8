"""Tests that expect an error: `pytest.raises(X, match=...)` matched to the sites they hit."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from errdex.facts import FileFacts, MessageTemplate, TestRef
from errdex.lazy_re import lazy_compile
from errdex.linked_facts import IndexedSite, TestLink

if TYPE_CHECKING:
    import regex  # type: ignore[import-untyped]

_TIMEOUT = 0.05  # seconds per pattern: test patterns are code, not trusted to be tame
MAX_TESTS = 5
# Most patterns are plain text (`match="must be positive"`): for them a substring test says
# the same as a regex search, many times faster. A site is checked against every test of
# its exception, so this is most of the linker's work for tests.
_REGEX_SYNTAX = lazy_compile(r"[\\.^$*+?{}\[\]|()]")
# Text whose only syntax is punctuation escaped as `re.escape` writes it
# (`match=r"plan\(\) must be called"`): an escaped punctuation character matches itself,
# so the text unescaped is the same test. (A regex search with a time limit reads the
# process's CPU clock twice, a system call each: most of the search's time.)
_ESCAPED_TEXT = lazy_compile(r"(?:\\[\\.^$*+?{}\[\]|() #&~-]|[^\\.^$*+?{}\[\]|()])*")
_ESCAPE = lazy_compile(r"\\(.)")


class TestIndex:
    """The version's expected-error tests, by the exception's last name."""

    def __init__(self, files: list[FileFacts]) -> None:
        self._by_name: dict[str, list[tuple[TestRef, FileFacts]]] = defaultdict(list)
        self._patterns: dict[str, regex.Pattern[str] | str | None] = {}
        self._links: dict[str, list[tuple[regex.Pattern[str] | str, TestLink]]] = {}
        # the tests a message matches, by the exception's last name and the message: the
        # sites of vllm share half their messages
        self._found: dict[tuple[str, MessageTemplate], tuple[TestLink, ...]] = {}
        for facts in files:
            for test in facts.tests:
                if test.match:
                    self._by_name[test.exception.rsplit(".", 1)[-1]].append((test, facts))

    def __bool__(self) -> bool:
        return bool(self._by_name)

    def tests_for(self, site: IndexedSite) -> tuple[TestLink, ...]:
        message = site.site.message
        if message is None or not self._by_name:
            return ()
        name = site.exception.name if site.exception else (site.site.exception or "")
        short = name.rsplit(".", 1)[-1]
        candidates = self._candidates(short)
        if not candidates:
            return ()
        key = (short, message)
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = self._matching(candidates, message)
        return found

    def _matching(
        self, candidates: list[tuple[regex.Pattern[str] | str, TestLink]], message: MessageTemplate
    ) -> tuple[TestLink, ...]:
        """The tests of `candidates` whose pattern the message matches."""
        text, literal = message.text, message.literal_text
        out: list[TestLink] = []
        for pattern, link in candidates:
            if isinstance(pattern, str):  # most: plain text, tested here without a call
                if pattern not in text and pattern not in literal:
                    continue
            elif not (_search(pattern, text) or _search(pattern, literal)):
                continue
            out.append(link)
            if len(out) >= MAX_TESTS:
                break
        return tuple(out)

    def _candidates(self, name: str) -> list[tuple[regex.Pattern[str] | str, TestLink]]:
        """The tests of an exception's last name with a usable pattern, each with its link:
        made once per name, as every site raising it is checked against them all."""
        found = self._links.get(name)
        if found is None:
            found = self._links[name] = [
                (pattern, _link(test, facts))
                for test, facts in self._by_name.get(name, ())
                if (pattern := self._compile(test.match or "")) is not None
            ]
        return found

    def _compile(self, pattern: str) -> regex.Pattern[str] | str | None:
        if pattern in self._patterns:
            return self._patterns[pattern]
        if not _REGEX_SYNTAX.search(pattern):
            compiled: regex.Pattern[str] | str | None = pattern
        elif _ESCAPED_TEXT.fullmatch(pattern):
            compiled = _ESCAPE.sub(r"\1", pattern)
        else:
            import regex  # imported here: start-up of lookup (only a pattern's syntax needs it)

            try:
                compiled = regex.compile(pattern)
            except (regex.error, ValueError, OverflowError):
                compiled = None
        self._patterns[pattern] = compiled
        return compiled


def _link(test: TestRef, facts: FileFacts) -> TestLink:
    return TestLink(
        file=facts.path,
        line=test.line,
        function=test.function,
        exception=test.exception,
        match=test.match,
    )


def _search(pattern: regex.Pattern[str] | str, text: str) -> bool:
    if isinstance(pattern, str):
        return pattern in text
    try:
        return pattern.search(text, timeout=_TIMEOUT) is not None
    except TimeoutError:
        return False
