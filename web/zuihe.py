"""The 嘴和 scorer on the web: a page to enter a hand by clicking cards, and a JSON API.

``zuihe_bp`` is a self-contained blueprint (its own template and static files, no
dependency on the rest of the app), mounted at ``/zuihe``:

- ``GET /zuihe/`` — the page: cards drawn as inline SVG, the itemised explanation in
  Chinese with an English toggle (the ``lang`` cookie of the main app picks the start).
- ``POST /zuihe/api/score`` — body: a HAND.json object; answer: the ``tuolaji zuihe
  --json`` object plus ``"explain"`` (the same explanation, structured, in ``zh`` and
  ``en``). Bad input: status 400 and ``{"error": "<one line>", "message": {"zh": …, "en": …}}``
  — ``error`` is the scorer's English line (as ``tuolaji zuihe`` prints it), ``message``
  the same in both languages for the page (Chinese from :data:`scorer.zuihe.messages.MESSAGES_ZH`).

>>> from flask import Flask
>>> app = Flask(__name__)
>>> app.register_blueprint(zuihe_bp)
>>> answer = app.test_client().post("/zuihe/api/score", json={"hand": ["0B"]})
>>> answer.status_code, answer.get_json()["error"], answer.get_json()["message"]["zh"]
(400, 'hand[0]: unknown card "0B"', '手牌第1张：不认识的牌“0B”')
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from tuolaji.scorer import safejson
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.safejson import MAX_HAND_BYTES
from tuolaji.scorer.zuihe import ALL_CARDS, Card, ZuiheOptions, ZuiheResult, score
from tuolaji.scorer.zuihe.messages import FLAGS_ZH, MESSAGES_ZH, PLACES_ZH, ZuiheInputError, render
from tuolaji.web.explain import describe_error
from tuolaji.web.i18n import both

zuihe_bp = Blueprint(
    "zuihe", __name__, url_prefix="/zuihe",
    template_folder="templates", static_folder="static", static_url_path="/static",
)


def place_zh(path: str) -> str:
    """A place in HAND.json, like ``melds[1].cards[2]``, in Chinese; a path it does not know stays as is.

    >>> place_zh("hand[3]"), place_zh("melds[1].cards[2]"), place_zh("yun[0]"), place_zh("options.sizes")
    ('手牌第4张', '亮出的第2组第3张', '云幺第1组', '选项 sizes')
    """
    words: list[str] = []
    for part in path.split("."):
        name, _, rest = part.partition("[")
        indices = rest.rstrip("]").split("][") if rest else []
        if not all(i.isdigit() for i in indices) or len(indices) > 2:
            return path
        numbers = [int(i) + 1 for i in indices]
        if name in PLACES_ZH:
            word = PLACES_ZH[name]
            if name in ("hand", "cards") and numbers:
                word += f"第{numbers[0]}张"
            elif numbers:
                word += f"第{numbers[0]}组" + "".join(f"第{n}张" for n in numbers[1:])
        elif not numbers and words:
            word = " " + FLAGS_ZH.get(name, name)
        else:
            return path
        words.append(word)
    return "".join(words) or path


def _card_zh(code: Any) -> str:
    try:
        return Card.parse(str(code)).name_zh
    except InputError:
        return str(code)


def error_zh(error: ZuiheInputError) -> str:
    """The Chinese of a 嘴和 input error, from its key and parameters.

    >>> from tuolaji.scorer.zuihe import score
    >>> try:
    ...     score({"hand": [], "melds": [{"type": "cha", "cards": ["5B", "5B", "6B"]}]})
    ... except ZuiheInputError as exc:
    ...     error_zh(exc)
    '亮出的第1组：叉是三张一样的牌，这里是：五饼、五饼、六饼'
    """
    params = dict(error.params)
    if error.key == "card_at":
        params["where"] = f"{params['where']}[{params['index']}]"
    if "where" in params:
        params["where"] = place_zh(str(params["where"]))
    if "cards" in params:
        params["cards"] = tuple(_card_zh(code) for code in params["cards"])
    if "card" in params:
        params["name"] = _card_zh(params["card"])
    if error.key.startswith("flag_") and "key" in params:
        params["key"] = FLAGS_ZH.get(str(params["key"]), params["key"])
    return render(MESSAGES_ZH[error.key], params)


def error_message(error: InputError) -> dict[str, str]:
    """``{"zh", "en"}`` of an error the API answers: a 嘴和 one by its key, any other (the request
    body's JSON) by the app's error wording."""
    if isinstance(error, ZuiheInputError) and error.key in MESSAGES_ZH:
        return {"zh": error_zh(error), "en": str(error)}
    return {"zh": describe_error(error)["zh"], "en": str(error)}


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
        body = (safejson.loads(request.get_data(cache=True), "request body", max_bytes=MAX_HAND_BYTES)
                if request.is_json else None)
        if not isinstance(body, dict):
            not_a_hand = both("zuihe.not_a_hand")
            return jsonify({"error": not_a_hand["en"], "message": not_a_hand}), 400
        result = score(body)
    except InputError as exc:
        return jsonify({"error": str(exc), "message": error_message(exc)}), 400
    answer = result.to_json()
    answer["explain"] = {"zh": explain_json(result, "zh"), "en": explain_json(result, "en")}
    return jsonify(answer), 200
