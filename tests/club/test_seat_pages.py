"""The seat cards and the projector's slide (issue 43, item 2): the round's seating as /club/api/seating
gives it (the round under way, else the latest, or the one asked for), both pages in either language."""

from __future__ import annotations

from .conftest import ClubServer
from .test_director import console, seat_eight


def test_the_seating_the_cards_and_the_slide_show(club: ClubServer) -> None:
    client, headers = console(club)
    assert client.get("/club/api/seating").get_json() == {"round": None, "under_way": False, "seating": []}
    seat_eight(client, headers)
    client.post("/club/director/api/rounds", headers=headers, json={"seating": "hand", "deals": 2, "tables": [
        {"table": f"{n}号桌", "ns": f"对{2 * n - 1}", "ew": f"对{2 * n}"} for n in range(1, 5)]})
    now = client.get("/club/api/seating").get_json()  # anyone may read it, as the room
    assert now["round"] == 1 and now["under_way"] is True and now["ends_by"] == "deals" and now["deals"] == 2
    assert now["seating"][1] == {"table": "2号桌", "ns": {"pair": "对3", "players": ["甲3", "乙3"]},
                                 "ew": {"pair": "对4", "players": ["甲4", "乙4"]}}
    client.post("/club/director/api/rounds/end", headers=headers)
    client.post("/club/director/api/rounds", headers=headers, json={"seating": "howell", "deals": 1})
    assert client.get("/club/api/seating").get_json()["seating"][3]["ns"]["pair"] == "对8"
    first = client.get("/club/api/seating?round=1").get_json()
    assert first["round"] == 1 and first["under_way"] is False and first["seating"][0]["ns"]["pair"] == "对1"
    assert client.get("/club/api/seating?round=9").get_json()["round"] is None
    assert client.get("/club/api/seating?round=99999999999").get_json()["round"] is None
    for address, title in (("/club/cards", "座位卡"), ("/club/slide", "本轮座位")):
        page = client.get(address)
        assert page.status_code == 200 and f">{title}</h1>" in page.get_data(as_text=True)
        assert f">{title}</title>" in page.get_data(as_text=True)  # the page's own title, in the tab and the print
    assert ">Seat cards</h1>" in client.get("/club/cards?lang=en").get_data(as_text=True)
    console_page = client.get(f"/club/director?token={headers['X-Tuolaji-Token']}").get_data(as_text=True)
    assert 'href="/club/cards"' in console_page and 'href="/club/slide"' in console_page
