"""A function bound by one name to either of two imports, a compiled module's or its Python
twin's (`if not HAS_C: from ._py_util import f` / `else: from pkg.cext.util import f`): the
calls made through that name reach the Python twin, so a message's rule of its argument is
said of the public call that hands the argument on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

DB = {
    "db/__init__.py": "from db.base import Connection\n",
    "db/_has_c.py": "HAS_C = False\n",
    "db/_py_util.py": """
        def _distill(params):
            if params is None:
                return ()
            elif isinstance(params, list):
                if params and not isinstance(params[0], (tuple, dict)):
                    raise TypeError("List argument must consist only of tuples or dictionaries")
                return params
            return [params]
        """,
    "db/util.py": """
        import typing

        from ._has_c import HAS_C

        if typing.TYPE_CHECKING or not HAS_C:
            from ._py_util import _distill as _distill
        else:
            from db.cext.util import _distill as _distill
        """,
    "db/cext/__init__.py": "",
    "db/base.py": """
        from .util import _distill


        class Connection:
            def close(self):
                if self.closed:
                    raise RuntimeError("This connection is closed")

            def exec_sql(self, statement, parameters=None):
                rows = _distill(parameters)
                return statement, rows
        """,
}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("db"), "db", DB)


def test_the_python_twin_s_rule_is_said_of_the_public_call_s_argument(db: Store) -> None:
    page = page_with_message(db, "db", "List argument must consist only of tuples")
    assert page.solutions[0].text == (
        "Make the argument `parameters` of `db.Connection.exec_sql` (it reaches `_distill` "
        "as `params`) consist only of tuples or dictionaries, as the message says: “List "
        "argument must consist only of tuples or dictionaries”"
    )
