"""The install works anywhere: a built wheel carries every package, the models and the demo, and
its ``tuolaji`` runs ``audit`` and ``detect`` from a folder outside the checkout.

The wheel is built offline from a copy of the sources (``pip wheel --no-deps
--no-build-isolation``), installed without its dependencies into a fresh virtual environment,
which borrows the dependencies (numpy, OpenCV, onnxruntime, Flask) from this environment's
site-packages through a ``.pth`` line: no network, and nothing of the checkout on the path.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

NOT_SOURCES = shutil.ignore_patterns(".git", ".venv", "data", "runs", "__pycache__", "*.pyc", "build", "dist",
                                     "*.egg-info", ".pytest_cache", ".ruff_cache", ".hypothesis", "node_modules",
                                     "checkpoints", "tests", "bench", "typecheck")


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 300
         ) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from a copy of this checkout's sources."""
    if importlib.util.find_spec("setuptools") is None:
        pytest.skip("setuptools is not installed: the wheel cannot be built offline")
    base = tmp_path_factory.mktemp("wheel")
    sources = base / "src"
    shutil.copytree(ROOT, sources, ignore=NOT_SOURCES, symlinks=False)
    build = _run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation", "--no-index",
                  "-w", str(base / "dist"), str(sources)], cwd=base)
    assert "Warning" not in build.stdout + build.stderr, _warnings(build.stdout + build.stderr)
    return next((base / "dist").glob("tuolaji-*.whl"))


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel built from this checkout installed (its bin/)."""
    base = tmp_path_factory.mktemp("install")
    venv = _fresh_venv(base / "venv")
    _run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--no-deps", "--no-index",
          str(wheel)], cwd=base)
    return venv


@pytest.mark.slow
def test_the_wheel_is_typed_and_names_the_commands_script(wheel: Path) -> None:
    """PEP 561: ``tuolaji/py.typed`` in the wheel, so a type checker reads the installed package's
    hints (every subpackage's: they are all ``tuolaji``'s); the ``tuolaji`` script runs the commands."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        entry_points = next(archive.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "tuolaji/py.typed" in names
    assert {"tuolaji/cli/__init__.py", "tuolaji/club/store.py", "tuolaji/scorer/record_types.py"} <= set(names)
    assert "tuolaji = tuolaji.cli:main" in entry_points.splitlines()


def _fresh_venv(venv: Path) -> Path:
    """A virtual environment without pip whose dependencies are this environment's (a .pth line)."""
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=venv.parent)
    purelib = Path(_run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                        cwd=venv.parent).stdout.strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *site.getsitepackages()}
    (purelib / "zz_borrowed_dependencies.pth").write_text(
        "".join(f"{p}\n" for p in sorted(ours) if Path(p).is_dir()), encoding="utf-8")
    return venv


def _warnings(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if "Warning" in line)


@pytest.mark.slow
def test_the_editable_install_of_setup_sh_prints_no_warnings(tmp_path: Path) -> None:
    """``scripts/setup.sh`` installs the checkout editable (``pip install -q -e``): not a line of output."""
    if importlib.util.find_spec("setuptools") is None:
        pytest.skip("setuptools is not installed: the project cannot be installed offline")
    sources = tmp_path / "src"
    shutil.copytree(ROOT, sources, ignore=NOT_SOURCES, symlinks=False)
    venv = _fresh_venv(tmp_path / "venv")
    done = _run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q", "--no-deps",
                 "--no-build-isolation", "--no-index", "-e", str(sources)], cwd=tmp_path,
                env={**os.environ, "PYTHONWARNINGS": "ignore:Editable installation"})  # as scripts/setup.sh does
    assert done.stdout + done.stderr == ""
    where = _run([str(venv / "bin" / "python"), "-c", "import tuolaji.scorer.zuihe; print(tuolaji.scorer.__file__)"],
                 cwd=tmp_path, env=_clean_env()).stdout
    assert where.startswith(str(sources / "scorer"))


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "TUOLAJI_DATA")}


@pytest.mark.slow
def test_the_wheel_carries_every_package_the_models_and_the_demo(installed: Path, tmp_path: Path) -> None:
    done = _run([str(installed / "bin" / "python"), "-c", textwrap.dedent("""
        import json, sys
        from pathlib import Path
        import tuolaji
        from tuolaji import models, scorer, session, vision, web, datasets, training
        from tuolaji.scorer import zuihe
        from tuolaji.vision import demo
        files = [models.MODELS_DIR / n for n in ("detector.onnx", "classifier.onnx", "classifier_small.onnx", "face.onnx",
                                                    "classifier_head.npz", "cards.json")]
        files += [models.MODELS_DIR / "horizontal" / n for n in ("detector.onnx", "classifier.onnx", "classifier_head.npz",
                                                                 "reader_check.npz", "cards.json")]
        files += [demo.DEMO_VIDEO, demo.DEMO_SETUP, demo.DEMO_FRAMES, demo.DEMO_TRUTH, demo.DEMO_RECORD_FILE]
        files += [Path(web.__file__).parent / "templates" / "base.html", Path(web.__file__).parent / "static" / "client.js"]
        import tuolaji.club
        files += [Path(tuolaji.club.__file__).parent / "templates" / "club_director.html",
                  Path(web.__file__).parent / "static" / "director.js"]
        print(json.dumps({"where": [m.__file__ for m in (scorer, session, vision, web, models, tuolaji)],
                          "missing": [str(f) for f in files if not f.is_file()]}))
    """)], cwd=tmp_path, env=_clean_env())
    report = json.loads(done.stdout)
    assert report["missing"] == []
    assert all(str(installed) in where and str(ROOT) not in where for where in report["where"]), report["where"]


@pytest.mark.slow
def test_the_wheel_installs_one_top_level_package_and_no_bare_name(installed: Path, tmp_path: Path) -> None:
    """``pip install`` of the wheel puts exactly one package, ``tuolaji``, into site-packages (no
    ``scorer``, ``datasets``, ``models`` or ``web`` to clash with other distributions)."""
    done = _run([str(installed / "bin" / "python"), "-c", textwrap.dedent("""
        import importlib.metadata, json
        dist = importlib.metadata.distribution("tuolaji")
        tops = sorted({f.parts[0] for f in dist.files if f.suffix == ".py" and f.parts[0] != ".."})
        print(json.dumps(tops))
    """)], cwd=tmp_path, env=_clean_env())
    assert json.loads(done.stdout) == ["tuolaji"]
    for bare in ("scorer", "vision", "web", "models", "datasets", "session", "training", "cli", "club", "tuolaji_cli"):
        missing = subprocess.run([str(installed / "bin" / "python"), "-c", f"import {bare}"], cwd=tmp_path,
                                 env=_clean_env(), capture_output=True, text=True, timeout=60)
        assert missing.returncode != 0 and "ModuleNotFoundError" in missing.stderr, bare


@pytest.mark.slow
def test_the_installed_tuolaji_audits_and_detects_from_anywhere(installed: Path, tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "demo-3deck.json", tmp_path / "game.json")
    shutil.copy(ROOT / "tests" / "data" / "detector" / "images" / "000000.jpg", tmp_path / "table.jpg")
    tuolaji = str(installed / "bin" / "tuolaji")
    audit = _run([tuolaji, "audit", "game.json", "--json"], cwd=tmp_path, env=_clean_env())
    assert json.loads(audit.stdout)["deals"]
    detect = _run([tuolaji, "detect", "table.jpg", "--json"], cwd=tmp_path, env=_clean_env())
    cards = json.loads(detect.stdout)[0]["cards"]
    assert cards and all(c["card"] for c in cards)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "table.jpg"]  # nothing written beside them


def test_the_main_command_after_the_test_command_installs_nothing_again(tmp_path: Path) -> None:
    """``scripts/run.sh`` sets up the runtime; after ``scripts/test.sh`` set up everything (dev), the
    runtime set-up finds it done and runs no pip at all (a copy of the checkout's set-up, its
    environment's pip a stand-in that notes each call)."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup.sh", tmp_path / "scripts" / "setup.sh")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for tool in ("python", "pip"):
        (bin_dir / tool).write_text(f'#!/bin/sh\necho "{tool} $*" >> "{tmp_path}/calls"\n')
        (bin_dir / tool).chmod(0o755)
    digest = _run(["sha1sum", "pyproject.toml"], tmp_path).stdout[:12]
    (tmp_path / ".venv" / f".tuolaji-dev-{digest}").touch()
    _run(["bash", "scripts/setup.sh"], tmp_path)
    assert not (tmp_path / "calls").exists()
    (tmp_path / ".venv" / f".tuolaji-dev-{digest}").unlink()  # without the dev install: the runtime one is made
    _run(["bash", "scripts/setup.sh"], tmp_path)
    assert "pip install -q -e ." in (tmp_path / "calls").read_text()
