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
import re
import shlex

from errdex.explain.page import ExampleFix, Solution
from errdex.explain.plain import code, listed, your_values
from errdex.linked_facts import SelectionLink
from errdex.store.base import StoredSite

# what a check reads when it looks a token up in the model's tokenizer (`self.vocab.get(t)`,
# `t not in self.vocab`, `self.tool_calls_start_token_id is None`)
_TOKEN_LOOKUP = ("vocab", "token_id")
_OPTIONS = re.compile(r"\bkwargs\b")


def setting_noun(setting: str) -> str:
    """`--tool-call-parser` → "tool call parser"."""
    return setting.lstrip("-").replace("-", " ").replace("_", " ").lower()


def command_placeholders(link: SelectionLink) -> str:
    """ " `MODEL_TAG` stands for your own value.": the command's words the user fills in."""
    words = [w for w in (link.command or "").split()[1:] if w.isupper()]
    return f" {your_values(words)}" if words else ""


def named_solution(link: SelectionLink, stored: StoredSite) -> Solution | None:
    """Leave the flag out, or give the name of the one made for the model; None for a check
    of what the plugin was handed (see the module's docstring)."""
    if _reads_options(stored) or _handed_nothing(stored):
        return None
    along = ""
    if link.along:
        needs = " and ".join(code(a) for a in link.along)
        along = f" ({needs} is refused without {code(link.setting)}, so both go)"
    also = f", also for {_codes(link.aliases)}" if link.aliases else ""
    own = {link.value, *link.aliases}
    others = sorted(n for n in link.registered if n not in own)
    names = f" The other names this version registers: {_codes(others)}." if others else ""
    text = (
        f"Leave {_given(link)} out{along}, or give {code(link.setting)} the name of the "
        f"{setting_noun(link.setting)} made for your model instead. {code(link.setting)} "
        f"picks this class by name ({code(link.registry or link.value)} in {link.file}"
        f"{also}), and its constructor, where this check is, runs only for those names."
        f"{names}"
    )
    return Solution(text=text, knob=link.setting, kind="setting", fix=_fix(link))


def named_context(link: SelectionLink, stored: StoredSite) -> str:
    """What "What it means" says: the flag's names run this code; the model's tokenizer is
    what fails where the check looks the plugin's tokens up in it."""
    picked = _codes((link.value, *link.aliases), "or")
    text = (
        f"But a setting picks the code it is in: it runs only when {code(link.setting)} is "
        f"{picked}, which names this class in {code((link.registry or '').split('[')[0])}, "
        f"so leaving the flag out, or the name of the {setting_noun(link.setting)} made for "
        "your model, avoids it."
    )
    if _looks_up_tokens(stored):
        text += (
            f" The check looks the {setting_noun(link.setting)}'s tokens up in the tokenizer "
            f"of the model you serve: that tokenizer does not have them, so "
            f"{code(link.value)} is not the {setting_noun(link.setting)} made for this model."
        )
    return text


def _fix(link: SelectionLink) -> ExampleFix | None:
    """The command that reaches the check, then the command without the flag."""
    if not link.command:
        return None
    given = " ".join((*link.along, f"{link.setting} {shlex.quote(link.value)}"))
    return ExampleFix(
        before=f"{link.command} {given}",
        after=link.command,
        note=f"{code(link.setting)} picks the code this check is in; only "
        f"{_codes((link.value, *link.aliases), 'or')} runs it. To keep a "
        f"{setting_noun(link.setting)}, give the name of the one made for your model in its "
        "place." + command_placeholders(link),
    )


def _given(link: SelectionLink) -> str:
    """ "`--reasoning-parser deepseek_r1`", with the flags the command needs beside it."""
    return code(" ".join((*link.along, f"{link.setting} {link.value}")))


def _codes(names: tuple[str, ...] | list[str], last: str = "and") -> str:
    return listed([code(n) for n in names], last)


def _texts(stored: StoredSite) -> list[str]:
    return [c.test for c in stored.site.conditions] + [b.value for b in stored.site.bindings]


def _looks_up_tokens(stored: StoredSite) -> bool:
    return any(word in text for text in _texts(stored) for word in _TOKEN_LOOKUP)


def _reads_options(stored: StoredSite) -> bool:
    return any(_OPTIONS.search(text) for text in _texts(stored))


def _handed_nothing(stored: StoredSite) -> bool:
    """Whether a condition tests that what the constructor's first parameter hands it is
    there at all (`not self.model_tokenizer`, `tokenizer is None`)."""
    params = stored.reading.params if stored.reading is not None else ()
    if not params:
        return False
    first = params[0]
    for condition in stored.site.conditions:
        if not condition.holds:
            continue
        try:
            node = ast.parse(condition.test, mode="eval").body
        except SyntaxError:
            continue
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            tested: ast.expr = node.operand
        elif (
            isinstance(node, ast.Compare)
            and len(node.ops) == 1
            and isinstance(node.ops[0], ast.Is)
            and isinstance(node.comparators[0], ast.Constant)
            and node.comparators[0].value is None
        ):
            tested = node.left
        else:
            continue
        if isinstance(tested, ast.Name | ast.Attribute) and first in ast.unparse(tested):
            return True
    return False
