"""Guards for the images the vision code reads: their size, read from the header before decoding.
Every refusal is an :class:`~scorer.errors.InputError` of one line naming what and where
(the command line's numbers are checked by :func:`tuolaji._common.finite_float`).
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from tuolaji.scorer.errors import InputError

MAX_IMAGE_PIXELS = 40_000_000
"""The largest image decoded (a 40-megapixel photo; a 30000×30000 one would take 2.7 GB as BGR)."""
MAX_IMAGE_BYTES = 100 * 1024 * 1024
HEADER_FORMATS = ("PNG", "JPEG", "BMP", "TIFF", "WEBP", "GIF", "PPM", "JPEG2000")
"""The formats whose header is read (a list: PIL then never loads the plug-ins of other formats)."""


class ImageTooLargeError(InputError):
    """An image whose header claims more pixels than :data:`MAX_IMAGE_PIXELS`."""




def image_size(data: bytes | np.ndarray, where: str) -> tuple[int, int] | None:
    """(width, height) from an image file's header, read without decoding it (None: not a format PIL knows)."""
    import io

    from PIL import Image, UnidentifiedImageError

    raw = data.tobytes() if isinstance(data, np.ndarray) else data
    try:
        with Image.open(io.BytesIO(raw), formats=HEADER_FORMATS) as image:
            return image.size
    except Image.DecompressionBombError as exc:  # PIL's own limit, far above ours: its pixel count
        import re

        found = re.search(r"\((\d+) pixels\)", str(exc))
        pixels = f"{int(found.group(1)):,} pixels" if found else "too many pixels"
        raise ImageTooLargeError("image.too_many_pixels", where=where, pixels=pixels,
                                 most=MAX_IMAGE_PIXELS / 1e6) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError, struct.error, ImportError):
        # not a header PIL reads: OpenCV decides (and refuses what it cannot decode). ImportError: a
        # library that patches Image.open (ultralytics, when training is loaded) and lacks its plug-in
        return None


def check_image_header(data: bytes | np.ndarray, where: str, *, max_pixels: int = MAX_IMAGE_PIXELS) -> None:
    """Refuse an image whose header claims more than ``max_pixels`` pixels, before it is decoded."""
    size = image_size(data, where)
    if size is not None and size[0] * size[1] > max_pixels:
        raise ImageTooLargeError("image.too_large", where=where, pixels=size[0] * size[1], width=size[0],
                                 height=size[1], most=max_pixels / 1e6)


def read_image_bytes(path: Path, *, max_bytes: int = MAX_IMAGE_BYTES) -> np.ndarray:
    """An image file's bytes (at most ``max_bytes``), its header checked; decode them with OpenCV."""
    with open(path, "rb") as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise InputError("image.bytes", path=str(path), most=max_bytes // 1024 // 1024)
    check_image_header(data, str(path))
    return np.frombuffer(data, dtype=np.uint8)


def _quiet_opencv() -> None:
    import cv2

    try:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_FATAL)  # errors are reported by us
    except AttributeError:
        pass


def read_image_file(path: str | Path) -> np.ndarray:
    """Decode an image file to BGR, or raise InputError naming the file."""
    import cv2

    p = Path(path)
    if not p.exists():
        raise OSError(2, "No such file or directory", str(p))
    if p.is_dir():
        raise InputError("image.folder", path=str(p))
    data = read_image_bytes(p)  # the header's size is checked before anything is decoded
    _quiet_opencv()  # a broken file is our one line, not OpenCV's warnings besides it
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise InputError("image.decode", path=str(p))
    return image
