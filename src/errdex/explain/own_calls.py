"""Ways out through the user's own code around the call that raised: two arguments given
together (`given_together`), a call made after a public method put the object in the state
the check refuses (`call_order`) or cleared the attribute it needs (`cleared_state`), or
before one put it in the state it needs (`call_first`), a second call of a method that uses
its object up (`single_use`), a second `with` block on an object entered, used or closed
before (`reentry`), a class made through its constructor where its class methods make it
(`private_init`), a switch of the public function that made the function that raises
(`closure_switch`) or an argument of it the raising one reads (`closure_param`), a
constructor's argument it hands to a private method that checks it (`init_passed`) or whose
contents it checks (`init_contents`), or an attribute the constructor made of it through
such a method (`init_results`), a call the message says does not fit the signature, in
Python's own words (`call_shape`), a read of a module's stack made where nothing pushed an
item (`pushed_state`), a part of the value given that closes what no earlier part opened
(`closed_unopened`), a protocol method of the user's object that returned what the package's
call refuses (`hook_result`), a method that takes an item off the object's own stack called
more often than the one that puts it there (`paired_calls`), a method of a stand-in the
package makes only while unpickling an object (`unpickled`), an assignment the object's own
validators refused (`own_validators`)."""

from __future__ import annotations

from errdex.explain.call_first import first_call_solution
from errdex.explain.call_order import made_with_solution, state_order_solution
from errdex.explain.call_shape import call_shape_solution
from errdex.explain.cleared_state import cleared_state_solution
from errdex.explain.closed_unopened import closed_unopened_solution
from errdex.explain.closure_param import closure_param_solution
from errdex.explain.closure_switch import closure_switch_solution
from errdex.explain.context import Facts
from errdex.explain.given_together import given_together_solution
from errdex.explain.hook_result import hook_result_solution
from errdex.explain.init_contents import init_contents_solution
from errdex.explain.init_passed import init_passed_solution
from errdex.explain.init_results import init_result_solution
from errdex.explain.own_validators import own_validators_solution
from errdex.explain.page import ConditionView, Solution
from errdex.explain.paired_calls import paired_call_solution
from errdex.explain.private_init import private_init_solution
from errdex.explain.pushed_state import pushed_state_solution
from errdex.explain.reentry import reentry_solution
from errdex.explain.single_use import single_use_solution
from errdex.explain.unpickled import unpickled_solution


def own_call_solutions(conditions: list[ConditionView], facts: Facts) -> list[Solution]:
    """The ways out the user's own calls take, best first."""
    order = (
        state_order_solution(conditions, facts)
        or cleared_state_solution(conditions, facts)
        or single_use_solution(conditions, facts)
    )
    found = [
        given_together_solution(conditions, facts),
        order,
        reentry_solution(conditions, facts),
        # a public method's call made before the state is set: `order` says it already
        made_with_solution(conditions, facts) if order is None else None,
        first_call_solution(conditions, facts),
        paired_call_solution(conditions, facts),
        private_init_solution(facts),
        closure_switch_solution(conditions, facts),
        closure_param_solution(conditions, facts),
        init_passed_solution(conditions, facts) or init_contents_solution(conditions, facts),
        init_result_solution(conditions, facts),
        call_shape_solution(facts),
        pushed_state_solution(facts),
        closed_unopened_solution(facts),
        hook_result_solution(facts),
        unpickled_solution(facts),
        own_validators_solution(facts),
    ]
    return [s for s in found if s is not None]
