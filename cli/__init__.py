"""The one entry point: ``tuolaji <command> ...`` (the ``tuolaji`` script and ``python -m tuolaji``
run :func:`main`), and the home of every command.

Each command is one module of this package, named after it (``-`` as ``_``: ``tuolaji
check-camera`` is :mod:`tuolaji.cli.check_camera`), exposing ``add_arguments(parser)`` and
``run(args) -> int``. Modules whose name starts with ``_`` are helpers, not commands.
A command module imports only the standard library, :mod:`scorer`, :mod:`session`,
:mod:`models` and this package at module level; everything heavy (OpenCV, onnxruntime,
Flask, numpy, torch, the vision and web code) inside ``run``, so building the parser loads
none of it and ``tuolaji audit`` never pays for opencv or flask
(``tests/house/test_layers.py`` holds every command module to that).

Bad input raises :class:`scorer.errors.InputError` (or an ``OSError`` for files); both end
as one line on stderr and exit status 2. A missing optional extra (:data:`OPTIONAL_EXTRAS`:
torch, ultralytics, onnx of the ``train`` extra) is said the same way; any other missing
module is a broken install and surfaces as the error it is.

>>> sorted(COMMANDS)[:4]
['audit', 'average', 'check-camera', 'check-reader']
>>> module_of("check-camera")
'tuolaji.cli.check_camera'
"""

from __future__ import annotations

import argparse
import importlib
import sys
from types import ModuleType

COMMANDS: dict[str, str] = {
    "serve": "run the live table page (camera, video or the bundled demo)",
    "club": "run the club server: many tables, one PostgreSQL database (needs the 'club' extra)",
    "audit": "audit a game record and report every violation",
    "rules": "list the rule profiles and their options",
    "zuihe": "score a 嘴和 hand",
    "stats": "the players' records (战绩) and the leaderboard over a data folder's sessions",
    "replay": "turn a table video into a game record, headless",
    "detect": "read the cards in images",
    "check-camera": "check that the camera sees the cards large and bright enough",
    "check-reader": "check that this CPU reads cards exactly as the shipped models' reference reads",
    "enrol": "learn a table's own deck from a few labelled photos",
    "demo": "render the bundled demo video, or check that a reader replays it exactly",
    "eval-detector": "measure the card reader on a held-out synthetic set or on real photos",
    "generate": "generate a synthetic card-scene data set",
    "real-crops": "classifier training crops from real photos of single cards",
    "hard-crops": "classifier training crops of what the reader wrongly reads as a card",
    "face-set": "training pictures for the whole-face reader",
    "table-crops": "classifier training crops from deals filmed with the training designs",
    "render-video": "render an overhead table video of a record",
    "train": "train the card models (needs the 'train' extra)",
    "export": "export trained card models to ONNX (needs the 'train' extra)",
    "average": "blend two checkpoints of one lineage into one network (needs the 'train' extra)",
}
"""Command name -> one-line help. The module is :func:`module_of` the name."""

OPTIONAL_EXTRAS = frozenset({"torch", "torchvision", "ultralytics", "onnx"})
"""Top-level modules of the optional ``train`` extra: the only ones that may be missing quietly."""


def module_of(command: str) -> str:
    """The module of ``command``: ``tuolaji.cli.<command with - as _>``."""
    return f"{__name__}.{command.replace('-', '_')}"


def is_optional_missing(exc: ModuleNotFoundError) -> bool:
    """Whether ``exc`` is a module of an optional extra that is not installed (else a real error)."""
    return bool(exc.name) and exc.name.partition(".")[0] in OPTIONAL_EXTRAS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tuolaji", description="拖拉机 / 升级 table companion")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        command_parser = sub.add_parser(name, help=help_text, description=help_text)
        command_parser.set_defaults(_module=module_of(name))
        module = _load(module_of(name))
        if module is not None:
            module.add_arguments(command_parser)
    return parser


def _load(module_name: str) -> ModuleType | None:
    """The command's module; None when it needs an optional extra that is not installed (the
    command still shows in ``--help``, and running it says what is missing). Any other
    ``ModuleNotFoundError`` is raised: a command must not vanish from ``--help`` silently."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if is_optional_missing(exc):
            return None
        raise


def _missing(command: str, exc: ModuleNotFoundError) -> int:
    print(f"tuolaji {command}: missing dependency {exc.name!r} (install the project's 'train' extra)", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    from tuolaji.scorer.errors import InputError
    from tuolaji.scorer.names import printable

    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        module = _load(args._module)
        if module is None:
            importlib.import_module(args._module)  # raises the optional extra's error again, for its name
        assert module is not None
        return int(module.run(args) or 0)
    except ModuleNotFoundError as exc:
        if is_optional_missing(exc):
            return _missing(args.command, exc)
        raise
    except InputError as exc:  # its facts may quote the input: no control of it reaches the terminal
        print(printable(f"tuolaji {args.command}: {exc}").replace("\n", "\\n"), file=sys.stderr)
        return 2
    except OSError as exc:
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        print(printable(f"tuolaji {args.command}:{where}: {exc.strerror or exc}").replace("\n", "\\n"),
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
