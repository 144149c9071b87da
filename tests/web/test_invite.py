"""Inviting friends: a table made for friends gives its open seats only through its link (a seat
invitation, a secret that is not the table code); "open to anyone" stays a choice. The invite
panel's QR code draws the table's link on the server as SVG."""

from __future__ import annotations

from .wsclient import HUMAN, RANDOM, bearer, seated

FRIENDS = {"game": "coda", "seats": [HUMAN, HUMAN], "sit": 0, "name": "Host"}


def made(client, **changes):
    answer = client.post("/api/tables", json={**FRIENDS, **changes})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_stranger_who_read_the_code_in_the_lobby_cannot_take_a_friends_seat(client):
    table = made(client, open_to="link")
    assert table["table"]["open_to"] == "link" and table["invite"]
    listed = {t["code"]: t for t in client.get("/api/tables").json()}
    assert listed[table["code"]]["open_to"] == "link"  # the lobby shows the code, never the invitation
    for invite in (None, "", "WRONG", table["code"]):
        refused = client.post(
            f"/api/tables/{table['code']}/join", json={"seat": 1, "name": "Stranger", "invite": invite}
        )
        assert refused.status_code == 403 and "link" in refused.json()["detail"]
    assert not client.get(f"/api/tables/{table['code']}").json()["seats"][1]["claimed"]  # nothing changed
    friend = client.post(
        f"/api/tables/{table['code']}/join", json={"seat": 1, "name": "Friend", "invite": table["invite"]}
    )
    assert friend.status_code == 200 and friend.json()["token"]
    assert client.get(f"/api/tables/{table['code']}").json()["seats"][1]["claimed"]


def test_open_to_anyone_stays_a_choice(client):
    for changes in ({}, {"open_to": "anyone"}):  # the API's default: API clients seat whom they tell the code
        table = made(client, **changes)
        assert table["table"]["open_to"] == "anyone" and table["invite"] is None
        assert client.post(f"/api/tables/{table['code']}/join", json={"seat": 1, "name": "Anyone"}).status_code == 200
    assert client.post("/api/tables", json={**FRIENDS, "open_to": "friends"}).status_code == 400


def test_the_invitation_is_given_only_to_seated_players(client):
    table = made(client, open_to="link")
    code, secret = table["code"], table["invite"]
    for public in (f"/api/tables/{code}", "/api/tables", f"/api/tables/{code}/qr.svg"):
        assert secret not in client.get(public).text
    with client.websocket_connect(f"/ws/{code}") as spectator:
        spectator.send_json({"type": "hello", "token": None})
        assert secret not in spectator.receive_text()
    assert client.get(f"/api/tables/{code}/invite").status_code == 403
    assert client.get(f"/api/tables/{code}/invite", headers=bearer("NOT-A-TOKEN")).status_code == 403
    mine = client.get(f"/api/tables/{code}/invite", headers=bearer(table["token"]))
    assert mine.json() == {"code": code, "invite": secret}
    qr = client.get(f"/api/tables/{code}/qr.svg", headers=bearer(table["token"]))
    assert f"http://testserver/t/{code}#invite={secret}" in qr.text  # a seated player's QR code invites


def test_a_rematch_keeps_the_invitation(client):
    first = made(client, game="toy", seats=[HUMAN, RANDOM, HUMAN], options={"target": 1, "first": 0}, open_to="link")
    code = first["code"]
    client.post(f"/api/tables/{code}/join", json={"seat": 2, "invite": first["invite"]}).raise_for_status()
    with seated(client, code, first["token"]) as me:
        me.play_to_the_end(lambda view: {"type": "add", "amount": 1})
    fresh = client.post(f"/api/tables/{code}/rematch", headers=bearer(first["token"])).json()["code"]
    assert client.get(f"/api/tables/{fresh}").json()["open_to"] == "link"
    again = client.get(f"/api/tables/{fresh}/invite", headers=bearer(first["token"])).json()
    assert again["invite"] == first["invite"]  # the friends' link still leads to their seats


def test_the_qr_code_is_an_svg_of_the_tables_link(client):
    made = client.post("/api/tables", json={"game": "coda", "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    response = client.get(f"/api/tables/{made['code']}/qr.svg")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert response.text.startswith("<?xml") and "<svg" in response.text
    assert f"http://testserver/t/{made['code']}" in response.text  # its title names the link it encodes


def test_no_qr_code_for_a_missing_table(client):
    assert client.get("/api/tables/NOPE2/qr.svg").status_code == 404


def test_a_renewed_invitation_stops_the_old_link_and_the_seated_keep_their_seats(client):
    table = made(client, seats=[HUMAN, HUMAN, HUMAN], open_to="link")
    code, old = table["code"], table["invite"]
    friend = client.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Friend", "invite": old}).json()["token"]
    for stranger in ({}, bearer("NOT-A-TOKEN")):
        assert client.post(f"/api/tables/{code}/invite", headers=stranger).status_code == 403
    renewed = client.post(f"/api/tables/{code}/invite", headers=bearer(friend))  # any seated player may
    assert renewed.status_code == 200
    new = renewed.json()["invite"]
    assert new and new != old
    refused = client.post(f"/api/tables/{code}/join", json={"seat": 2, "name": "Stranger", "invite": old})
    assert refused.status_code == 403
    seats = client.get(f"/api/tables/{code}").json()["seats"]
    assert [seat["claimed"] for seat in seats] == [True, True, False]  # the seated keep their seats
    assert client.get(f"/api/tables/{code}/invite", headers=bearer(table["token"])).json()["invite"] == new
    qr = client.get(f"/api/tables/{code}/qr.svg", headers=bearer(friend)).text
    assert f"#invite={new}" in qr and old not in qr
    assert client.post(f"/api/tables/{code}/join", json={"seat": 2, "invite": new}).status_code == 200


def test_a_table_open_to_anyone_has_no_invitation_to_renew(client):
    table = made(client)
    renewed = client.post(f"/api/tables/{table['code']}/invite", headers=bearer(table["token"]))
    assert renewed.status_code == 400 and "anyone" in renewed.json()["detail"]
    assert client.get(f"/api/tables/{table['code']}").json()["open_to"] == "anyone"


def test_a_renewal_reaches_the_other_seated_players_panels_at_once(client):
    table = made(client, seats=[HUMAN, HUMAN, HUMAN], open_to="link")
    code, old = table["code"], table["invite"]
    friend = client.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Friend", "invite": old}).json()["token"]
    with seated(client, code, friend) as other, seated(client, code) as spectator:
        new = client.post(f"/api/tables/{code}/invite", headers=bearer(table["token"])).json()["invite"]
        for connection in (other, spectator):  # the notice was queued before the renewal's answer
            connection.ws.send_json({"type": "ping"})
            connection.until(lambda m: m["type"] == "pong")
        assert {"type": "invite", "invite": new} in other.log
        assert not any(new in text for text in spectator.texts)  # the invitation is the seated players' only


def test_a_renewal_after_a_rematch_renews_the_rematchs_invitation_too(client):
    first = made(client, game="toy", seats=[HUMAN, RANDOM, HUMAN], options={"target": 1, "first": 0}, open_to="link")
    code, old = first["code"], first["invite"]
    with seated(client, code, first["token"]) as me:
        me.play_to_the_end(lambda view: {"type": "add", "amount": 1})
    fresh = client.post(f"/api/tables/{code}/rematch", headers=bearer(first["token"])).json()["code"]
    new = client.post(f"/api/tables/{code}/invite", headers=bearer(first["token"])).json()["invite"]
    assert client.get(f"/api/tables/{fresh}/invite", headers=bearer(first["token"])).json()["invite"] == new
    refused = client.post(f"/api/tables/{fresh}/join", json={"seat": 2, "name": "Stranger", "invite": old})
    assert refused.status_code == 403  # the old link no longer seats anyone at the rematch either
    assert client.post(f"/api/tables/{fresh}/join", json={"seat": 2, "invite": new}).status_code == 200
