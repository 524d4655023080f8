"""Screenshot a page of `errdex serve` in headless Chromium (how docs/error-page.png is made).

    python scripts/web_screenshot.py --db DB PATH OUT.png [--width 1000] [--chromium BIN]

e.g. index click==8.1.7 into a scratch database, then
    python scripts/web_screenshot.py --db scratch.db /errors/d21b06bb01a9a5b1 docs/error-page.png
"""

from __future__ import annotations

import argparse
import socket
import threading
import time

import uvicorn
from playwright.sync_api import sync_playwright

from errdex.web import create_app

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("path", help="the page, e.g. /errors/<id>")
    parser.add_argument("out")
    parser.add_argument("--width", type=int, default=1000)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(args.db), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, args=ARGS)
            page = browser.new_page(viewport={"width": args.width, "height": 900})
            page.goto(f"http://127.0.0.1:{port}{args.path}")
            page.screenshot(path=args.out, full_page=True)
            browser.close()
    finally:
        server.should_exit = True
        thread.join()


if __name__ == "__main__":
    main()
