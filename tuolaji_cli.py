"""The one entry point: ``tuolaji <command> ...``.

Every command lives in its own module, which exposes ``add_arguments(parser)`` and
``run(args) -> int``. Modules are imported lazily so ``tuolaji audit`` never pays for
opencv or onnxruntime. Bad input raises :class:`scorer.errors.InputError` (or an
``OSError`` for files); both end as one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# command -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("web.cli", "run the live table page (camera, video or the bundled demo)"),
    "audit": ("scorer.cli_audit", "audit a game record and report every violation"),
    "rules": ("scorer.cli_rules", "list the rule profiles and their options"),
    "zuihe": ("scorer.zuihe_cli", "score a 嘴和 hand"),
    "replay": ("vision.replay_cli", "turn a table video into a game record, headless"),
    "detect": ("vision.detect_cli", "read the cards in images"),
    "check-camera": ("vision.check_camera_cli", "check that the camera sees the cards large and bright enough"),
    "enrol": ("vision.enrol_cli", "learn a table's own deck from a few labelled photos"),
    "eval-detector": ("vision.eval_cli", "measure the card reader on a held-out synthetic set or on real photos"),
    "generate": ("datasets.cli", "generate a synthetic card-scene data set"),
    "real-crops": ("datasets.realcrops", "classifier training crops from real photos of single cards"),
    "render-video": ("datasets.video_cli", "render an overhead table video of a record"),
    "train": ("vision.train_cli", "train the card models (needs the 'train' extra)"),
    "export": ("vision.export_cli", "export trained card models to ONNX"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tuolaji", description="拖拉机 / 升级 table companion")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        command_parser = sub.add_parser(name, help=help_text, description=help_text)
        command_parser.set_defaults(_module=module_name)
        module = _load(module_name)
        if module is not None:
            module.add_arguments(command_parser)
    return parser


def _load(module_name: str):
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        # A command whose module is not importable (e.g. training without the extra)
        # still shows in --help; running it reports why.
        if exc.name and (module_name.startswith(exc.name) or exc.name == module_name):
            return None
        return None


def main(argv: list[str] | None = None) -> int:
    from scorer.errors import InputError

    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        module = importlib.import_module(args._module)
    except ModuleNotFoundError as exc:
        print(f"tuolaji {args.command}: missing dependency {exc.name!r} (install the project's extras)", file=sys.stderr)
        return 2
    try:
        return int(module.run(args) or 0)
    except InputError as exc:
        print(f"tuolaji {args.command}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        print(f"tuolaji {args.command}:{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
