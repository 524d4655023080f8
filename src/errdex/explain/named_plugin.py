"""The way out of a plugin a flag names in a registry of names: the flag left out, or the name
of the plugin made for the user's model.

`--reasoning-parser deepseek_r1` picks `DeepSeekR1ReasoningParser` by name, and its
constructor's check (the model's tokenizer must have the `<think>` token) runs only for that
name (`link.name_registry`). Leaving the flag out avoids it; so does the name of the parser
made for the model, but which that is no list of the version says, so none is picked for
the user: the page names the ones the registry holds. Nothing is offered for a check that
the plugin was handed what it is built with at all (`if not self.model_tokenizer`): the
caller's invariant, which the server keeps (it builds the parser with the model's
tokenizer, or builds none), so a command that gives the flag does not reach it; nor for a
check of the options a call hands the constructor (`kwargs`: a request's
`chat_template_kwargs`), whose own values are the way out.

The example fix starts from the command that reaches the check, the flag with its name and
the flags the version refuses without it (`--enable-auto-tool-choice`), and ends without
them.
"""

from __future__ import annotations

import ast
import shlex
from functools import lru_cache

from errdex.explain.input_nodes import free_names
from errdex.explain.page import ExampleFix, Solution
from errdex.explain.plain import code, command_placeholders, listed, setting_noun
from errdex.extract.shapes import OWN_OBJECT, tested_absent
from errdex.linked_facts import SelectionLink
from errdex.store.base import StoredSite

# what a check reads when it looks a token up in the model's tokenizer (`self.vocab.get(t)`,
# `t not in self.vocab`, `self.tool_calls_start_token_id is None`): whole names
_VOCAB = ("vocab", "get_vocab")  # a tokenizer's vocabulary, as an attribute or its call
_TOKEN_ID = "_token_id"


def named_solution(link: SelectionLink, stored: StoredSite) -> Solution | None:
    """Leave the flag out, or give another registered name (the one made for the model
    where the check looks the plugin's tokens up in its tokenizer); None for a check of
    what the plugin was handed (see the module's docstring)."""
    if _reads_options(stored) or _handed_nothing(stored):
        return None
    along = ""
    if link.along:
        needs = " and ".join(code(a) for a in link.along)
        verb, gone = ("is", "both") if len(link.along) == 1 else ("are", "all")
        along = f" ({needs} {verb} refused without {code(link.setting)}, so {gone} go)"
    also = f", also for {_codes(link.aliases)}" if link.aliases else ""
    own = {link.value, *link.aliases}
    others = sorted(n for n in link.registered if n not in own)
    names = f" The other names this version registers: {_codes(others)}." if others else ""
    text = (
        f"Leave {_given(link)} out{along}, or give {code(link.setting)} "
        f"{_instead(link, stored)} instead. {code(link.setting)} "
        f"picks this class by name ({code(link.registry or link.value)} in {link.file}"
        f"{also}), and its constructor, where this check is, runs only for those names."
        f"{names}"
    )
    return Solution(text=text, knob=link.setting, kind="setting", fix=_fix(link, stored))


def named_context(link: SelectionLink, stored: StoredSite) -> str:
    """What "What it means" says: the flag's names run this code; the model's tokenizer is
    what fails where the check looks the plugin's tokens up in it."""
    picked = _codes((link.value, *link.aliases), "or")
    text = (
        f"But a setting picks the code it is in: it runs only when {code(link.setting)} is "
        f"{picked}, which names this class in {code((link.registry or '').split('[')[0])}, "
        f"so leaving the flag out, or {_instead(link, stored)}, avoids it."
    )
    if _looks_up_tokens(stored):
        text += (
            f" The check looks the {setting_noun(link.setting)}'s tokens up in the tokenizer "
            f"of the model you serve: that tokenizer does not have them, so "
            f"{code(link.value)} is not the {setting_noun(link.setting)} made for this model."
        )
    return text


def _instead(link: SelectionLink, stored: StoredSite, noun: str = "") -> str:
    """The other name to give: the one made for the served model where the check looks
    the plugin's tokens up in the model's tokenizer; else any other registered name (what
    the check needs of a name is the plugin's own business)."""
    if _looks_up_tokens(stored):
        return f"the name of the {noun or setting_noun(link.setting)} made for your model"
    return "another of its registered names"


def _fix(link: SelectionLink, stored: StoredSite) -> ExampleFix | None:
    """The command that reaches the check, then the command without the flag."""
    if not link.command:
        return None
    given = " ".join((*link.along, f"{link.setting} {shlex.quote(link.value)}"))
    return ExampleFix(
        before=f"{link.command} {given}",
        after=link.command,
        note=f"{code(link.setting)} picks the code this check is in; only "
        f"{_codes((link.value, *link.aliases), 'or')} runs it. To keep a "
        f"{setting_noun(link.setting)}, give {_instead(link, stored, 'one')} in its place."
        + command_placeholders(link.command or ""),
    )


def _given(link: SelectionLink) -> str:
    """ "`--reasoning-parser deepseek_r1`", with the flags the command needs beside it."""
    return code(" ".join((*link.along, f"{link.setting} {link.value}")))


def _codes(names: tuple[str, ...] | list[str], last: str = "and") -> str:
    return listed([code(n) for n in names], last)


def _texts(stored: StoredSite) -> tuple[str, ...]:
    return (
        *(c.test for c in stored.site.conditions),
        *(b.value for b in stored.site.bindings),
    )


def _parsed(stored: StoredSite) -> tuple[ast.expr, ...]:
    """The site's conditions and bindings' values, parsed (once for the page's rules)."""
    return _parsed_texts(_texts(stored))


@lru_cache(maxsize=16)
def _parsed_texts(texts: tuple[str, ...]) -> tuple[ast.expr, ...]:
    out = []
    for text in texts:
        try:
            out.append(ast.parse(text, mode="eval").body)
        except SyntaxError:
            continue
    return tuple(out)


def _looks_up_tokens(stored: StoredSite) -> bool:
    """Whether the check reads the tokenizer's vocabulary or a token's id by name (the
    page asks three or four times: worked out once for its texts)."""
    return _reads_tokens(_texts(stored))


@lru_cache(maxsize=16)
def _reads_tokens(texts: tuple[str, ...]) -> bool:
    for node in _parsed_texts(texts):
        for child in ast.walk(node):
            name = (
                child.id
                if isinstance(child, ast.Name)
                else child.attr
                if isinstance(child, ast.Attribute)
                else ""
            )
            if name in _VOCAB or name.endswith(_TOKEN_ID):
                return True
    return False


def _reads_options(stored: StoredSite) -> bool:
    """Whether the check reads a parameter of the constructor but its first (the options a
    call hands it: `kwargs`, a request's `chat_template_kwargs`), whose values are the way
    out, not the flag."""
    params = stored.reading.params[1:] if stored.reading is not None else ()
    if not params:
        return False
    wanted = {p.lstrip("*") for p in params}
    return any(
        name.partition(".")[0] in wanted for node in _parsed(stored) for name in free_names(node)
    )


def _handed_nothing(stored: StoredSite) -> bool:
    """Whether a condition tests that what the constructor's first parameter hands it is
    there at all (`not self.model_tokenizer`, `tokenizer is None`): the parameter itself,
    or the attribute holding it (`_holds_param`)."""
    if stored.reading is None or not stored.reading.params:
        return False
    first = stored.reading.params[0]
    init_params = stored.reading.init_params
    for condition in stored.site.conditions:
        if not condition.holds:
            continue
        try:
            tested = tested_absent(ast.parse(condition.test, mode="eval").body)
        except SyntaxError:
            continue
        if isinstance(tested, ast.Name) and tested.id == first:
            return True
        if (
            isinstance(tested, ast.Attribute)
            and isinstance(tested.value, ast.Name)
            and tested.value.id in OWN_OBJECT
            and _holds_param(tested.attr, first, init_params)
        ):
            return True
    return False


def _holds_param(attr: str, param: str, init_params: dict[str, str]) -> bool:
    """Whether `self.attr` holds the constructor's parameter `param` as it is: assigned it
    in the class's own constructor, or named for it (`model_tokenizer`, which a base's
    constructor the class calls assigns); not an attribute of it (`self.tokenizer.x`)."""
    return init_params.get(attr) == param or attr == param or attr.endswith(f"_{param}")
