"""``tuolaji generate``: write a seeded synthetic data set of table scenes.

Layout of ``--out DIR`` (YOLO format, one class ``index``)::

    DIR/images/000123.jpg      the scene (BGR JPEG)
    DIR/labels/000123.txt      "0 cx cy w h" per visible corner index (normalised)
    DIR/meta/000123.json       cards, indices (name, polygon, angle, visibility), camera info
    DIR/crops/000123.npz       classifier crops (with --crops): x uint8 N×40×40×3, y, angle, side
    DIR/dataset.yaml           ultralytics data file (train = val = this set)
    DIR/generate.json          the exact arguments, for reproducing the set

Example::

    tuolaji generate --out data/sets/train320 --count 2000 --seed 1 --size 320x320 --crops --workers 2
    tuolaji generate --out data/sets/real20 --count 20 --seed 1 --real-art 0.5   # half the decks real art
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
from dataclasses import asdict
from pathlib import Path

from tuolaji.scorer.errors import InputError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, type=Path, help="output folder")
    parser.add_argument("--count", required=True, type=int, help="number of scenes")
    parser.add_argument("--seed", required=True, type=int, help="data set seed (same seed, same files)")
    parser.add_argument("--split", choices=("train", "holdout"), default="train",
                        help="card styles, fonts and surfaces to draw from (holdout ones are disjoint)")
    parser.add_argument("--size", default="640x480", help="scene size WxH in pixels (default 640x480)")
    parser.add_argument("--crops", action="store_true", help="also write classifier crops per scene")
    parser.add_argument("--start", type=int, default=0, help="first scene number (to extend a set)")
    parser.add_argument("--workers", type=int, default=1, help="parallel worker processes")
    parser.add_argument("--joker-share", type=float, default=None,
                        help="how often a drawn card is a joker (default 0.06; a uniform draw: 0.037)")
    parser.add_argument("--real-art", type=float, default=0.0, metavar="SHARE",
                        help="share of decks drawn with card art imported from real decks (datasets/realart.py; "
                             "default 0: only the procedural art). --split holdout draws only the held-out designs")
    parser.add_argument("--horizontal", type=float, default=0.0, metavar="SHARE",
                        help="share of procedural decks printing the suit beside the rank (default 0)")
    parser.add_argument("--more-fonts", type=int, nargs="?", const=1, default=0, choices=(1, 2), metavar="GROUPS",
                        help="procedural decks also draw the fonts scripts/apt-packages.txt marks for --more-fonts: "
                             "its first group (1, the default), or both (2); training sets only, every other drawn "
                             "design stays as before")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def parse_size(text: str) -> tuple[int, int]:
    """Parse "WxH".

    >>> parse_size("640x480")
    (640, 480)
    """
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise InputError(f"--size: expected WxH like 640x480, got {text!r}") from None
    if not (32 <= w <= 4096 and 32 <= h <= 4096):
        raise InputError(f"--size: {text!r} out of range 32..4096")
    return w, h


def _write_one(job: tuple[Path, int, int, str, int, int, bool, float, float, float, bool]) -> int:
    import cv2
    import numpy as np

    from tuolaji.datasets.scenes import classifier_crops, generate_scene

    out, seed, index, split, width, height, crops, joker_share, real_art, horizontal, more_fonts = job
    scene = generate_scene(seed, index, width, height, split, joker_share, real_art, horizontal, more_fonts)
    stem = f"{index:06d}"
    cv2.imwrite(str(out / "images" / f"{stem}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    (out / "labels" / f"{stem}.txt").write_text("".join(line + "\n" for line in scene.yolo_lines()))
    meta = {
        "image": f"images/{stem}.jpg",
        "seed": seed,
        "index": index,
        "split": split,
        "joker_share": joker_share,
        **({"real_art": real_art} if real_art > 0 else {}),
        "size": [width, height],
        "info": scene.info,
        "cards": [asdict(c) for c in scene.cards],
        "indices": [asdict(i) for i in scene.indices],
    }
    (out / "meta" / f"{stem}.json").write_text(json.dumps(meta, separators=(",", ":")))
    if crops:
        x, y, angle, side = classifier_crops(scene, np.random.default_rng([seed, index, 7]))
        np.savez_compressed(out / "crops" / f"{stem}.npz", x=x, y=y, angle=angle, side=side)
    return len(scene.labelled_indices())


def generate(out: Path, count: int, seed: int, split: str = "train", size: tuple[int, int] = (640, 480),
             crops: bool = False, workers: int = 1, start: int = 0, progress: bool = True,
             joker_share: float | None = None, real_art: float = 0.0, horizontal: float = 0.0,
             more_fonts: int = 0) -> int:
    """Write scenes ``start .. start+count-1`` of data set ``seed`` into ``out``; returns labelled indices.

    ``real_art`` > 0 first renders the imported decks that are not cached yet (once); ``horizontal``:
    the share of procedural decks printing the suit beside the rank; ``more_fonts``: their fonts drawn
    from :data:`datasets.cardart.MORE_FONT_FOLDERS` too, up to that group (the train split only)."""
    from tuolaji.datasets.scenes import JOKER_SHARE

    if count < 0:
        raise InputError(f"--count must be >= 0, got {count}")
    joker_share = JOKER_SHARE if joker_share is None else joker_share
    if not 0.0 <= joker_share <= 1.0:
        raise InputError(f"--joker-share must be between 0 and 1, got {joker_share}")
    if not 0.0 <= horizontal <= 1.0:
        raise InputError(f"--horizontal must be between 0 and 1, got {horizontal}")
    if more_fonts and split != "train":
        raise InputError("--more-fonts: the held-out split keeps its own fonts; use it with --split train")
    designs = _real_art_designs(real_art, split, workers, progress)
    for sub in ("images", "labels", "meta") + (("crops",) if crops else ()):
        (out / sub).mkdir(parents=True, exist_ok=True)
    width, height = size
    (out / "dataset.yaml").write_text(
        f"path: {out.resolve()}\ntrain: images\nval: images\nnames:\n  0: index\n"
    )
    (out / "generate.json").write_text(json.dumps(
        {"count": count, "seed": seed, "split": split, "size": f"{width}x{height}", "crops": crops, "start": start,
         "joker_share": joker_share, **({"horizontal": horizontal} if horizontal > 0 else {}),
         **({"more_fonts": True if more_fonts == 1 else more_fonts} if more_fonts else {}), **({"real_art": real_art, "real_art_designs": designs} if real_art > 0 else {})},
        indent=1))
    jobs = [(out, seed, i, split, width, height, crops, joker_share, real_art, horizontal, more_fonts)
            for i in range(start, start + count)]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=count, desc=f"generate {out.name}", unit="scene", file=sys.stderr)
    total = 0
    if workers <= 1:
        for job in jobs:
            total += _write_one(job)
            if bar is not None:
                bar.update()
    else:
        # one thread per worker: the scene code is numpy/OpenCV heavy
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(workers, initializer=_init_worker) as pool:
            for labelled in pool.imap_unordered(_write_one, jobs, chunksize=4):
                total += labelled
                if bar is not None:
                    bar.update()
    if bar is not None:
        bar.close()
    return total


def _real_art_designs(real_art: float, split: str, workers: int, progress: bool) -> list[str]:
    """The imported designs ``split`` draws from (rendered into the cache first); [] when off."""
    if not 0.0 <= real_art <= 1.0:
        raise InputError(f"--real-art must be between 0 and 1, got {real_art}")
    if real_art == 0:
        return []
    from tuolaji.datasets import realart

    if not realart.rsvg_available():
        raise InputError("--real-art needs rsvg-convert (Debian: librsvg2-bin; scripts/setup.sh dev installs it)")
    realart.ensure_cache(workers=max(1, workers), log=(lambda m: print(m, file=sys.stderr)) if progress else None)
    designs = list(realart.available_designs(split))
    if not designs:
        raise InputError(f"--real-art: no imported card art for split {split!r} is installed "
                         "(gnome-cards-data, kdegames-card-data-kf5, data/cardart-npm: scripts/setup.sh dev)")
    return designs


def _init_worker() -> None:
    import cv2

    cv2.setNumThreads(1)


def run(args: argparse.Namespace) -> int:
    import cv2

    size = parse_size(args.size)
    cv2.setNumThreads(1)
    total = generate(args.out, args.count, args.seed, args.split, size, args.crops, args.workers, args.start,
                     progress=not args.quiet, joker_share=args.joker_share, real_art=args.real_art,
                     horizontal=args.horizontal, more_fonts=args.more_fonts)
    print(f"wrote {args.count} scenes with {total} labelled corner indices to {args.out}")
    return 0
