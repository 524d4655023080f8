"""The ways out the message says to take (and the handler's notes), ranked among the others.

What the message says to do ranks within its kind, after a way out of that kind that gives
the value to set. Where a setting is only named, without its value, the advice comes before
it (and so before the input): such a setting often only turns the feature off
(`--enable-lora` beside "Consider increasing max_num_batched_tokens or decreasing
num_speculative_tokens").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from errdex.explain.advice import Advice, forbids, message_advice, short_message, spoken_text
from errdex.explain.advice_names import keyword_solution, retired_solution
from errdex.explain.advice_phrasings import (
    ARCH_REQUIRED,
    IN_PLACE,
    LISTED,
    MUST_BE_ONE_OF,
    WORKS_INSTEAD,
    form_rule,
    given_flags,
    stated_use,
    unsupported_use,
)
from errdex.explain.advised_flags import advised_flag_fix
from errdex.explain.advised_member import member_solution
from errdex.explain.code_advice import code_advice_fix
from errdex.explain.context import Facts
from errdex.explain.environment import MACHINE_TESTED
from errdex.explain.handler_notes import INTERPRETER_VARIABLES, handler_notes
from errdex.explain.inputs import public_name
from errdex.explain.page import Knob, Solution
from errdex.explain.plain import code
from errdex.explain.shared_suffix import factory_list
from errdex.explain.state_gated import users_call
from errdex.explain.stated_exclusive import exclusive_instruction
from errdex.explain.stated_form import shallow_call
from errdex.explain.stated_limits import lists_valid
from errdex.explain.stated_values import restates_check
from errdex.explain.stated_version import version_solution
from errdex.explain.supported_values import supported_value_solution
from errdex.explain.user_call import suggested_call
from errdex.explain.user_data import callable_by_user
from errdex.facts import KnobKind, SiteKind
from errdex.linked_facts import NAMED_IN_MESSAGE

# How directly each kind of way out acts: a setting first, then the input, then the
# environment (a solution's rank is ten times its kind's place, plus its tier).
RANK = {"setting": 0, "input": 1, "environment": 2}
# A setting named without its value (tier 3, or 4 after an earlier exit) ...
VAGUE_SETTING = (3, 4)
# ... comes after the message's advice, which then ranks here: after a setting's exact value
# and an earlier exit (0, 1).
BEFORE_NAMED_ONLY = 2
# The message's advice that gives a known setting its value comes before every other way out.
MESSAGE_FIRST = -2
# `Facts.memo`'s key for the upgrades to a version the message requires: (the solution's
# text, the sentence that requires it)
STATED_VERSIONS = "stated_versions"
# ... and for what the message says the user's argument or subclass must be (the texts)
STATED_REQUIREMENTS = "stated_requirements"
# Advice that helps find the cause rather than avoid the error: "Set `VLLM_LOGGING_LEVEL=DEBUG`
# to see per-backend unsupported reasons".
_DIAGNOSTIC = re.compile(
    r"\bto\s+(?:see|view|get\s+more|print|show|inspect|debug|diagnose|find\s+out)\b|"
    r"\bfor\s+(?:more\s+)?(?:details|information|info)\b|\bdebug",
    re.I,
)


@dataclass
class Advised:
    solutions: list[tuple[Solution, int]] = field(default_factory=list)  # with each one's rank
    any: bool = False  # whether the message (or a note) says anything to do
    # the texts of those that restate what a value must be (its type, its range: `value_rule`),
    # offered only where no other way out is (one names the argument or the key exactly)
    restated: list[str] = field(default_factory=list)


def advised_solutions(facts: Facts, named: set[str], found: list[str]) -> Advised:
    """What the message (or the handler's note) says to do, less what a solution found
    already says (`found`: their texts) or turns (`named`: the settings they name)."""
    message = facts.stored.site.message
    said = [message_advice(spoken_text(message))]
    said += [message_advice(note) for note in handler_notes(facts)]
    out = Advised(any=any(said))
    # an `assert` in a function no user calls states what the code holds true of its own
    # values (`out and out_mxfp8 are mutually exclusive`), not a choice offered to a user
    site = facts.stored.site
    own_assertion = site.kind == SiteKind.ASSERT and not public_name(site.function)
    for advice in [a for advices in said for a in advices]:
        if advice.version is not None:
            # a setting it names is the case ("... is required when VLLM_X=1"), not the
            # way out: the upgrade is
            upgrade = version_solution(*advice.version, advice.text, facts.source_text)
            if not any(upgrade.text in text for text in found):
                out.solutions.append((upgrade, advised_rank(upgrade)))
                facts.memo.setdefault(STATED_VERSIONS, []).append((upgrade.text, advice.text))
            continue
        # the flag the advice gives a value is what it turns ("--a requires --b v": `--b`;
        # "Do not pass `--a`" drops what the user asked for, the advice keeps it)
        turned = " ".join(given_flags(advice.implied)) or advice.text
        if any(re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", turned) for k in named):
            continue  # a solution turns the setting it names (as a word: not `VLLM_X` for `X`)
        if any(advice.text in text for text in [*found, *(s.text for s, _ in out.solutions)]):
            continue  # quoted whole by a solution already
        if advice.retired is not None and message is not None:
            retired = retired_solution(advice.retired, short_message(message.text), facts)
            if retired is not None:
                out.solutions.append((retired, advised_rank(retired)))
            continue  # a name that is not this code's: the message speaks of another
        if own_assertion and exclusive_instruction(advice.text) is not None:
            continue  # two of the code's own values, asserted apart: no choice of the user's
        unsupported = unsupported_use(advice.text)
        refused = advice.implied is not None and advice.implied == unsupported
        if refused and (found or len(said[0]) > 1 or site.kind != SiteKind.RAISE):
            # what the thing refuses, said again: only where nothing else is said, and of a
            # raise (a warning's fallback is no failure to avoid; an assertion's or a helper's
            # "X does not support Y" is as often the code's own invariant)
            continue
        rule = form_rule(advice.text)
        used = advice.implied is not None and advice.implied in (
            stated_use(advice.text),
            unsupported,
            rule,
        )
        # a use the message pairs with the one it refuses: as a stated use is
        used = used or WORKS_INSTEAD.match(advice.implied or "") is not None
        restated = advice.implied is not None and advice.implied == form_rule(advice.text)
        restated = restated and restates_check(advice.text)
        # "Must be one of {supported}" after the refused value: the values the check itself
        # lists, said exactly by a way out found from it where there is one
        restated = restated or (
            (advice.implied or "").startswith(LISTED)
            and MUST_BE_ONE_OF.match(advice.text) is not None
        )
        if used and not _addressed(advice.text, facts):
            knob = _named_setting(facts) if rule is not None and advice.implied == rule else None
            if knob is None:
                continue  # how the package's own code must call its internals: no user's rule
            advice = _in_setting(advice, knob)  # a rule of the setting the message names
        if facts.class_hook is not None and rule is not None and advice.implied == rule:
            continue  # of the class being made: "What it means" says it of the user's class
        if (advice.implied or "").startswith(ARCH_REQUIRED) and any(
            MACHINE_TESTED in text for text in found
        ):
            continue  # the machine the check tests, said exactly already
        listed = advice.implied is not None and lists_valid(advice.text)
        if listed and factory_list(advice.text, facts):
            continue  # the grammar a factory adds to every reason, not this one's way out
        member = member_solution(advice.text, facts)
        if member is not None:
            out.solutions.append((member, MESSAGE_FIRST))  # the key the message names, kept on
            continue
        keyword = keyword_solution(advice.text, facts)
        if keyword is not None:
            # written into the user's own call it is as exact as a way out of the code, and
            # it keeps the rest of what they passed: before a way out that gives a value up
            exact_call = keyword.change is not None and keyword.change.form == "call"
            out.solutions.append((keyword, advised_rank(keyword) - exact_call))
            continue
        change = advice.change
        if change is not None and change.form == "env" and not declared_env(change.target, facts):
            change = None  # a variable the version does not read: quoted, not set
        if change is None and advice.suggested is not None:
            change = suggested_call(advice.suggested, facts)
        fix = code_advice_fix(advice.text, facts) if change is None else None
        if change is None and fix is None:
            fix = advised_flag_fix(advice.text, facts.knobs)
        if (advice.implied or "").startswith(LISTED):
            if any("values the message lists" in text for text in found):
                continue  # the listed values are offered already, with what they are for
            advice = _listed_flag(advice, facts)
        advice = _case_as_flag(advice, facts)
        flag = _flag_of_fields(advice.implied, facts)
        if flag is not None and advice.kind == "input":
            # "Keep the layer in only one of `quantization_config.ignore` and ...": keys of
            # the JSON a flag takes, said where the user writes them
            implied = f"{advice.implied} (keys of the JSON you pass to `{flag}`)"
            advice = replace(advice, implied=implied, kind="setting")
        advised = Solution(
            text=advice.solution, kind=advice.kind, change=change, fix=fix, advice=True
        )
        exact = advised.kind == "setting" and (change is not None or fix is not None)
        exact = exact and not _DIAGNOSTIC.search(advice.text)
        # a setting the index knows, given its value by the message: the first way out; so
        # is what the message calls equivalent to the setting the user gave (it keeps it)
        exact = exact or IN_PLACE in (advice.implied or "")
        out.solutions.append((advised, MESSAGE_FIRST if exact else advised_rank(advised)))
        if restated:
            out.restated.append(advised.text)
    supported = supported_value_solution(facts)
    if supported is not None and not _turned(supported.knob or "", named, found, out):
        # the setting the message names, given a value it says is supported: the message's
        # own way out, first where the index knows the command line that takes it
        out.any = True
        rank = MESSAGE_FIRST if supported.fix is not None else advised_rank(supported)
        out.solutions.append((supported, rank))
    return out


def _turned(flag: str, named: set[str], found: list[str], out: Advised) -> bool:
    """Whether a way out found already turns the flag (or names it)."""
    texts = [*found, *(s.text for s, _ in out.solutions)]
    return flag in named or any(re.search(rf"{re.escape(flag)}(?![\w-])", t) for t in texts)


def _listed_flag(advice: Advice, facts: Facts) -> Advice:
    """The advice to use a listed value as `x_y`, with the flag of that name when the index
    links one to the page (`--moe-backend`): where the user gives the value."""
    implied = advice.implied or ""
    named = re.search(r"as the `([a-z]\w*)`$", implied)
    flag = f"--{named.group(1).replace('_', '-')}" if named else ""
    if not any(k.kind == KnobKind.FLAG and k.name == flag for k in facts.knobs):
        return advice
    return replace(advice, implied=f"{implied} (the flag `{flag}`)", kind="setting")


def _case_as_flag(advice: Advice, facts: Facts) -> Advice:
    """The advice with the words that name what the user set ("in place of setting enforce
    eager") as the flag of those words, when the index links it (`--enforce-eager`)."""
    implied = advice.implied or ""
    words = implied.partition(f" {IN_PLACE} ")[2]
    flag = "--" + "-".join(words.split())
    if not words or not any(k.kind == KnobKind.FLAG and k.name == flag for k in facts.knobs):
        return advice
    return replace(advice, implied=implied.replace(f" {IN_PLACE} {words}", f" {IN_PLACE} `{flag}`"))


def _flag_of_fields(implied: str | None, facts: Facts) -> str | None:
    """The flag whose JSON holds each field the instruction names in code (`a_config.key`),
    when the index links every one of them to that one flag (a name the message writes)."""
    fields = re.findall(r"`([a-z]\w*_config\.[a-z_]\w*)`", implied or "")
    flags = {
        k.name
        for k in facts.knobs
        if k.kind == KnobKind.FLAG and k.via == NAMED_IN_MESSAGE and k.behind in fields
    }
    linked = {k.behind for k in facts.knobs if k.name in flags and k.via == NAMED_IN_MESSAGE}
    return flags.pop() if fields and len(flags) == 1 and set(fields) <= linked else None


def _addressed(text: str, facts: Facts) -> bool:
    """Whether a sentence saying how a thing must be applied or called speaks to the user:
    it names a decorator the user wrote (`@model_serializer`), or the function that raises
    is one a user calls, by a path at most `MAX_MODULE_DEPTH` deep (vllm's vendored
    kernels' `plan()` is called by vllm), or one a public call hands the user's value to
    (a private function is no bar then)."""
    if text.lstrip("`'\"").startswith("@"):
        return True
    shallow = callable_by_user(facts) and shallow_call(facts) is not None
    return shallow or users_call(facts) or _users_value(facts)


def _users_value(facts: Facts) -> bool:
    """Whether the check tests a value a user passed to a public call that hands it on as
    it is, through the callers the linker recorded (`entry_input`, `entry_args`,
    `stated_entries`): a rule of a private function is then of the user's argument."""
    return facts.entry_input is not None or bool(facts.entry_args or facts.stated_entries)


def _named_setting(facts: Facts) -> Knob | None:
    """The one setting the message names (`quantization_config.targets`, linked to the
    flag whose JSON holds it): a rule the message states beside it is of the user's
    setting, however private the function that checks it."""
    named = {
        (k.name, k.behind)
        for k in facts.knobs
        if k.kind in (KnobKind.FLAG, KnobKind.ENV) and k.via == NAMED_IN_MESSAGE
    }
    if len(named) != 1:
        return None
    name, behind = named.pop()
    return next(k for k in facts.knobs if (k.name, k.behind) == (name, behind))


def _in_setting(advice: Advice, knob: Knob) -> Advice:
    """The form rule with where the user writes it: in the setting the message names (a
    key of a JSON flag's object, or the flag or variable itself)."""
    field = knob.name.lstrip("-").replace("-", "_")
    behind = knob.behind or ""
    key = behind.removeprefix(f"{field}.")
    if knob.kind == KnobKind.FLAG and key != behind:
        where = f"the key {code(key)} of the JSON you pass to {code(knob.name)}"
    elif knob.kind == KnobKind.ENV:
        where = f"the value you set {code(knob.name)} to"
    else:
        where = f"what you pass to {code(knob.name)}"
    return replace(advice, implied=f"{advice.implied} (in {where})", kind="setting")


def advised_settings(facts: Facts) -> tuple[set[str], set[str]]:
    """The settings (flags, environment variables) the message's advice names as a word: a
    way out that gives such a setting its value is the message's own, and comes first; and
    those it says not to pass ("do not pass --paged"), where leaving it out comes first."""
    advice = [
        a
        for a in message_advice(spoken_text(facts.stored.site.message))
        if not _DIAGNOSTIC.search(a.text)
    ]
    named: tuple[set[str], set[str]] = (set(), set())
    for knob in facts.knobs:
        if knob.kind not in (KnobKind.ENV, KnobKind.FLAG):
            continue
        for a in advice:
            if re.search(rf"(?<![\w-]){re.escape(knob.name)}(?![\w-])", a.text):
                named[forbids(a.text)].add(knob.name)
    return named


def advised_rank(solution: Solution) -> int:
    """The rank of what the message says: its kind's, after an exact way out of it."""
    return RANK.get(solution.kind or "input", 1) * 10 + 1


def declared_env(name: str, facts: Facts) -> bool:
    """Whether the version (or the interpreter itself) reads the environment variable (a
    knob of the site names it)."""
    if name in INTERPRETER_VARIABLES:
        return True
    return any(k.kind == KnobKind.ENV and k.name == name for k in facts.knobs)
