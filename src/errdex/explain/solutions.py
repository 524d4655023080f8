"""Solutions: the ways out of an error that a user can take, ranked by how directly.

A way out changes what decides a condition on the path to the site: a **setting** (a flag
or environment variable behind the condition's names), the **input** (an argument of the
public function that raises, or of the constructor that set the attribute it tests), or
the **environment** (a package whose import failed, what the message says to install).
The message's own instructions are solutions too. What no user controls (internal state,
a private helper's arguments) is no solution: it is context, said in "What it means". An
earlier guard whose other branch fails as well is no way out: taking it leads to another
error. No solution is the code's condition negated and nothing more.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

import msgspec

from errdex.explain.abstract import enforced_abstract
from errdex.explain.accepted_keywords import accepted_keywords_solution
from errdex.explain.advice_first import (
    advice_before_drops,
    advice_before_switched_off,
    advice_first,
)
from errdex.explain.advice_names import (
    failed_load_solution,
    warned_against,
)
from errdex.explain.advised import (
    BEFORE_NAMED_ONLY,
    MESSAGE_FIRST,
    RANK,
    STATED_REQUIREMENTS,
    VAGUE_SETTING,
    advised_rank,
    advised_settings,
    advised_solutions,
)
from errdex.explain.audience import callback_parameter, command_line_solution, for_author
from errdex.explain.call_order import handed_made_with_solution
from errdex.explain.callback_result import callback_result_solution
from errdex.explain.callee_advice import callee_advice_solutions
from errdex.explain.caller_guards import gated_path_entries, guarded_entries, refused_before_call
from errdex.explain.chain_branches import earlier_branch
from errdex.explain.class_attributes import attribute_solution
from errdex.explain.class_body import class_body_solution
from errdex.explain.class_hooks import annotation_solution, names_hook_argument
from errdex.explain.class_settings import class_setting_solutions
from errdex.explain.config_table import config_table_solution
from errdex.explain.context import CONTEXT_KINDS, Facts
from errdex.explain.dead_ends import dead_end, repeats_check
from errdex.explain.declared_config import config_solution
from errdex.explain.declared_rule import class_rule_solution, declared_rule_solution
from errdex.explain.decorated import decorated_solution
from errdex.explain.deprecation import replacement_first
from errdex.explain.derived_form import derived_form_solution
from errdex.explain.documented_raises import documented_raise_solution
from errdex.explain.entry_input import roots
from errdex.explain.env_assigned import env_assigned_solution
from errdex.explain.env_members import member_action
from errdex.explain.environment import (
    failed_import_solutions,
    package_solution,
    platform_solution,
)
from errdex.explain.error_status import error_status_solution
from errdex.explain.exclusive_keys import exclusive_keys_solution
from errdex.explain.exempting_settings import exempting_check
from errdex.explain.expanded import expanded
from errdex.explain.failed_call import failed_call_solutions
from errdex.explain.file_mode import file_mode_solution
from errdex.explain.filled_advice import filled_advice_solutions
from errdex.explain.filled_flags import filled_flag
from errdex.explain.first_actions import first_action
from errdex.explain.fix_forms import setting_fix
from errdex.explain.flag_values import flag_value_solutions
from errdex.explain.further_checks import past_further_checks
from errdex.explain.given_up_internal import without_internal_give_ups
from errdex.explain.given_values import given_value_solution
from errdex.explain.handed_callback import handed_solution
from errdex.explain.handed_invariants import handed_invariant
from errdex.explain.hiding_flags import hides_only, input_solution, skips_work
from errdex.explain.inferred_type import inferred_type_solution
from errdex.explain.inner_raises import inner_solution
from errdex.explain.inputs import input_action, with_chain_values
from errdex.explain.installed_method import installed_solutions
from errdex.explain.instances import instance_action
from errdex.explain.kept_fields import with_kept_fields
from errdex.explain.kept_first import drops_setting, keep_first
from errdex.explain.key_checks import key_checked
from errdex.explain.key_requirement import empties_mapping, key_requirement
from errdex.explain.knob_actions import KnobAction, knob_action
from errdex.explain.lacked_property import lacked_property_solution
from errdex.explain.literal_members import with_members
from errdex.explain.loaded_plugin import loaded_solutions
from errdex.explain.log_record import log_record_solution
from errdex.explain.made_by import made_by_solution
from errdex.explain.made_instead import made_instead_solution
from errdex.explain.maker_setting import maker_setting_solution
from errdex.explain.missing_data import missing_data_solution
from errdex.explain.mode_switch import hiding_switch
from errdex.explain.name_clash import name_clash_solution
from errdex.explain.named_cause import named_cause_solutions
from errdex.explain.named_mode import mode_parts
from errdex.explain.named_settings import named_setting_solutions
from errdex.explain.narrow_keywords import narrowing_solution
from errdex.explain.narrowing import kept_conditions
from errdex.explain.network_try import network_solutions
from errdex.explain.next_checks import next_checked
from errdex.explain.no_action import never_runs
from errdex.explain.none_goes_on import none_goes_on
from errdex.explain.not_associated import not_associated_solution
from errdex.explain.optional_stubs import needed_already
from errdex.explain.other_object import own_object_solutions
from errdex.explain.override_hatch import override_hatch_solution
from errdex.explain.overrides import override_solution
from errdex.explain.own_calls import own_call_solutions
from errdex.explain.own_code import without_own_code_fix
from errdex.explain.page import ConditionView, Knob, Solution
from errdex.explain.part_switch import decides_one_part
from errdex.explain.passed_args import passed_solutions
from errdex.explain.passthru import pass_through
from errdex.explain.pinned_settings import pinned_line
from errdex.explain.plain import code, plain_condition
from errdex.explain.raw_fields import (
    as_handed_request_field,
    as_request_field,
    raw_field_solution,
)
from errdex.explain.reached_fix import with_reached_fix
from errdex.explain.reasons_list import REASON_NAMED, tests_reasons_list
from errdex.explain.record_keyword import record_keyword_solution
from errdex.explain.refused_operation import refused_operation_solution
from errdex.explain.refused_ways import branch_refuses, setting_trips_guard
from errdex.explain.registered_name import registration_solution
from errdex.explain.request_fields import request_solutions
from errdex.explain.required_names import required_name_solutions
from errdex.explain.reraise import reraise_gate
from errdex.explain.returned_error import returned_error_solution
from errdex.explain.returned_fields import returned_conjuncts
from errdex.explain.same_error import leads_to_same_error
from errdex.explain.same_fallback import (
    left_off_here,
    machine_refused_setting,
    takes_fallback,
)
from errdex.explain.selection import selection_solutions
from errdex.explain.setters import setter_action
from errdex.explain.setting_argument import without_set_arguments
from errdex.explain.solution_notes import with_cap, with_fallback, with_fix, with_warned
from errdex.explain.state_gated import own_argument, state_gated, users_call
from errdex.explain.stated_cause import cause_solution
from errdex.explain.stated_form import stated_form_solution, states_whole_parameter
from errdex.explain.stated_order import stated_order_solution
from errdex.explain.stated_requirement import requirement_solution
from errdex.explain.stated_setting import other_keys_set, stated_setting_solution
from errdex.explain.std_streams import stream_solution
from errdex.explain.sync_sibling import counterpart_class_solution, sync_sibling_solution
from errdex.explain.tried_again import runs_tried_call
from errdex.explain.tried_input import failed_input_solutions, presence_of_tried
from errdex.explain.try_failure import no_way_out_of_try
from errdex.explain.turned_off import turned_off_solution
from errdex.explain.twins import without_twins
from errdex.explain.type_checks import merged_type_checks
from errdex.explain.unset_choice import settled_unset
from errdex.explain.user_data import user_data_solution
from errdex.explain.validators import field_value, validated, validator_solution
from errdex.explain.value_picked import value_picked_solution
from errdex.explain.visited_object import visited_object_solution
from errdex.explain.waiting_branch import waits_instead
from errdex.extract.conditions import negate
from errdex.extract.shapes import and_parts
from errdex.facts import BRANCH_KINDS, Condition, ConditionKind, SiteKind
from errdex.link.callers import MAX_PER_LEVEL
from errdex.link.expression_texts import parse_expression

MAX_SOLUTIONS = 8
_MAX_VARIANTS = 6
# Picking other code (another backend) comes after the settings that decide the check.
_SELECTION_TIER = 5
# A way out that turns off the code the check is in (`explain.loaded_plugin`): last.
_AFTER_ALL = 1_000
# Another machine or interpreter gives up where the user runs the program: after every
# other way out of its kind (the package to install, the message's own advice, which may
# name the setting that picked this code: "Use the default --load-format for this
# platform"), and so after every setting and input.
_MACHINE_TIER = 9
# What names the interpreter or the machine: `sys.platform`, `os.name`, `platform.system()`,
# `sys.version_info`, `sys.implementation`.
_PLATFORM = re.compile(
    r"\b(?:sys\.(?:platform|version_info|implementation|maxsize)|os\.name|"
    r"platform\.(?:system|machine|python_implementation)\(\))"
)


def negated(condition: ConditionView) -> Condition:
    """The condition that avoids the site: the opposite of what holds on its path."""
    try:
        node = ast.parse(condition.text, mode="eval").body
        text = ast.unparse(negate(node))
    except (SyntaxError, ValueError, RecursionError):
        text = f"not ({condition.text})"
    return Condition(
        test=condition.test,
        kind=condition.kind,
        holds=not condition.holds,
        line=condition.line,
        text=text,
    )


def opposite_words(condition: ConditionView) -> str:
    opposite = negated(condition)
    return plain_condition(opposite) or code(opposite.statement)


@dataclass
class _Ranked:
    solution: Solution
    rank: int
    order: int


class _Collector:
    def __init__(self) -> None:
        self.items: list[_Ranked] = []

    def add(self, solution: Solution, tier: int = 0, rank: int | None = None) -> None:
        if any(i.solution.text == solution.text for i in self.items):
            return
        if rank is None:
            rank = RANK.get(solution.kind or "input", 1) * 10 + tier
        self.items.append(_Ranked(solution, rank, len(self.items)))

    def named_only(self) -> bool:
        """Whether a setting is named without its value (nor the way to move it: "Change
        the flag `--enable-lora`")."""
        return any(
            i.solution.kind == "setting"
            and i.rank in VAGUE_SETTING
            and i.solution.text.startswith("Change")
            for i in self.items
        )

    def message_first(self, given: set[str], forbidden: set[str]) -> None:
        """A setting the advice names comes first: its value (or leaving it out, if forbidden)."""
        for item in self.items:
            knob = item.solution.knob
            said = knob in given or (knob in forbidden and drops_setting(item.solution))
            if item.solution.kind == "setting" and said and item.rank < 3:
                item.rank = MESSAGE_FIRST

    def ranked(self) -> list[Solution]:
        return [i.solution for i in sorted(self.items, key=lambda i: (i.rank, i.order))]


def no_way_out(condition: ConditionView, facts: Facts) -> bool:
    """A guard whose other branch fails too (raises; warns, for a warning): taking it is
    another error."""
    if condition.kind not in BRANCH_KINDS:
        return False
    warning = facts.stored.site.kind in (SiteKind.LOG, SiteKind.WARN)
    if facts.read.other_branch_fails(condition.line, condition.holds, warning):
        return True
    if branch_refuses(condition, facts):
        return True  # the other branch checks the same input again, and fails
    if any(f.line == condition.line and f.holds == condition.holds for f in facts.failing):
        return True  # the other branch hands the input to a call that fails the same way
    if waits_instead(condition, facts):
        return True  # the other branch waits for the condition the raise reports
    if runs_tried_call(condition, facts):
        return True  # the other branch runs the failed call of the `try`, unhandled
    if repeats_check(condition, facts):
        return True  # the other branch makes the same call and checks its result again
    # a re-raise's `if` whose other path shows the same error and exits
    return reraise_gate(condition, facts)


def ways_out(facts: Facts) -> list[ConditionView]:
    """The site's own conditions that a way out may change (of an assert of what a call
    just returned, its own test alone: the guards around it are no way out)."""
    held = [
        c
        for c in facts.held
        if not no_way_out(c, facts)
        and not presence_of_tried(c, facts)
        and not no_way_out_of_try(c, facts)
        and not dead_end(c, facts)  # the other branch ends in the same failure another way
        and not (c.kind in BRANCH_KINDS and branch_refuses(c, facts, surely=False))
        and not earlier_branch(c, facts.held, facts.knobs, facts.bindings)
    ]
    return kept_conditions(held, facts)


def solutions(facts: Facts) -> list[Solution]:
    """The ways out, best first; worked out once per page (the prose reads them too)."""
    if facts.solved is None:
        facts.solved = [s for s in _solutions(facts) if not _ruled_out_by_callers(s, facts)]
    return facts.solved


def _ruled_out_by_callers(solution: Solution, facts: Facts) -> bool:
    """Whether a way out through a key of a flag's JSON turns a condition of an `assert`
    that every caller the index knows (a method of the site's class) has already made
    false, testing the assert's own test in the `if` the call sits under (`if
    self.pass_config.fuse_attn_quant and ...: self.set_splitting_ops_for_attn_fusion()`,
    whose first line is `assert self.pass_config.fuse_attn_quant`): the check never fails
    from them, and the key only says what the caller tests already."""
    site = facts.stored.site
    if site.kind != SiteKind.ASSERT or solution.kind != "setting" or not solution.condition:
        return False
    direct = facts.caller_guards
    if not direct or len(direct) >= MAX_PER_LEVEL or "." not in site.function:
        return False
    # a key of a flag's JSON only: a plain flag's way out is what the page's example fix
    # and its notes (a deprecated flag's successor) are built from, and stays as it was
    behind = [k.behind for k in facts.knobs if k.name == solution.knob and k.behind and k.json_key]
    if not any(_reads(solution.condition, b) for b in behind):
        return False
    turned = parse_expression(solution.condition)
    if turned is None:
        return False
    wanted = ast.dump(negate(turned))
    owner = site.function.rpartition(".")[0]
    for caller, guard in direct:
        if not caller.guard_known or caller.function.rpartition(".")[0] != owner:
            return False
        parts = [
            ast.dump(part)
            for view in guard
            if view.holds and (test := parse_expression(view.test)) is not None
            for part in and_parts(test)
        ]
        if wanted not in parts:
            return False
    return True


def _solutions(facts: Facts) -> list[Solution]:
    through = pass_through(facts)
    if through is not None:
        # the user's own code failed: turning the re-raise off only hides it
        return [through.solution()]
    if never_runs(facts) is not None:
        return []  # a type checker's branch: no run of the program meets it
    if facts.checked_by or facts.passed_by or facts.filled is not None:
        # every caller rules the condition out first, or passes what rules it out, or
        # the value was filled in: never reached failing
        return []
    found = _Collector()
    handed: Solution | None = None  # a chain step the user's object was built with
    for failed in failed_input_solutions(facts):
        found.add(failed, rank=-1)  # the input, or the setting, the `try`'s call failed on
    tried_failed = bool(found.items)  # the `try` failed on the user's input: said already
    open_conditions = ways_out(facts)
    actions = _condition_actions(facts, open_conditions)
    internal = _internal_invariant(facts, actions)
    for condition, action in actions:
        if internal and condition.kind == ConditionKind.EARLY_EXIT:
            continue  # a mode that skips the work, not a way out of the invariant
        either = exclusive_keys_solution(condition, facts.knobs)
        if either is not None:
            found.add(either, 0)  # keys refused together: each is a way out, not the first
            continue
        if action is not None and action.unset is not None:
            # a yes/no flag left unset: the value of the two that takes no failing branch
            action = settled_unset(action, condition, facts)
            if action is None:
                continue
        if action is not None and leads_to_same_error(
            condition, action.part or condition.test, facts
        ):
            continue  # the other side raises the same error
        if action is not None and key_checked(action, facts):
            continue  # the key's value meets a check of its own in the same function
        spared = exempting_check(condition, action, facts) if action is not None else None
        if spared is not None:
            facts.exempted.append(spared)  # turned off, it leads into the check it spares
            continue
        if action is not None and none_goes_on(condition, facts) is not None:
            continue  # skips the assert, but the None it refused is used on after it
        if action is not None and decides_one_part(condition, action, facts):
            continue  # a switch of one of the parts that must all change
        if action is not None:
            action = with_kept_fields(action, condition, facts)
            action = past_further_checks(action, condition, facts)
            switch = hiding_switch(condition, action, open_conditions, facts)
            if switch is not None:
                found.add(switch, rank=50)  # a mode that skips a failing sum: hides it
                continue
            reason = f"so that {opposite_words(condition)}"
            # an earlier exit turns the feature off: the check's own settings come first
            exit_tier = 1 if condition.kind == ConditionKind.EARLY_EXIT else 0
            found.add(
                _knob_solution(action, reason, condition, facts.knobs),
                _tier(action, facts.knobs) + exit_tier,
            )
    for condition in open_conditions:
        for part in returned_conjuncts(condition, facts.returned):
            # a field of the flag's JSON that a method returns: keeps the feature on, so
            # before leaving the whole flag out
            action = knob_action(part, facts.knobs)
            if action is not None and not action.vague:
                action = with_kept_fields(action, part, facts)
                reason = f"so that {opposite_words(part)}"
                found.add(_knob_solution(action, reason, part, facts.knobs), rank=-1)
    message = facts.stored.site.message
    for condition in open_conditions:
        for part in mode_parts(condition, facts.knobs, message.text if message else None):
            # the mode the message says is needed, turned on: keeps the other part's choice
            action = knob_action(part, facts.knobs)
            if action is not None and not action.vague:
                reason = f"so that {opposite_words(part)}"
                found.add(_knob_solution(action, reason, part, facts.knobs), rank=-1)
    for condition in open_conditions:
        # a variable that must list a name, beside another way out of the same test
        listed = member_action(condition, facts)
        if listed is not None:
            reason = f"so that {opposite_words(condition)}"
            found.add(_knob_solution(listed, reason, condition, facts.knobs), 0)
    for value in flag_value_solutions(facts):
        found.add(value, rank=-1)  # the flag's value in the form the check takes
    for advice in facts.sibling_advice:  # the code's own word on a test this check shares
        found.add(advice.solution(opposite_words(advice.shared)), rank=-1)
    assigned = env_assigned_solution(facts, open_conditions)
    for usual in (*passed_solutions(open_conditions, facts), assigned):  # a value passed
        if usual is not None:
            found.add(usual, 0)
    checked = validator_solution(facts, open_conditions)
    raw = raw_field_solution(facts) if checked is None else None
    if checked is not None:
        found.add(checked, 0)  # the value the data gives a field, not the validator's argument
    else:
        if raw is not None:  # the field the message names, in the raw data: not the
            found.add(raw, 0)  # validator's argument that holds it
        elif validated(facts) is None:  # a validator's argument is no value a user passes
            # a type's method its validator hands the value's parts on to: the data and the
            # type declared, not the method's argument
            settings = class_setting_solutions(facts, open_conditions)
            for tier, setting in enumerate(settings):
                found.add(setting, min(tier, 1))
            # a visitor's argument is the object the user built: the call that builds it
            visited = None if settings else visited_object_solution(facts, open_conditions)
            # an object handed on to a compiler or executor: the calls that built it
            if visited is None and not settings:
                visited = handed = handed_made_with_solution(open_conditions, facts)
            if visited is not None:
                found.add(visited, 1)
            elif not settings:
                _add_input(found, open_conditions, facts)
    keyed_input = key_requirement(facts)
    if keyed_input is not None and not any(
        i.solution.condition == keyed_input.solution.condition for i in found.items
    ):  # a check some way out puts in words already keeps it
        # one key of the user's mapping, instead of emptying the mapping
        holder = keyed_input.holder
        found.items = [i for i in found.items if not empties_mapping(i.solution, holder, facts)]
        found.add(keyed_input.solution, 0)
    accepted = accepted_keywords_solution(facts, open_conditions)
    if accepted is not None:  # a keyword among those it accepts: before none at all
        found.add(accepted, 0)
    returned = callback_result_solution(facts, open_conditions, opposite_words)
    if returned is not None and not any(i.solution.kind == "input" for i in found.items):
        found.add(returned, 0)  # the callable the user handed the constructor
    for sent, tier in request_solutions(facts, open_conditions):
        found.add(sent, tier)  # a field of the request the user sends
    for ours, tier in own_object_solutions(open_conditions, facts):
        found.add(ours, tier)
    if not any(i.solution.kind == "input" and not hides_only(i.solution) for i in found.items):
        for ours in own_call_solutions(open_conditions, facts):  # which argument, which order
            found.add(ours, 1)  # after the call the message says to make first
    given = given_value_solution(facts) or class_body_solution(facts)
    formed = None if given is not None else stated_form_solution(facts)
    given = given or formed
    given = given or narrowing_solution(facts, open_conditions) or missing_data_solution(facts)
    # (a request's field left out skips the check: the value the input must have is said too)
    if given is not None and not any(
        i.solution.kind == "input" and not i.solution.drops for i in found.items
    ):
        found.add(given, 1)
    made = (annotation_solution(facts), attribute_solution(facts), config_solution(facts))
    refused = refused_operation_solution(facts)  # an operation the class always refuses
    for defined in (*made, stream_solution(facts), refused):
        # the user's class being made: a name of its body, an attribute; the configuration
        # the user's subclass declares; the standard stream the user's process holds
        if defined is not None:
            found.add(defined, 0)
    logged = log_record_solution(facts)  # the exception the user's log call gave its record
    if logged is not None:  # before the handler's switch that gives up what it was asked
        found.add(logged, -1)
    for declared in (
        registration_solution(facts),
        handed_solution(facts),
        decorated_solution(facts),
        *installed_solutions(facts),
    ):
        # a name the user registers; what their callable did; what they decorate; what a
        # method their decorator gives their class reads of it
        if declared is not None:
            found.add(declared, 0)
    clash = name_clash_solution(facts) or returned_error_solution(facts)
    clash = clash or inferred_type_solution(facts)
    clash = clash or record_keyword_solution(facts)  # a field of the record the user built
    clash = clash or declared_rule_solution(facts)  # the message's rule on a declaration
    clash = clash or config_table_solution(facts)  # a key of the user's TOML config file
    if clash is not None:
        found.add(clash, 0)  # the message names the user's own name: before a helper's input
    replaced = override_solution(facts)
    if replaced is not None and enforced_abstract(facts) is None:  # else no subclass lacks it
        found.add(Solution(text=replaced, kind="input"), 0)
    hatch = override_hatch_solution(facts)  # the subclass the library's docstring invites
    hatch = hatch or made_by_solution(facts)  # the class that makes the one checked
    if hatch is not None:
        found.add(hatch, 0)
    instead = made_instead_solution(facts)  # the data's form the parse makes the class of
    if instead is not None and not any(i.solution.kind == "input" for i in found.items):
        found.add(instead, 0)
    lacked = lacked_property_solution(facts)  # what the error's class says the value is not
    if lacked is not None:
        found.add(lacked, 0)
    maker = maker_setting_solution(facts)  # the switch of the one object that makes it
    if maker is not None:  # not the argument a user never gives: the maker gives it
        found.items = [
            i
            for i in found.items
            if i.solution.kind != "input" or i.solution.condition != maker.condition
        ]
        found.add(maker, 0)
    counterpart = sync_sibling_solution(facts) or counterpart_class_solution(facts)
    for sibling in (counterpart, stated_order_solution(facts), not_associated_solution(facts)):
        if sibling is not None:  # a sync sibling, or the call the message says to make first
            found.add(sibling, 0)
    _add_environment(found, open_conditions, facts)
    _add_platform(found, open_conditions)
    for entry in [] if internal else guarded_entries(facts):
        if refused_before_call(entry, facts):
            continue  # the caller raises on that value first (with another setting)
        action = with_kept_fields(entry.action, entry.condition, facts)
        solution = _knob_solution(action, entry.reason, entry.condition, facts.knobs)
        found.add(solution, _tier(entry.action, facts.knobs))
    for variant in facts.variants[:_MAX_VARIANTS]:
        held = [c for c in variant.conditions if c.kind not in CONTEXT_KINDS]
        prefix = f"{REASON_NAMED} “{variant.reason}”: "
        for condition in reversed(held):
            if dead_end(condition, facts):
                continue  # a way out that ends in the same failure another way
            action = knob_action(condition, facts.knobs, either=True)
            if action is not None:
                reason = f"so that {opposite_words(condition)}"
                solution = _knob_solution(action, reason, condition, facts.knobs, prefix)
                found.add(solution, _tier(action, facts.knobs))
                break
    status = error_status_solution(facts)
    for failed in (*failed_import_solutions(facts), *network_solutions(facts)):
        found.add(failed, 2)  # what the `try` did: an import, a request to a URL's host
    if status is not None:
        found.add(status, 2)  # the server's answer to the request: the request to check
    loaded = failed_load_solution(facts)
    if loaded is not None:
        found.add(loaded, 1)
    settled = any(i.solution.kind == "setting" for i in found.items)
    for solution in named_setting_solutions(facts, settled):
        found.add(solution, 1)
    named = {i.solution.knob for i in found.items if i.solution.knob}
    said = advised_solutions(facts, named, [i.solution.text for i in found.items])
    named_only = found.named_only()
    spoken = [s for s, _ in said.solutions]
    for solution, rank in said.solutions:
        # before a setting named without its value, which often only turns the feature off
        found.add(solution, rank=min(rank, BEFORE_NAMED_ONLY) if named_only else rank)
    required_said = False
    for name, solution in required_name_solutions(facts):
        # the name the message says is required, where the user gives it; not one a way out
        # found already names
        if name in named or any(f"`{name}`" in i.solution.text for i in found.items):
            continue
        found.add(solution, rank=advised_rank(solution))
        spoken.append(solution)
        required_said = True
    advised = said.any or required_said
    turned = turned_off_solution(facts)
    if turned is not None and turned.knob is not None:
        # said as the flag's key, it takes the place of the plain way through that key
        found.items = [i for i in found.items if not _turns_same(i.solution, turned)]
    if turned is not None and all(i.solution.condition != turned.condition for i in found.items):
        # the user's setting the code turns off on this machine: leaving it off is theirs
        found.add(turned, rank=advised_rank(turned))
    if advised and handed is not None:
        # the message's own way past: leaving out a step of the user's chain (its `where()`)
        # would change what the statement does
        found.items = [i for i in found.items if i.solution is not handed]
    # what the message says the user's argument or subclass must be: its advice as well
    # (a type or a range the advice restates gives way to it: `said.restated`)
    # the stated form quotes the whole message: where its subject is the parameter itself,
    # the rule the message states says the same more exactly and takes its place (of a part
    # of it, "color components" of `color`, the form stays and the rule is not said)
    rule_said = formed is not None and states_whole_parameter(facts)
    quoted = [
        i.solution.text
        for i in found.items
        if i.solution.text not in said.restated and not (rule_said and i.solution is formed)
    ]
    required = requirement_solution(facts, quoted)
    if required is not None and rule_said:
        found.items = [i for i in found.items if i.solution is not formed]
    if required is not None:
        found.add(required, rank=advised_rank(required))
        spoken.append(required)
        facts.memo.setdefault(STATED_REQUIREMENTS, []).append(required.text)
    # what the message says the flag's keys must be
    quoted = [i.solution.text for i in found.items if i.solution.text not in said.restated]
    stated = stated_setting_solution(facts, quoted)
    if stated is not None and not any(
        i.solution.knob == stated.solution.knob
        and not i.solution.drops  # a key turned off: what the message asks may keep it on
        and not other_keys_set(i.solution, stated.keys)
        for i in found.items
    ):
        found.add(stated.solution, rank=advised_rank(stated.solution))
        spoken.append(stated.solution)
    opened = file_mode_solution(facts)  # the mode of the file the user opened, as it says
    if opened is not None:
        found.add(opened, rank=advised_rank(opened))
        spoken.append(opened)
        advised = True  # the mode to open the file in: before the argument it is handed as
    cause = cause_solution(facts)  # a setting the message names as what can cause it
    if cause is not None and all(i.solution.knob != cause.knob for i in found.items):
        found.add(cause, rank=advised_rank(cause))
        spoken.append(cause)
    if not any(i.solution.kind == "input" for i in found.items):
        # the value itself, when nothing says more of what to pass
        data = user_data_solution(facts, open_conditions, field_value(facts))
        if data is not None:
            found.add(data, 2)
    if facts.entry_input is not None and not _entry_said(found, facts):
        # before an internal function's own argument; after what the message says to do,
        # or the form it states the argument must take
        found.add(facts.entry_input, 2 if advised or formed is not None else 0)
    for solution in callee_advice_solutions(facts):
        found.add(solution, 1)
    for solution in filled_advice_solutions(facts):  # the advice its callers hand it
        found.add(solution, 1)
    inner = inner_solution(facts)
    if inner is not None and not advised:
        found.add(inner, 1)
    picked = facts.value_picked
    chosen = value_picked_solution(picked, facts.stored) if picked is not None else None
    if chosen is not None:
        found.add(chosen, _SELECTION_TIER)
    # another backend alone names one that must support the value that picked this code
    for solution in selection_solutions(
        facts.stored,
        others=picked.others if picked is not None else None,
        fitting=facts.stand_ins,
    ):
        found.add(solution, _SELECTION_TIER)
    if not tried_failed and not network_solutions(facts):
        _add_failed_call(found, facts, advised, checked is not None)
    # code only a setting's registered names load: another name turns it off
    for solution in loaded_solutions(facts.stored):
        found.add(solution, rank=_AFTER_ALL)
    found.message_first(*advised_settings(facts))
    ruled = None if found.items else class_rule_solution(facts)
    if ruled is not None:
        # the message's rule on the user's class, checked while Python creates it: where
        # nothing else is offered (its own advice is said first, and whole)
        found.add(ruled, 0)
    keep_first(found.items, facts)  # what keeps the user's choice before what drops it
    kept = []
    ranked = advice_first(found.ranked(), spoken, facts)
    # the authors' way to keep what the user asked for before giving it up
    ranked = advice_before_drops(ranked, spoken)
    # and before a switch the user turned on, turned off
    ranked = advice_before_switched_off(ranked)
    # a before-validator's data is the request body: its keys are the request's fields
    ranked = [as_handed_request_field(as_request_field(s, facts), facts) for s in ranked]
    for solution in replacement_first(ranked, facts):
        # a comment warns against what the setting does when on (disabling, skipping,
        # enabling): a way out that leaves it off does not do that
        warning = None if solution.drops else _warning(solution.knob, facts)
        if warning is None:
            kept.append(solution)
        else:
            facts.refused.append((solution, warning))
    kept = [with_warned(with_cap(with_fallback(s, facts), facts), facts) for s in kept]
    # what Python hands a class-creation hook is the `class` statement, no call's argument
    kept = [s for s in kept if not names_hook_argument(s, facts)]
    kept = without_twins(kept, facts)
    kept = state_gated(kept, facts)  # an internal function's own arguments
    kept = without_internal_give_ups(kept, facts)  # None for an application's own argument
    kept = without_set_arguments(kept, facts)  # a setting decides the same: its way out
    # a setting that makes true a guard the page calls no way out: "What it means" says so
    facts.tripped = [(s, line) for s in kept if (line := setting_trips_guard(s, facts))]
    kept = [s for s in kept if all(s is not t for t, _ in facts.tripped)]
    # a setting the constructor requires to hold one value: any change fails there
    kept = [s for s in kept if pinned_line(s, facts) is None]
    # an assertion tying a setting to what the function is handed: the code's own invariant
    kept = [s for s in kept if not handed_invariant(s, facts)]
    # a way out of a warning that only takes the fallback it announces: said there
    # (a setting the message itself names stays: its own word on how to quiet it)
    fallen = [s for s in kept if takes_fallback(s.condition, facts)]
    # (the user's own setting that asks for what this machine cannot run stays: leaving it
    # off, before changing the machine)
    off_here = [s for s in fallen if machine_refused_setting(s, kept, facts)]
    fallen = [s for s in fallen if all(s is not o for o in off_here)]
    kept = [left_off_here(s) if any(s is o for o in off_here) else s for s in kept]
    named = set().union(*advised_settings(facts)) if fallen else set()
    facts.fallen = [s for s in fallen if s.knob not in named]
    kept = [s for s in kept if all(s is not f for f in facts.fallen)]
    # another mode the config's own check refuses beside what the user gave: said there
    refusing = {r.condition for r in facts.refused_modes}
    kept = [s for s in kept if s.condition not in refusing]
    # an argument's new value must meet the function's other checks of it
    kept = [n for s in kept if (n := next_checked(s, facts)) is not None]
    if not internal:
        kept = _with_gated_paths(kept, facts)
    # a flag left out whose field the code fills with a default object: "What it means"
    kept = [s for s in kept if not filled_flag(s, facts)]
    if any(s.text not in said.restated for s in kept):
        # what the message states a value must be, said again: another way out names the
        # argument or the key it is of
        kept = [s for s in kept if s.text not in said.restated]
    command_line = command_line_solution(facts)
    if command_line is not None:
        # most who see a usage error typed the command: their way out first, the author's
        # ways out through the code said to be theirs
        # a callback's arguments are the framework's to pass, no author's: only the
        # command line is an input way out then
        callback = callback_parameter(facts) is not None
        kept = [s for s in kept if not (callback and s.kind == "input")]
        kept = [command_line, *(for_author(s) if s.kind == "input" else s for s in kept)]
    # a switch that turns the raise into a None, or skips the check, hides the error
    # without avoiding it: no way out, said in "What it means"
    facts.hidden = [s for s in kept if hides_only(s)]
    kept = [s for s in kept if not hides_only(s)]
    documented = None if kept else documented_raise_solution(facts)
    if documented is not None:
        kept = [documented]  # the docstring's rule, where no rule on the code says more
    derived = None if kept else derived_form_solution(facts)
    if derived is not None:
        # the message's rule on the argument the check sees only through locals made from
        # it, where nothing else is said
        kept = [derived]
    if not kept:
        # what the message names as a cause in the user's doing: not doing it
        kept = named_cause_solutions(facts)
    # a setting's fix carries the other settings the check needs, or is not drawn
    # and a fix that calls the package's own code is not drawn
    return [
        without_own_code_fix(with_reached_fix(with_fix(s, facts), facts), facts)
        for s in kept[:MAX_SOLUTIONS]
    ]


def _turns_same(solution: Solution, turned: Solution) -> bool:
    """Whether `solution` is the plain way through the flag `turned` names, for the
    setting `turned` tests (its condition reads `turned.condition`, `self.X`)."""
    if solution is turned or solution.knob != turned.knob or turned.condition is None:
        return False
    pattern = rf"(?<![\w.]){re.escape(turned.condition)}(?!\w)"
    return re.search(pattern, solution.condition or "") is not None


def _reads(text: str, name: str) -> bool:
    """Whether `text` reads the dotted name `name` (not a longer name ending in it)."""
    return re.search(rf"(?<![\w.]){re.escape(name)}(?![\w(])", text) is not None


def _with_gated_paths(kept: list[Solution], facts: Facts) -> list[Solution]:
    """`kept` with the settings every path into the function tests true turned off
    (`caller_guards.gated_path_entries`): they drop the feature, so they come after every
    way out that keeps it, and before the function's own arguments when the package does
    not hand it to users (no user passes those)."""
    named = {s.knob for s in kept if s.knob}
    extra = [
        # the flag's other fields the site's path holds, kept in the fix (or it reaches not)
        _knob_solution(
            with_kept_fields(entry.action, entry.condition, facts),
            entry.reason,
            entry.condition,
            facts.knobs,
        )
        for entry in gated_path_entries(facts)
        if entry.action.knob not in named
    ]
    if not extra:
        return kept
    at = len(kept)
    if not users_call(facts):
        while at > 0 and own_argument(kept[at - 1], facts):
            at -= 1
    return [*kept[:at], *extra, *kept[at:]]


def _add_failed_call(found: _Collector, facts: Facts, advised: bool, data_said: bool) -> None:
    """What the `try` around a raise under `except` did that failed (`failed_call.py`),
    unless a way out says it already (names the call: `int(v)` of "a value that `int(v)`
    accepts"); what the failed call's error names, for a raise of another class `from` it,
    only when nothing else is offered (its own message and class say more). Where the
    validator rule said the field's value (`data_said`), a call on the validator's value
    is said by it: that value is no argument a user passes."""
    others = [i.solution.text for i in found.items if not hides_only(i.solution)]
    value = validated(facts) if data_said else None
    for solution, rank, alone, call in failed_call_solutions(facts, advised):
        if any(f"`{call}`" in text for text in others) or (alone and others):
            continue
        if value is not None and value.value in roots(call):
            continue
        found.add(solution, rank=rank)


def _condition_actions(
    facts: Facts, open_conditions: list[ConditionView]
) -> list[tuple[ConditionView, KnobAction | None]]:
    """Each open condition with the action of the first setting behind it (or behind
    what its names stand for)."""
    return [
        (condition, first_action(condition, facts))
        for condition in open_conditions
        if not tests_reasons_list(condition, facts)
    ]  # a reasons list is non-empty: the reasons below say why


def internal_invariant(facts: Facts) -> bool:
    """Whether the site is an `assert` on internal state (see `_internal_invariant`): its
    early exits and callers' guards are no way out, nor their settings' fixes."""
    if facts.stored.site.kind != SiteKind.ASSERT:
        return False
    return _internal_invariant(facts, _condition_actions(facts, ways_out(facts)))


def _internal_invariant(
    facts: Facts, actions: list[tuple[ConditionView, KnobAction | None]]
) -> bool:
    """Whether the site is an `assert` on internal state: no setting decides what it tests.
    A setting that only makes its function return early (a mode that skips the work:
    `--mm-encoder-only` before a profiling batch's `assert sum(...) == num_tokens`) or keeps
    a caller from calling it is no way out of an invariant the program itself breaks. One
    that picks the branch the assert is in (a pack strategy whose branch checks the world
    size) still is: the other branch is other code, as another backend is."""
    if facts.stored.site.kind != SiteKind.ASSERT:
        return False
    return not any(
        action is not None and condition.kind == ConditionKind.ASSERT
        for condition, action in actions
    )


def _entry_said(found: _Collector, facts: Facts) -> bool:
    """Whether an input solution already names the public call `entry_input` would (with
    the value to pass, `entry_args`)."""
    return any(
        f"of {entry.named()} (it reaches " in item.solution.text
        for entry in facts.entry_args.values()
        for item in found.items
    )


def _add_input(found: _Collector, conditions: list[ConditionView], facts: Facts) -> None:
    """The input that avoids the check itself: the innermost condition on the input. An
    earlier exit (`if color == "default": return`) is a special case the function handles
    first: taking it is a way out only when the check itself is not on the input."""
    checks = [c for c in conditions if c.kind != ConditionKind.EARLY_EXIT]
    # an exit for one value (`if color == "default": return`) is a special case, not a fix
    exits = [c for c in conditions if c.kind == ConditionKind.EARLY_EXIT and " != " not in c.text]
    merged = merged_type_checks(conditions)
    for group in (checks, exits):
        for condition in reversed(group):
            check = merged.get(condition.line, condition)
            given = input_action(check, facts)
            if given is None:
                wide = expanded(check, facts)
                given = input_action(wide, facts) or input_action(with_members(wide, facts), facts)
            given = given or instance_action(check, facts)
            if given is not None:
                given = with_chain_values(given, condition, group, merged, facts)
                solution, way_out = input_solution(given, condition, facts)
                if way_out and skips_work(condition, facts):
                    continue  # an input that only skips the work asked: no way out
                found.add(solution, 1 if way_out else 50)  # one that hides the error: last
                if way_out:
                    return
    for condition in reversed(checks):
        called = setter_action(condition, facts)
        if called is not None:
            found.add(input_solution(called, condition, facts)[0], 1)
            return


def refused(knob_name: str | None, facts: Facts) -> bool:
    """Whether a comment beside the check (above the site or one of its conditions) warns
    against what the setting does: such a way out is one the code refuses."""
    return _warning(knob_name, facts) is not None


def _warning(knob_name: str | None, facts: Facts) -> str | None:
    knob = next((k for k in facts.knobs if k.name == knob_name), None) if knob_name else None
    lines = [c.line for c in facts.conditions]
    return warned_against(knob, facts, lines) if knob is not None else None


def _add_environment(found: _Collector, conditions: list[ConditionView], facts: Facts) -> None:
    """An optional package the path finds missing; a machine the check asks for."""
    for condition in conditions:
        package = package_solution(condition, facts.knobs, facts)
        also = ""
        if package is None:
            package, also = _package_among_either(condition, facts)
        if package is not None and not needed_already(facts, package[1].behind or ""):
            text, knob = package
            found.add(
                Solution(
                    text=f"{text}{also}.",
                    knob=knob.name,
                    condition=condition.text,
                    kind="environment",
                ),
                0,
            )
            continue
        local = {b.name: b.value for b in facts.bindings if b.origin == "local"}
        machine = platform_solution(condition, facts.knobs, local)
        if machine is not None:
            found.add(
                Solution(text=f"{machine}.", condition=condition.text, kind="environment"),
                _MACHINE_TIER,
            )


def _package_among_either(
    condition: ConditionView, facts: Facts
) -> tuple[tuple[str, Knob] | None, str]:
    """`not cache.is_cuda or not HAS_TRITON`: every part must be false to avoid the check,
    so installing the package is a way out with the other parts said beside it."""
    node = parse_expression(condition.text)
    if not (isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or)):
        return None, ""
    parts = [
        msgspec.structs.replace(condition, text=ast.unparse(v), plain=None) for v in node.values
    ]
    if {p.text for p in parts} & {c.text for c in facts.held if c.line != condition.line}:
        return None, ""  # a part the path holds elsewhere cannot be made false
    for index, part in enumerate(parts):
        package = package_solution(part, facts.knobs, facts)
        if package is None:
            continue
        others = [opposite_words(p) for i, p in enumerate(parts) if i != index]
        return package, "; the check also asks that " + " and ".join(others)
    return None, ""


def _add_platform(found: _Collector, conditions: list[ConditionView]) -> None:
    """A condition on the interpreter or the platform: run it where the condition is false."""
    for condition in conditions:
        machine = _platform_part(condition)
        if machine is None:
            continue
        if any(i.solution.condition == condition.text for i in found.items):
            continue  # put in words already
        found.add(
            Solution(
                text=f"Run it where {opposite_words(machine)}: this checks the platform "
                "or the Python version, not your input.",
                condition=condition.text,
                kind="environment",
            ),
            _MACHINE_TIER,
        )


def _platform_part(condition: ConditionView) -> ConditionView | None:
    """The part of `condition` that reads only the interpreter or the platform and whose
    opposite avoids the check: all of it, or the conjuncts of an `and` that do. A test of
    a value (`origin_type is Literal`, `isinstance(x, T)`) beside a version test is the
    input's: "run it where" a type is `Literal` is nothing a user can do. None when no
    such part is there."""
    if not _PLATFORM.search(condition.text):
        return None  # most conditions: no parse
    node = parse_expression(condition.text)
    if node is None:
        return None
    if _machine_only(node):
        return condition
    if not (isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)):
        return None
    # any conjunct false avoids the check: the ones on the machine alone are a way out
    parts = [v for v in node.values if _machine_only(v)]
    if not parts:
        return None
    kept = parts[0] if len(parts) == 1 else ast.BoolOp(op=ast.And(), values=parts)
    return msgspec.structs.replace(condition, text=ast.unparse(kept), plain=None)


def _machine_only(node: ast.expr) -> bool:
    """Whether each test of `node` (the operands of its `and`, `or` and `not`) reads the
    interpreter or the platform."""
    if isinstance(node, ast.BoolOp):
        return all(_machine_only(v) for v in node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _machine_only(node.operand)
    return _PLATFORM.search(ast.unparse(node)) is not None


def _tier(action: KnobAction, knobs: list[Knob]) -> int:
    """An action with the value to set comes before one that only names the setting; a
    yes/no key of a flag's JSON turned off gives its feature up, and several settings
    turned together ask more than one: after what the message says of the keys
    (`advised_rank`), which keeps them. A setting only some callers' paths
    give (`Knob.among_others`) comes after one every caller agrees on."""
    later = 1 if _among_others(action, knobs) is not None else 0
    if action.key_turned_off or action.joined > 1:
        # (several settings turned at once: after any way that turns one)
        return 2 + later
    return (3 if action.vague else 0) + later


def _among_others(action: KnobAction, knobs: list[Knob]) -> Knob | None:
    """The knob of the action when every knob of its name is given on some callers'
    paths only (`KnobLink.among_others`)."""
    named = [k for k in knobs if k.name == action.knob]
    return named[0] if named and all(k.among_others for k in named) else None


def _knob_solution(
    action: KnobAction,
    reason: str,
    condition: ConditionView,
    knobs: list[Knob],
    prefix: str = "",
) -> Solution:
    if action.part is not None and reason.startswith("so that"):
        part = ConditionView(
            text=action.part, test=action.part, kind=condition.kind, holds=True, line=condition.line
        )
        reason = f"so that {opposite_words(part)}"
    text = action.text if not prefix else prefix + action.text[0].lower() + action.text[1:]
    aside = f" {action.aside}" if action.aside else ""
    partial = _among_others(action, knobs)
    if partial is not None:
        # the setting reaches the check on some callers' paths; the others give a value
        # the link did not follow
        aside += (
            f" One way among others: not every call that gives "
            f"{code(partial.behind or partial.name)} "
            f"takes it from this setting."
        )
    return Solution(
        text=f"{text} ({reason}).{aside}",
        knob=action.knob,
        condition=condition.text,
        kind="setting",
        fix=setting_fix(action, condition, knobs),
        drops=action.drops,
        turns_off=action.off,
    )
