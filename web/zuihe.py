"""The 嘴和 scorer on the web: a page to enter a hand by clicking cards, and a JSON API.

``zuihe_bp`` is a self-contained blueprint (its own template and static files, no
dependency on the rest of the app), mounted at ``/zuihe``:

- ``GET /zuihe/`` — the page: cards drawn as inline SVG, the itemised explanation in
  Chinese with an English toggle (the ``lang`` cookie of the main app picks the start).
- ``POST /zuihe/api/score`` — body: a HAND.json object; answer: the ``tuolaji zuihe
  --json`` object plus ``"explain"`` (the same explanation, structured, in ``zh`` and
  ``en``). Bad input: status 400 and ``{"error": "<one line>"}``.

>>> from flask import Flask
>>> app = Flask(__name__)
>>> app.register_blueprint(zuihe_bp)
>>> answer = app.test_client().post("/zuihe/api/score", json={"hand": ["0B"]})
>>> answer.status_code, answer.get_json()
(400, {'error': 'hand[0]: unknown card "0B"'})
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from scorer import safejson
from scorer.errors import InputError
from scorer.zuihe import ALL_CARDS, ZuiheOptions, ZuiheResult, score

zuihe_bp = Blueprint(
    "zuihe", __name__, url_prefix="/zuihe",
    template_folder="templates", static_folder="static", static_url_path="/static",
)


def card_table() -> list[dict[str, Any]]:
    """The 30 kinds as the page draws them."""
    return [
        {"code": c.code, "zh": c.name_zh, "en": c.name_en, "yao": c.is_yao, "suit": c.suit or "Z", "rank": c.rank}
        for c in ALL_CARDS
    ]


def explain_json(result: ZuiheResult, lang: str) -> dict[str, Any]:
    """The explanation, structured for the page, in one language."""
    zh = lang == "zh"
    if result.wins:
        zui = result.to_json()["zui"]
        title = (f"和了 — {result.hand_type_zh}，{result.he}和，{zui}嘴" if zh
                 else f"Wins — {result.hand_type_en}, {result.he} 和, {zui} 嘴")
    else:
        title = (f"不和 — {result.hand_type_zh}：{result.reason_zh}；最多{result.he}和" if zh
                 else f"Does not win — {result.hand_type_en}: {result.reason_en}; best {result.he} 和")
    note = ""
    if result.wins and result.reason_zh:
        note = result.reason_zh if zh else result.reason_en
    return {
        "title": title,
        "note": note,
        "groups": [
            {"name": g.name_zh if zh else g.name_en, "cards": [c.code for c in g.cards], "he": g.he}
            for g in result.groups
        ],
        "items": [{"name": i.name_zh if zh else i.name_en, "zui": i.to_json()["zui"]} for i in result.items],
    }


@zuihe_bp.get("/")
def page() -> str:
    lang = request.args.get("lang") or request.cookies.get("lang") or "zh"
    return render_template("zuihe.html", cards=card_table(), lang="en" if lang == "en" else "zh",
                           options=ZuiheOptions().__dict__)


@zuihe_bp.post("/api/score")
def api_score() -> tuple[Response, int]:
    try:
        body = safejson.loads(request.get_data(cache=True), "request body") if request.is_json else None
        if not isinstance(body, dict):
            return jsonify({"error": "request body: expected a HAND.json object"}), 400
        result = score(body)
    except InputError as exc:
        return jsonify({"error": str(exc)}), 400
    answer = result.to_json()
    answer["explain"] = {"zh": explain_json(result, "zh"), "en": explain_json(result, "en")}
    return jsonify(answer), 200
