"""The hooks, in real child processes: chained onto rich's traceback hook, in threads, and
turned on for a whole environment by the `.pth` file `errdex hook enable` writes."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from integration_samples import RAISE_IN_CLICK, isolated_env

import errdex


def python(code: str, tmp_path: Path, exe: str = sys.executable, **env: str) -> str:
    done = subprocess.run(
        [exe, "-c", code],
        env={**isolated_env(tmp_path), **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.stderr


def test_install_chains_onto_the_hook_that_was_there_rich_s(tmp_path: Path) -> None:
    code = "import rich.traceback, errdex\nrich.traceback.install()\nerrdex.install()\n"
    err = python(code + RAISE_IN_CLICK, tmp_path)
    assert "Traceback (most recent call last)" in err  # rich's own panel title
    assert "╭" in err
    assert err.index("╭") < err.index("errdex: raised at click/types.py:")


def test_installing_twice_prints_once(tmp_path: Path) -> None:
    err = python("import errdex\nerrdex.install()\nerrdex.install()\n" + RAISE_IN_CLICK, tmp_path)
    assert err.count("errdex: raised at") == 1


def test_an_uncaught_exception_in_a_thread_gets_the_summary(tmp_path: Path) -> None:
    code = (
        "import threading, errdex\nerrdex.install()\n"
        "def work():\n" + "".join(f"    {line}\n" for line in RAISE_IN_CLICK.splitlines())
        + "t = threading.Thread(target=work)\nt.start()\nt.join()\n"
    )  # fmt: skip
    err = python(code, tmp_path)
    assert "Exception in thread" in err
    assert "errdex: raised at click/types.py:" in err


def test_enable_turns_it_on_for_a_whole_environment_without_code(tmp_path: Path) -> None:
    env_dir = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    exe = str(env_dir / "bin" / "python")
    purelib = subprocess.run(
        [exe, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    # The new environment sees errdex and its dependencies where this one has them.
    here = [sysconfig.get_paths()["purelib"], str(Path(errdex.__file__).parents[1])]
    (Path(purelib) / "00-errdex-test-paths.pth").write_text("\n".join(here) + "\n")

    assert "errdex: raised at" not in python(RAISE_IN_CLICK, tmp_path, exe)
    done = subprocess.run([exe, "-m", "errdex", "hook", "enable"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (Path(purelib) / "errdex-hook.pth").is_file()

    err = python(RAISE_IN_CLICK, tmp_path, exe)
    assert "Traceback (most recent call last)" in err
    assert "errdex: raised at click/types.py:" in err
    assert "errdex: raised at" not in python(RAISE_IN_CLICK, tmp_path, exe, ERRDEX_HOOK="0")
    # A program that ends well pays for no import of errdex.
    quiet = "import sys; print('errdex.hook' in sys.modules, file=sys.stderr)"
    assert python(quiet, tmp_path, exe).strip() == "False"

    subprocess.run([exe, "-m", "errdex", "hook", "disable"], check=True, capture_output=True)
    assert "errdex: raised at" not in python(RAISE_IN_CLICK, tmp_path, exe)


def test_the_source_place_is_a_link_in_a_terminal_and_only_a_safe_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    from rich.text import Text

    from errdex.render.console import InertConsole

    monkeypatch.setenv("FORCE_COLOR", "1")  # rich then takes the StringIO for a terminal

    def shown(url: str) -> str:
        out = io.StringIO()
        console = InertConsole(file=out)
        console.print(Text("click/types.py:12", style=f"link {url}"), markup=False)
        return out.getvalue()

    assert "\x1b]8;" in shown("https://github.com/pallets/click/blob/abc/src/click/types.py#L12")
    for hostile in ("javascript:alert(1)", "https://x.test/\x07\x1b]52;c;aGk=\x07"):
        assert "\x1b]8;" not in shown(hostile)
        assert "\x07" not in shown(hostile)
