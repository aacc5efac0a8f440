"""The reader's and the table pipeline's words (:mod:`vision`): calibration, the card reader, decks and
enrolment, images and video sources.

Each key's English line, from its named facts: this layer's catalogue, registered into the rules
core's table (:func:`scorer.messages.register_messages`) when the package is imported, so that an
``InputError(key, **params)`` raised here renders through the one renderer. The page's Chinese of
each key is :data:`web.i18n.MESSAGES_ZH`.
"""

from __future__ import annotations

from tuolaji.scorer.messages import register_messages

VISION_MESSAGES_EN: dict[str, str] = {
    # the card reader and the table pipeline (vision)
    "calibration.points": "table corners: need 4 points, got {points}",
    "calibration.too_small_corners": "table corners {corners}: the table would cover almost none of the picture",
    "calibration.json": "calibration: expected {{'corners': [[x, y] x4], 'image_size': [w, h]}} ({problem})",
    "calibration.colour": "table calibration: need a colour picture",
    "calibration.no_table": "table calibration: no evenly coloured table in the middle of the picture",
    "calibration.region_small": "table calibration: the table region is too small; give the corners instead",
    "calibration.players": "players: {players} seats is not a table this pipeline knows (2–8)",
    "reader.cards_json": '{path}: expected an object with a "reader" object',
    "reader.classes": "{where}: classifier_classes ({shown}) is not the reader's vocabulary ({classes} classes: the 54 "
                      "cards of scorer.cards.CARD_NAMES, then 'reject'); re-export the models with `tuolaji export`",
    "reader.deck_features": "deck {deck!r}: this classifier has no features output (re-export it with `tuolaji export`)",
    "reader.onnx": "{path}: not a usable ONNX model ({problem})",
    "reader.features": "this classifier has no features output (re-export it with `tuolaji export`)",
    "reader.no_face": "no face reader loaded (models/face.onnx and face_threshold > 0)",
    "deck.other_reader": "deck {deck!r} was enrolled with another card reader than {classifier} (the reader has been "
                         "updated since): enrol it again with `tuolaji enrol {deck} MANIFEST`",
    "deck.name": "deck name {deck!r}: use letters, digits, '_', '.', '-' (at most 64, not starting with a sign)",
    "deck.no_data": "{path}: no such data folder",
    "deck.not_enrolled": "deck {deck!r}: not enrolled in {path} (enrolled: {known}; see `tuolaji enrol`)",
    "deck.head": "{path}: not a deck head ({problem})",
    "deck.head_shape": "{path}: not a deck head (weight {weight}, bias {bias})",
    "enrol.manifest_list": '{path}: a manifest is a non-empty JSON list of {{"image": ..., "cards": [...]}}',
    "enrol.entry": '{where}: expected {{"image": "photo.jpg", "cards": ["AS", ...]}}',
    "enrol.no_cards": "{where}: no cards listed for {image}",
    "enrol.card": "{where}: unknown card {card!r} (names as in the record format: AS, 10H, SJ, BJ)",
    "enrol.photo": "{where}: photo {image} not found (looked for {path})",
    "enrol.no_manifest": "{path}: manifest not found",
    "enrol.manifest_json": "{path}: not a JSON manifest ({problem})",
    "enrol.no_head": "{path}: missing (the classifier's head; re-export the models with `tuolaji export`)",
    "enrol.nothing": "nothing to enrol from: give a manifest, or a photo of the deck laid out with --layout",
    "enrol.layout_count": "{image}: {found} card(s) found lying apart where a laid-out deck has {expected} (one missing, or two touching?)",
    "enrol.layout_rows": "{image}: rows of {found:, } cards where the layout has rows of {expected:, } (one row per suit, ♠ ♥ ♣ ♦ from 2 to A, then the two jokers)",
    "enrol.layout_small": "{image}: the corner indices are {px} px tall, too small to learn from (at least {least} px: move the camera closer)",
    "enrol.layout_order": "{image}: {misplaced} cards are not where the layout puts them (row {row}, column {column} reads {read}, the layout puts {expected} there)",
    "enrol.not_found": "{path}: {image}: {missing} listed card(s) not found ({cards:, }; {seen} card(s) seen)",
    "image.too_many_pixels": "{where}: an image of {pixels}, over the limit of {most:g} megapixels",
    "image.too_large": "{where}: an image of {pixels:,} pixels ({width}×{height}), over the limit of {most:g} megapixels",
    "image.bytes": "{path}: over the limit of {most} MB for an image",
    "image.folder": "{path}: a folder, not an image",
    "image.decode": "{path}: cannot decode image",
    "pipeline.another_game": "{path}: holds another game than this input (deals[{deal}].tricks[{trick}]: seat {turn} is "
                             "recorded playing {recorded: |}, the input shows seat {seat} playing {cards: |}); nothing "
                             "was changed: choose another --out or session",
    "source.folder": "{path}: is a folder, not a video",
    "source.video_open": "{path}: not a readable video (cannot open it)",
    "source.video_first": "{path}: not a readable video (cannot decode frame 0)",
    "source.frame": "{path}: cannot decode frame {frame} of {frames}",
    "source.size": "--camera-size: expected WxH like 1920x1080, got {value!r}",
    "source.size_range": "--camera-size: {width}x{height} is outside 160x120 .. 8192x8192",
    "source.no_camera": "camera {camera}: no such camera (or it is busy)",
    "source.no_picture": "camera {camera}: opened but gives no picture",
    "source.stopped": "{source}: stopped giving pictures",
    "source.no_images": "{path}: folder holds no images ({suffixes:, })",
    "source.image": "{path}: cannot decode image (frame {frame})",
    "source.stream_url": "{url}: not a stream address (http://PHONE:PORT/PATH, https://… or rtsp://…)",
    "source.stream_unreachable": "{url}: cannot connect ({problem}); is the phone on this network, its camera app open?",
    "source.stream_http": "{url}: the phone answered HTTP {status} {reason}",
    "source.stream_not_video": ("{url}: not a video stream (it sends {content_type}); IP Webcam's is "
                                "http://PHONE:8080/video, DroidCam's http://PHONE:4747/video"),
    "source.stream_open": "{url}: the stream cannot be opened (not a video stream OpenCV's FFmpeg reads)",
    "source.stream_no_picture": "{url}: connected, but no picture came ({problem})",
}
"""The English of every message key this layer raises (and no lower layer does)."""

register_messages("vision", VISION_MESSAGES_EN)

__all__ = ["VISION_MESSAGES_EN"]
