"""A real package index on loopback for tests: PEP 691 JSON and PEP 503 HTML pages over the
files of a folder, served by the standard library's HTTP server in a thread.

It stands in for the public index, which CI may not reach; the client talks to it over real
HTTP exactly as it would to any index.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import tarfile
import threading
import zipfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from packaging.utils import canonicalize_name, parse_sdist_filename, parse_wheel_filename

JSON_TYPE = "application/vnd.pypi.simple.v1+json"


def project_of(filename: str) -> str:
    """The normalized project name a wheel or sdist file name spells."""
    if filename.endswith(".whl"):
        return str(parse_wheel_filename(filename)[0])
    return str(parse_sdist_filename(filename)[0])


class LocalIndex:
    """The files of `folder` as an index; `html_only` answers PEP 503 HTML whatever is asked,
    `bad_hash` names files whose listed sha256 is wrong, `requests` logs every path asked."""

    def __init__(self, folder: Path, *, html_only: bool = False) -> None:
        self.folder = folder
        self.html_only = html_only
        self.bad_hash: set[str] = set()
        self.extra_names: list[str] = []  # listed but not served (an .egg, say)
        self.uploaded: dict[str, str] = {}  # a file's `upload-time`, in the JSON answer
        self.requests: list[str] = []
        self.url = ""

    def files_of(self, project: str) -> list[dict[str, object]]:
        entries: list[dict[str, object]] = []
        names = [p.name for p in sorted(self.folder.iterdir())] + self.extra_names
        for name in names:
            try:
                if project_of(name) != project:
                    continue
            except ValueError:
                if not name.startswith(project.replace("-", "_")):
                    continue
            path = self.folder / name
            digest = hashlib.sha256(path.read_bytes() if path.exists() else b"").hexdigest()
            if name in self.bad_hash:
                digest = "0" * 64
            entries.append({"filename": name, "url": f"../../files/{name}", "sha256": digest})
        return entries

    def page(self, project: str, want_json: bool) -> tuple[str, bytes] | None:
        files = self.files_of(project)
        if not files:
            return None
        if want_json and not self.html_only:
            body = {
                "meta": {"api-version": "1.1"},
                "name": project,
                "files": [
                    {
                        "filename": f["filename"],
                        "url": f["url"],
                        "hashes": {"sha256": f["sha256"]},
                        **self._upload_time(str(f["filename"])),
                    }
                    for f in files
                ],
            }
            return JSON_TYPE, json.dumps(body).encode()
        links = "".join(
            f'<a href="{html.escape(str(f["url"]))}#sha256={f["sha256"]}">'
            f"{html.escape(str(f['filename']))}</a>\n"
            for f in files
        )
        return "text/html", f"<!DOCTYPE html><html><body>\n{links}</body></html>".encode()

    def _upload_time(self, name: str) -> dict[str, str]:
        return {"upload-time": self.uploaded[name]} if name in self.uploaded else {}

    @contextmanager
    def serving(self) -> Iterator[LocalIndex]:
        index = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = unquote(urlsplit(self.path).path)
                index.requests.append(path)
                parts = [p for p in path.split("/") if p]
                answer: tuple[str, bytes] | None = None
                if len(parts) == 2 and parts[0] == "simple":
                    want_json = JSON_TYPE in (self.headers.get("Accept") or "")
                    answer = index.page(canonicalize_name(parts[1]), want_json)
                elif len(parts) == 2 and parts[0] == "files":
                    file = index.folder / parts[1]
                    if file.is_file():
                        answer = ("application/octet-stream", file.read_bytes())
                if answer is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", answer[0])
                self.send_header("Content-Length", str(len(answer[1])))
                self.end_headers()
                self.wfile.write(answer[1])

            def log_message(self, format: str, *args: object) -> None:
                pass  # quiet: pytest shows what a failing test printed

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        self.url = f"http://127.0.0.1:{server.server_address[1]}/simple/"
        try:
            yield self
        finally:
            server.shutdown()
            server.server_close()
            thread.join()


def write_wheel(folder: Path, filename: str, files: Mapping[str, str]) -> Path:
    """A wheel file with these members and a METADATA naming its project and version."""
    name, version, _, _ = parse_wheel_filename(filename)
    dist = f"{str(name).replace('-', '_')}-{version}.dist-info"
    path = folder / filename
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, text in files.items():
            archive.writestr(member, text)
        archive.writestr(
            f"{dist}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        )
    return path


def write_sdist(folder: Path, filename: str, files: Mapping[str, str]) -> Path:
    """A `.tar.gz` sdist with these members under its `name-version/` folder, and PKG-INFO."""
    name, version = parse_sdist_filename(filename)
    top = filename.removesuffix(".tar.gz")
    members = {**files, "PKG-INFO": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"}
    path = folder / filename
    with tarfile.open(path, "w:gz") as archive:
        for member, text in members.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{top}/{member}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path
