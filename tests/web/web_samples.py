"""Sample packages for the web tests, indexed into a real SQLite file, and real tracebacks.

`shop` has two versions (an error moves between them, another is reworded); `evil`'s
messages, code and project name are full of HTML that must reach every page as text.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from errdex.indexing import index_source
from errdex.indexing.cache import FactsCache
from errdex.sources import open_source
from errdex.store import Store, open_store
from samples import write_package

SHOP_ERRORS = """
    class ShopError(Exception):
        pass

    class OutOfStock(ShopError):
        def __init__(self, item, left):
            super().__init__(f"Only {left} of {item!r} left in stock")
    """

SHOP_CART = textwrap.dedent(
    """
    from shop.errors import OutOfStock

    def add(cart, item, count, stock):
        if count <= 0:
            raise ValueError(f"count must be positive, got {count}")
        if stock[item] < count:
            raise OutOfStock(item, stock[item])
        if count > LIMIT:
            raise ValueError(f"at most {LIMIT} of {item} per order")

    def remove(cart, item):
        if item not in cart:
            raise KeyError(f"{item} is not in the cart")
    """
)

SHOP_LEGACY = """
    def clear(cart):
        if not cart:
            raise RuntimeError("the cart is already empty")
    """

# 1.1 moves everything two lines down, rewords the order limit and drops `shop.legacy`.
SHOP_VERSIONS = {
    "1.0": {
        "shop/errors.py": SHOP_ERRORS,
        "shop/cart.py": "LIMIT = 100\n" + SHOP_CART,
        "shop/legacy.py": SHOP_LEGACY,
    },
    "1.1": {
        "shop/errors.py": SHOP_ERRORS,
        "shop/cart.py": ("LIMIT = 200\n\n\n" + SHOP_CART).replace(
            "at most {LIMIT} of {item} per order", "orders hold at most {LIMIT} of {item}"
        ),
    },
}

EVIL_PROJECT = 'x<i onclick="window.pwned=7">ss'
EVIL_SCRIPT = "<script>window.pwned = 1</script>"
EVIL = {
    "evil/__init__.py": "",
    "evil/core.py": """
        import logging

        log = logging.getLogger(__name__)

        # </code></pre><script>window.pwned = 6</script>
        def render(name):
            if not name:
                raise ValueError("<script>window.pwned = 1</script> name is empty")
            if "<" in name:
                raise ValueError(
                    f'bad name <b>{name}</b> & "quotes" <img src=x onerror="window.pwned=2">'
                )
            log.error("</pre><script>window.pwned=3</script> rendering %s", name)

        def check(x):
            assert x, "<iframe src=javascript:window.pwned=4></iframe>"
        """,
}
# What `render` gets in the real traceback: its value lands in the search page too.
EVIL_NAME = "<script>window.pwned=5</script>"


@dataclass(frozen=True)
class Catalog:
    db: str
    root: Path


def build_catalog(root: Path, *, packaging: bool = False, db: str | None = None) -> Catalog:
    """Index shop 1.0 and 1.1 and the evil package (and, asked, the installed `packaging`)
    into `db` (a PostgreSQL URL, say), else a SQLite file under `root`."""
    db = db or str(root / "errdex.db")
    store = open_store(db)
    try:
        for version, files in SHOP_VERSIONS.items():
            index_package(store, root / f"shop-{version}", files, "shop", version)
        index_package(store, root / "evil", EVIL, EVIL_PROJECT, "6.6.6")
        if packaging:
            index_source(open_source("installed:packaging"), store, cache=facts_cache(root))
    finally:
        store.close()
    return Catalog(db=db, root=root)


def facts_cache(root: Path) -> FactsCache:
    return FactsCache(root / "facts.sqlite3")


def index_package(
    store: Store, folder: Path, files: Mapping[str, str], project: str, version: str
) -> None:
    """Write `files` as a package in `folder` and index it as `project` `version`."""
    source = write_package(folder, files)
    index_source(
        open_source(str(source), project=project, version=version),
        store,
        cache=facts_cache(folder.parent),
    )


def real_traceback(code: str, path: Path | None = None) -> str:
    """The traceback Python prints when `code` fails, run for real in a child process."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode != 0 and "Traceback" in done.stderr, done.stderr
    return done.stderr
