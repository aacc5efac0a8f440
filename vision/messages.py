"""The reader's and the table pipeline's words (:mod:`vision`): calibration, the card reader, decks and
enrolment, images and video sources.

This layer's catalogue, each key's English and Chinese from its named facts, registered when the
package is imported (:func:`scorer.messages.register_messages`; docs/ARCHITECTURE.md).
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

VISION_MESSAGES_ZH: dict[str, str] = {
    # the card reader and the table pipeline (vision)
    "calibration.points": "牌桌的角：要 4 个点，现在是 {points} 个",
    "calibration.too_small_corners": "牌桌的角 {corners}：围出的牌桌几乎不占画面",
    "calibration.json": "校准数据不对（应有 corners 四个角和 image_size）",
    "calibration.colour": "校准牌桌要彩色画面",
    "calibration.no_table": "校准牌桌：画面中间找不到颜色均匀的桌面",
    "calibration.region_small": "校准牌桌：桌面区域太小，请直接给出四个角",
    "calibration.players": "{players} 个座位的牌桌本程序不认识（2–8 人）",
    "reader.cards_json": "{path}：应是一个含 reader 对象的 JSON 对象",
    "reader.classes": "{at}识牌模型的类别（{shown}）和程序的不一致：请用 tuolaji export 重新导出模型",
    "reader.deck_features": "这副牌（{deck}）要识牌模型的特征输出：请用 tuolaji export 重新导出模型",
    "reader.onnx": "{path} 不是可用的 ONNX 模型",
    "reader.features": "识牌模型没有特征输出：请用 tuolaji export 重新导出模型",
    "reader.no_face": "没有加载整张牌面的识别模型",
    "deck.other_reader": "这副牌（{deck}）是用另一个识牌模型学的：请重新学习这副牌",
    "deck.name": "牌名 {deck!r} 不行：只能用字母、数字、_、.、-（最多 64 个，不能以符号开头）",
    "deck.no_data": "数据文件夹 {path} 不存在",
    "deck.not_enrolled": "还没有学过这副牌（{deck}）；已学过的：{known}",
    "deck.head": "{path} 不是学过的牌的数据",
    "deck.head_shape": "{path} 不是学过的牌的数据",
    "enrol.manifest_list": "{path}：清单应是一串照片和牌",
    "enrol.entry": "{at}应写成 {{\"image\": \"photo.jpg\", \"cards\": [\"AS\", ...]}}",
    "enrol.no_cards": "{at}照片 {image} 没有列出牌",
    "enrol.card": "{at}不认识的牌 {card!r}（可写 AS、10H、SJ、BJ）",
    "enrol.photo": "{at}找不到照片 {image}",
    "enrol.no_manifest": "找不到清单 {path}",
    "enrol.manifest_json": "{path} 不是 JSON 清单",
    "enrol.no_head": "缺少识牌模型的分类头 {path}：请用 tuolaji export 重新导出模型",
    "enrol.nothing": "没有可登记的：给一个清单，或用 --layout 给一张整副牌摆开的照片",
    "enrol.layout_count": "{image}：找到 {found} 张分开摆着的牌，整副摆开应有 {expected} 张（少了一张，还是两张挨在一起？）",
    "enrol.layout_rows": "{image}：摆成了每行 {found} 张，应是每行 {expected} 张（每种花色一行，♠ ♥ ♣ ♦ 从 2 到 A，最后一行两张王）",
    "enrol.layout_small": "{image}：牌角字只有 {px} 像素高，太小（至少 {least} 像素：把摄像头移近些）",
    "enrol.layout_order": "{image}：有 {misplaced} 张牌不在该放的位置（第 {row} 行第 {column} 张读出来是 {read}，这里应是 {expected}）",
    "enrol.not_found": "{path}：照片 {image} 里有 {missing} 张列出的牌没找到（{cards}；看到 {seen} 张）",
    "image.too_many_pixels": "{at}图片太大（超过 {most:g} 百万像素）",
    "image.too_large": "{at}图片太大（{pixels:,} 像素，{width}×{height}；上限 {most:g} 百万像素）",
    "image.bytes": "{path}：图片超过 {most} MB",
    "image.folder": "{path} 是文件夹，不是图片",
    "image.decode": "{path}：图片无法解码",
    "pipeline.another_game": "{path} 是另一局：第 {deal} 副第 {trick} 墩记录里 {turn} 出的是 {recorded}，"
                             "输入里是 {seat} 出 {cards}；什么也没改：请选别的输出文件或牌局",
    "source.folder": "{path} 是文件夹，不是视频",
    "source.video_open": "{path}：视频打不开",
    "source.video_first": "{path}：视频无法解码（第 0 帧）",
    "source.frame": "{path}：第 {frame} 帧无法解码（共 {frames} 帧）",
    "source.size": "画面大小应写成 1920x1080 这样，现在是 {value!r}",
    "source.size_range": "画面大小 {width}x{height} 超出 160x120 .. 8192x8192",
    "source.no_camera": "没有 {camera} 号摄像头（或者它正被占用）",
    "source.no_picture": "{camera} 号摄像头打开了，但没有画面",
    "source.stopped": "{source} 不再有画面",
    "source.no_images": "文件夹 {path} 里没有图片（{suffixes}）",
    "source.image": "{path}：图片无法解码（第 {frame} 帧）",
    "source.stream_url": "{url} 不是视频流地址（应写成 http://手机地址:端口/路径，或 rtsp://…）",
    "source.stream_unreachable": "连不上 {url}（{problem}）：手机和电脑在同一个网络里吗？手机上的摄像头应用开着吗？",
    "source.stream_http": "{url}：手机回答 HTTP {status} {reason}",
    "source.stream_not_video": ("{url} 不是视频流（发来的是 {content_type}）；IP Webcam 的地址是 "
                                "http://手机地址:8080/video，DroidCam 的是 http://手机地址:4747/video"),
    "source.stream_open": "{url}：视频流打不开",
    "source.stream_no_picture": "连上了 {url}，但没有画面（{problem}）",
}
"""The Chinese of each key of :data:`VISION_MESSAGES_EN`, from the same parameters made readable
(:data:`scorer.messages.MESSAGES_ZH` says how)."""

PROBLEMS_ZH: dict[str, str] = {
    "connection refused": "连接被拒绝",
    "timed out": "超时",
    "unknown host": "找不到这个地址",
    "network is unreachable": "网络不通",
    "no route to host": "找不到通往它的网络",
    "connection reset by peer": "连接被对方断开",
    "host is down": "对方没有开机",
}
"""A stream's or a server's trouble (:func:`vision.sources._problem`'s few English words, a ``problem``) in
Chinese: registered as the Chinese of those values (:data:`scorer.messages.VALUES_ZH`)."""

register_messages("vision", VISION_MESSAGES_EN, VISION_MESSAGES_ZH, values_zh={"problem": PROBLEMS_ZH})

__all__ = ["PROBLEMS_ZH", "VISION_MESSAGES_EN", "VISION_MESSAGES_ZH"]
