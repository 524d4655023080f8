"""A small git repository, `shop`, with three release tags whose errors change between them.

v1.0  cart.add:       ValueError "count must be positive, got {count}"
      cart.add:       KeyError   "item {item!r} is blocked"
      cart.checkout:  RuntimeError "cannot check out an empty cart"
      cart.checkout:  ValueError "total {cart.total} is over the limit of {cart.limit}"
      pay.charge:     PaymentError "card declined: balance {card.balance} is below {amount}"
v1.1  the count message is reworded; the KeyError is removed; the limit check moves to
      limits.check_limit; checkout gains a coupon error; everything in cart.py sits lower
      (a docstring and a constant above); pay.py is untouched.
v2.0  pay.py gains a helper above `charge` (its error sits lower); cart.py is untouched.

`nightly` is a tag that `--tags 'v*'` leaves out.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from errdex.cli import main
from samples import commit, git

PYPROJECT = '[project]\nname = "shop"\nversion = "0"\n'

PAY_V1 = '''
class PaymentError(Exception):
    """A card was declined."""


def charge(card, amount):
    if amount > card.balance:
        raise PaymentError(f"card declined: balance {card.balance} is below {amount}")
    card.balance -= amount
'''

PAY_V2 = '''
import logging

logger = logging.getLogger(__name__)


class PaymentError(Exception):
    """A card was declined."""


def _audit(card, amount):
    logger.info("charging %s", amount)


def charge(card, amount):
    _audit(card, amount)
    if amount > card.balance:
        raise PaymentError(f"card declined: balance {card.balance} is below {amount}")
    card.balance -= amount
'''

CART_V1 = """
def add(cart, item, count):
    if count <= 0:
        raise ValueError(f"count must be positive, got {count}")
    if item in cart.blocked:
        raise KeyError(f"item {item!r} is blocked")
    cart.items.append((item, count))


def checkout(cart):
    if not cart.items:
        raise RuntimeError("cannot check out an empty cart")
    if cart.total > cart.limit:
        raise ValueError(f"total {cart.total} is over the limit of {cart.limit}")
    return cart.total
"""

CART_V11 = '''
"""The shopping cart."""

from shop.limits import check_limit

MAX_ITEMS = 100


def add(cart, item, count):
    if count <= 0:
        raise ValueError(f"count must be a positive number, got {count}")
    cart.items.append((item, count))


def checkout(cart):
    if not cart.items:
        raise RuntimeError("cannot check out an empty cart")
    if cart.coupon is not None and cart.coupon not in cart.coupons:
        raise ValueError(f"unknown coupon {cart.coupon!r}")
    check_limit(cart)
    return cart.total
'''

LIMITS_V11 = """
def check_limit(cart):
    if cart.total > cart.limit:
        raise ValueError(f"total {cart.total} is over the limit of {cart.limit}")
"""


def line_of(text: str, needle: str) -> int:
    """The 1-based line of `needle` in a file written from `text` (dedented)."""
    for number, line in enumerate(textwrap.dedent(text).splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in the sample")


def make_shop_repo(root: Path) -> Path:
    """The repository described above, with tags v1.0, v1.1, v2.0 and nightly."""
    root.mkdir(parents=True)
    git(root, "init", "-q")
    commit(
        root,
        {
            "pyproject.toml": PYPROJECT,
            "shop/__init__.py": "",
            "shop/cart.py": CART_V1,
            "shop/pay.py": PAY_V1,
        },
        "1.0",
    )
    git(root, "tag", "v1.0")
    commit(root, {"shop/cart.py": CART_V11, "shop/limits.py": LIMITS_V11}, "1.1")
    git(root, "tag", "v1.1")
    commit(root, {"shop/pay.py": PAY_V2}, "2.0")
    git(root, "tag", "v2.0")
    commit(root, {"shop/extra.py": "def f():\n    raise OSError('nightly only')\n"}, "wip")
    git(root, "tag", "nightly")
    return root


class Indexed:
    """The repository, its database, and what `errdex index --tags 'v*' --json` printed."""

    def __init__(self, repo: Path, db: Path, reports: list[dict[str, Any]]) -> None:
        self.repo = repo
        self.db = db
        self.reports = reports

    def run(self, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
        result = CliRunner().invoke(main, [*args, "--db", str(self.db)], input=stdin)
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, result.stdout, result.stderr

    def json(self, *args: str, stdin: str | None = None) -> Any:
        code, out, err = self.run(*args, "--json", stdin=stdin)
        assert code == 0, err
        return json.loads(out)
