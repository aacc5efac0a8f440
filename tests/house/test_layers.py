"""The house's layers hold: every import of the project goes one way, down (docs/ARCHITECTURE.md).

From the bottom::

    scorer      the rules: nothing of the project
    models      the shipped model files (package data): nothing of the project
    session     the live game and its events: scorer only, no OpenCV/numpy/onnxruntime
    vision      the runtime reader and table pipeline: scorer, session, models
    web         the page: scorer, session; vision only in the modules that run the camera
                pipeline (WEB_CAMERA_MODULES)
    club        the club server and a table's side of it: scorer, session and web's public names
    datasets    generation (scenes, card art, videos, real-photo sets): may use vision's geometry
    training    training, export and evaluation: on top of datasets
    cli         the commands: anything, but at module level only the light layers
    tuolaji     the one import name's own package: ``python -m tuolaji`` runs the commands

The check reads every module's source (an AST walk, so imports inside functions count too:
"imported by nothing at run time" means not even lazily). Tests, benchmarks and scripts sit
on top and are not checked. The checker itself is tested on a small synthetic tree, so a
wrong import is known to fail it.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PACKAGES = ("scorer", "models", "session", "vision", "web", "club", "datasets", "training", "cli", "tuolaji")
"""The project's top-level packages, from the bottom layer up."""

ALLOWED: dict[str, frozenset[str]] = {
    "scorer": frozenset({"scorer"}),
    "models": frozenset({"models"}),
    "session": frozenset({"session", "scorer"}),
    "vision": frozenset({"vision", "session", "scorer", "models"}),
    "web": frozenset({"web", "session", "scorer"}),
    "club": frozenset({"club", "web", "session", "scorer"}),
    "datasets": frozenset({"datasets", "vision", "session", "scorer", "models"}),
    "training": frozenset({"training", "datasets", "vision", "session", "scorer", "models"}),
    "cli": frozenset(PACKAGES) - {"tuolaji"},
    "tuolaji": frozenset({"tuolaji", "cli"}),
}
"""Package -> the project packages its modules may import (anywhere in the module)."""

WEB_CAMERA_MODULES = frozenset({"web.camera", "web.decks_page", "web.pictures", "web.table"})
"""The page's modules that run the camera pipeline (set-up, enrolment, play pictures, the feed):
the only ones of ``web`` that may import ``vision``."""

LIGHT_AT_MODULE_LEVEL = frozenset({"scorer", "session", "models", "cli"})
"""What a command module may import at module level besides the standard library."""

TRAINING_ONLY = frozenset({"torch", "torchvision", "ultralytics", "onnx", "yaml"})
"""Third-party modules of training alone: never imported by the runtime layers."""

RUNTIME = ("scorer", "models", "session", "vision", "web", "club")

NO_NATIVE = frozenset({"cv2", "numpy", "onnxruntime", "PIL", "flask", "werkzeug"})
"""What the rules and the session never import (pure Python, importable anywhere)."""


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the imported module, absolute
    line: int
    top_level: bool  # at module level (not inside a function, not under TYPE_CHECKING)


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def canonical(target: str) -> str:
    """An imported module by its layer: ``tuolaji.scorer.cards`` is ``scorer.cards`` (every folder
    installs under the one name ``tuolaji``; the commands are ``tuolaji.cli``).

    >>> canonical("tuolaji.scorer.cards"), canonical("tuolaji.cli._common"), canonical("tuolaji"), canonical("numpy")
    ('scorer.cards', 'cli._common', 'tuolaji', 'numpy')
    """
    first, _, rest = target.partition(".")
    if first == "tuolaji" and rest.partition(".")[0] in PACKAGES:
        return rest
    return target


def imports_of(root: Path, path: Path) -> list[Import]:
    """Every import in ``path`` (relative ones made absolute, ``tuolaji.*`` by layer: :func:`canonical`),
    noting those run at import time."""
    name = module_name(root, path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[Import] = []

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            child_top = top and not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for sub in child.body:  # only for the type checker: never run
                    visit(ast.Module(body=[sub], type_ignores=[]), False)
                for sub in child.orelse:
                    visit(ast.Module(body=[sub], type_ignores=[]), child_top)
                continue
            if isinstance(child, ast.Import):
                found.extend(Import(name, canonical(alias.name), child.lineno, child_top) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = canonical(child.module or "")
                if target == "tuolaji" and not child.level:  # `from tuolaji import scorer`: the layers named
                    layers = [alias.name for alias in child.names if alias.name in PACKAGES]
                    found.extend(Import(name, layer, child.lineno, child_top) for layer in layers)
                    if len(layers) == len(child.names):
                        continue
                found.append(Import(name, target, child.lineno, child_top))
                if child.module is None or child.level:  # `from . import view`: the submodules named
                    found.extend(Import(name, f"{target}.{alias.name}", child.lineno, child_top)
                                 for alias in child.names if (root / Path(*target.split("."), alias.name)).exists()
                                 or (root / Path(*target.split("."), alias.name + ".py")).exists())
            visit(child, child_top)

    visit(tree, True)
    return found


def project_files(root: Path) -> list[Path]:
    return sorted(p for package in PACKAGES if (root / package).is_dir() for p in (root / package).rglob("*.py"))


def violations(root: Path) -> list[str]:
    """Every import of the tree at ``root`` that breaks a layer rule, as ``module:line: why``."""
    out: list[str] = []
    stdlib = sys.stdlib_module_names
    for path in project_files(root):
        for imp in imports_of(root, path):
            top = imp.target.partition(".")[0]
            here = imp.module.partition(".")[0]
            where = f"{imp.module}:{imp.line}: imports {imp.target}"
            if top in PACKAGES:
                if top not in ALLOWED[here] and not (here == "web" and top == "vision" and imp.module in WEB_CAMERA_MODULES):
                    out.append(f"{where} ({here} may import {', '.join(sorted(ALLOWED[here]))})")
                if top in ("cli", "tuolaji") and here not in ("cli", "tuolaji"):
                    out.append(f"{where} (nothing imports the commands)")
                if here == "cli" and imp.top_level and top not in LIGHT_AT_MODULE_LEVEL:
                    out.append(f"{where} at module level (a command imports {top} when it runs)")
            else:
                if here in RUNTIME and top in TRAINING_ONLY:
                    out.append(f"{where} (training's dependency, in the runtime)")
                if here in ("scorer", "session", "models") and top in NO_NATIVE:
                    out.append(f"{where} ({here} is pure Python)")
                if here == "cli" and imp.top_level and top not in stdlib and top != "__future__":
                    out.append(f"{where} at module level (a command imports {top} when it runs)")
    return out


def test_the_layers_hold() -> None:
    assert violations(ROOT) == []


def bare_imports(root: Path) -> list[str]:
    """Every absolute import of a project folder by its bare name (``import scorer``, ``from vision
    import x``) in the checkout: the project installs under one name, ``tuolaji``, and a bare name
    is another distribution's (``datasets``, ``models``, ``web``…) or, from the checkout, a second copy."""
    bare = set(PACKAGES) - {"tuolaji"}
    folders = [*PACKAGES, "tests", "bench", "scripts"]
    out = []
    for path in sorted(p for folder in folders if (root / folder).is_dir() for p in (root / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            out.extend(f"{path.relative_to(root)}:{node.lineno}: {n}" for n in names if n.partition(".")[0] in bare)
    return out


def test_no_module_imports_a_project_folder_by_its_bare_name(tmp_path: Path) -> None:
    assert bare_imports(ROOT) == []
    root = _tree(tmp_path, {"vision/x.py": "from scorer import cards\nfrom . import y\nimport tuolaji.scorer\n",
                            "tests/t.py": "def f():\n    import datasets.video\n"})
    assert bare_imports(root) == ["tests/t.py:2: datasets.video", "vision/x.py:1: scorer"]


def test_every_module_of_the_project_is_in_a_layer() -> None:
    tops = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists() or p.suffix == ".py"}
    assert tops - {"tests", "bench", "scripts"} <= set(PACKAGES), "a new top-level package needs its place in the layers"


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


def test_the_check_finds_a_wrong_import(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "scorer/__init__.py": "",
        "scorer/rules.py": "import vision.detector\n",  # the rules reaching up
        "session/__init__.py": "",
        "session/live.py": "def f():\n    import numpy\n",  # native code in the session, even lazily
        "vision/__init__.py": "",
        "vision/oracle.py": "def f():\n    from datasets.video import VideoTruth\n",  # runtime -> generation, lazily
        "vision/reader.py": "import torch\n",  # a training dependency at run time
        "web/__init__.py": "",
        "web/api.py": "from vision import pipeline\n",  # the page's core reaching into vision
        "web/camera.py": "from vision.sources import Frame\nfrom . import api\n",  # allowed: a camera module
        "web/view.py": "from ..training import evaluate\n",  # relative, still wrong
        "datasets/__init__.py": "",
        "datasets/scenes.py": "from vision.cardcrop import crop_index\n",  # allowed: top -> down
        "training/__init__.py": "",
        "cli/__init__.py": "",
        "cli/detect.py": "import cv2\nfrom vision import detector\n"
                                 "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import numpy\n"
                                 "def run(args):\n    import onnxruntime\n",
    })
    found = violations(root)
    assert [v.split(": imports")[0] for v in found] == [
        "cli.detect:1", "cli.detect:2", "scorer.rules:1", "session.live:2",
        "vision.oracle:2", "vision.reader:1", "web.api:1", "web.view:1"]
    assert found[-1].startswith("web.view:1: imports training (web may import")


SHARE_NO_PRIVATE_NAME = frozenset({"scorer", "session", "web", "club", "cli"})
"""The packages whose modules import no private name of each other either (a private module of the
package, ``cli/_common.py``, is the package's helpers: its public names are the package's); datasets,
training and vision still do (issue 44)."""


def private_imports(root: Path) -> list[str]:
    """Every import of another package's private name (``_name``, or a name of a ``_module``): a
    name with a leading underscore is its package's own (the club uses the page's public functions,
    never ``web.api._…``); in :data:`SHARE_NO_PRIVATE_NAME`, every import of another module's."""
    out = []
    for path in project_files(root):
        name = module_name(root, path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = canonical(node.module or "")
                imported = [f"{target}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                imported = [canonical(alias.name) for alias in node.names]
            else:
                continue
            here = name.partition(".")[0]
            for full in imported:
                top = full.partition(".")[0]
                private = [part for part in full.split(".") if part.startswith("_") and not part.startswith("__")]
                if top in PACKAGES and top != here and private:
                    out.append(f"{name}:{node.lineno}: imports {full} (private to {top})")
                elif (top == here in SHARE_NO_PRIVATE_NAME and full.rpartition(".")[2] in private
                      and full.rpartition(".")[0] != name):
                    out.append(f"{name}:{node.lineno}: imports {full} (private to its module)")
    return out


def test_no_module_imports_another_packages_private_name(tmp_path: Path) -> None:
    assert private_imports(ROOT) == []
    root = _tree(tmp_path, {
        "web/__init__.py": "", "web/api.py": "from .view import _table, table\n", "web/view.py": "",
        "cli/__init__.py": "", "cli/_common.py": "", "cli/serve.py": "from tuolaji.cli._common import camera_spec\n",
        "datasets/__init__.py": "", "datasets/faces.py": "from tuolaji.datasets.scenes import _surface\n",
        "club/__init__.py": "",
        "club/page.py": "from tuolaji.web.api import _build_game_payload, state_payload\n"
                        "def f():\n    from tuolaji.web import _helpers\n    import tuolaji.cli._common\n",
    })
    assert private_imports(root) == [
        "club.page:1: imports web.api._build_game_payload (private to web)",
        "club.page:3: imports web._helpers (private to web)",
        "club.page:4: imports cli._common (private to cli)",
        "web.api:1: imports web.view._table (private to its module)"]


def test_the_check_knows_the_real_tree_would_fail(tmp_path: Path) -> None:
    """Copying one real module with a wrong import added makes the real check fail."""
    text = (ROOT / "scorer" / "seats.py").read_text(encoding="utf-8")
    root = _tree(tmp_path, {"scorer/__init__.py": "", "scorer/seats.py": text + "\nfrom web import view  # noqa\n"})
    assert violations(root) == [f"scorer.seats:{text.count(chr(10)) + 2}: imports web (scorer may import scorer)"]


# --- the commands ----------------------------------------------------------------------------

def test_one_module_per_command_named_after_it() -> None:
    from tuolaji import cli

    modules = {p.stem for p in (ROOT / "cli").glob("*.py") if not p.stem.startswith("_")}
    assert modules == {name.replace("-", "_") for name in cli.COMMANDS}
    for name in cli.COMMANDS:
        module = importlib.import_module(cli.module_of(name))
        assert callable(module.add_arguments) and callable(module.run), name
    for package in PACKAGES:  # no command modules left elsewhere under the old names
        strays = [p for p in (ROOT / package).glob("*.py") if p.stem.endswith("_cli") or p.stem.startswith("cli")]
        assert strays == [], strays


def _python(code: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=300)


HEAVY = ("cv2", "flask", "onnxruntime", "numpy", "PIL", "werkzeug", "torch", "tuolaji.vision", "tuolaji.web", "tuolaji.datasets",
         "tuolaji.training")


def test_audit_runs_without_opencv_flask_onnxruntime_or_numpy() -> None:
    record = ROOT / "examples" / "demo-3deck.json"
    done = _python(textwrap.dedent(f"""
        import json, sys
        from tuolaji import cli
        code = cli.main(["audit", {str(record)!r}, "--json"])
        loaded = sorted(m for m in {HEAVY!r} if m in sys.modules)
        print(json.dumps({{"code": code, "loaded": loaded}}), file=sys.stderr)
    """))
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report == {"code": 0, "loaded": []}, done.stderr
    assert json.loads(done.stdout)["deals"]


def test_the_parser_loads_nothing_heavy() -> None:
    done = _python(f"import sys; from tuolaji import cli; cli.build_parser(); print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    assert done.stdout.strip() == "[]", done.stderr


def test_a_missing_module_that_is_not_an_extra_surfaces(monkeypatch: pytest.MonkeyPatch) -> None:
    from tuolaji import cli

    real_import = importlib.import_module

    def broken(name: str, *args: object) -> object:
        if name == "tuolaji.cli.rules":
            raise ModuleNotFoundError("No module named 'scorer.gone'", name="scorer.gone")
        if name == "tuolaji.cli.train":
            raise ModuleNotFoundError("No module named 'torch'", name="torch")
        return real_import(name, *args)

    monkeypatch.setattr(importlib, "import_module", broken)
    assert cli._load("tuolaji.cli.train") is None  # the train extra: quietly absent from --help
    with pytest.raises(ModuleNotFoundError, match="scorer.gone"):
        cli.build_parser()  # a broken install: said, not a command silently gone


def test_a_missing_extra_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import tuolaji.cli.export as export
    from tuolaji import cli

    def needs_torch(args: object) -> int:
        raise ModuleNotFoundError("No module named 'torch'", name="torch")

    monkeypatch.setattr(export, "run", needs_torch)
    assert cli.main(["export", "--classifier", "x.pt"]) == 2
    assert capsys.readouterr().err == "tuolaji export: missing dependency 'torch' (install the project's 'train' extra)\n"


# --- the session and the demo ------------------------------------------------------------------

def test_the_session_imports_without_opencv_or_onnxruntime() -> None:
    done = _python(textwrap.dedent(f"""
        import sys
        from tuolaji.session import events
        from tuolaji.session.live import LiveGame
        game = LiveGame({{"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["a", "b", "c", "d"],
                         "deals": [{{"level": "2", "trump": "S", "dealer": 0, "tricks": []}}]}})
        game.play(0, ["AH"])
        print(sorted(m for m in {HEAVY!r} if m in sys.modules))
    """))
    assert done.stdout.strip() == "[]", done.stderr


def test_the_demo_reads_its_bundled_files_without_the_renderer_or_pillow() -> None:
    """What ``serve --demo`` loads of the demo: its set-up (the deal so far), its frames file (the
    oracle), the shipped reader's readiness, the kitty and next deal it ends with, and the video
    itself; no renderer (datasets), no Pillow, no card art."""
    done = _python(textwrap.dedent("""
        import json, sys
        from tuolaji.vision import demo
        from tuolaji.vision.oracle import OracleReader
        from tuolaji.vision.sources import open_source
        setup = json.loads(demo.DEMO_SETUP.read_text(encoding="utf-8"))
        reader = OracleReader.from_file(demo.DEMO_FRAMES)
        demo.shipped_reader_is_ready()
        assert len(demo.demo_finale()["kitty"]) == 6
        with open_source(str(demo.DEMO_VIDEO)) as source:
            seen = [len(reader.read_frame(frame)) for frame, _ in zip(source, range(40))]
        assert setup["rules"] == "titanic-3deck" and max(seen) > 0, seen
        print(sorted(m for m in ("tuolaji.datasets", "PIL", "tuolaji.training", "torch") if m in sys.modules))
    """))
    assert done.stdout.strip() == "[]", done.stderr


# --- one vocabulary ------------------------------------------------------------------------------

VOCABULARY = {"CARD_NAMES": "scorer.cards", "RANKS": "scorer.cards", "SUITS": "scorer.cards", "JOKERS": "scorer.cards",
              "SUIT_SYMBOLS": "scorer.cards", "REJECT": "vision.classes", "CLASSIFIER_CLASSES": "vision.classes"}
"""Each name of the card vocabulary and the classifier's contract -> the one module that declares it."""


def vocabulary_copies(root: Path) -> list[str]:
    """Module-level declarations of a vocabulary name (a value, not an alias of the one declaration)."""
    out = []
    for path in project_files(root):
        name = module_name(root, path)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
            value = getattr(node, "value", None)
            for target in targets:
                if (isinstance(target, ast.Name) and target.id in VOCABULARY and VOCABULARY[target.id] != name
                        and value is not None and not isinstance(value, ast.Name | ast.Attribute)):
                    out.append(f"{name}:{node.lineno}: {target.id}")
    return out


def test_the_card_vocabulary_is_declared_once(tmp_path: Path) -> None:
    assert vocabulary_copies(ROOT) == []
    root = _tree(tmp_path, {"web/cards.py": 'SUITS = ("S", "H", "C", "D")\nRANKS = scorer.cards.RANKS\n'})
    assert vocabulary_copies(root) == ["web.cards:1: SUITS"]


def test_every_copy_is_the_declaration_itself() -> None:
    from tuolaji import scorer
    from tuolaji.datasets import cardart
    from tuolaji.vision import classes, detector
    from tuolaji.web import cards

    for module in (cardart, cards, detector, classes):
        assert module.CARD_NAMES is scorer.cards.CARD_NAMES, module.__name__
    assert detector.REJECT == classes.REJECT == len(scorer.cards.CARD_NAMES)


def test_export_writes_the_classes_and_loading_checks_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tuolaji import cli
    from tuolaji.cli.export import write_cards_json
    from tuolaji.scorer.errors import InputError
    from tuolaji.vision.classes import CLASSIFIER_CLASSES
    from tuolaji.vision.detector import CardReader

    written = json.loads(write_cards_json(tmp_path).read_text())
    assert written["classifier_classes"] == list(CLASSIFIER_CLASSES)
    shuffled = [*CLASSIFIER_CLASSES[1:], CLASSIFIER_CLASSES[0]]
    (tmp_path / "cards.json").write_text(json.dumps({**written, "classifier_classes": shuffled}))
    with pytest.raises(InputError, match="classifier_classes .* is not the reader's vocabulary"):
        CardReader.load(tmp_path)
    image = ROOT / "tests" / "data" / "detector" / "images" / "000000.jpg"
    assert cli.main(["detect", str(image), "--models", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tuolaji detect: {tmp_path / 'cards.json'}: classifier_classes (55 classes, starting ['3S'")
    assert err.count("\n") == 1
