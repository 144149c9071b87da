"""The invite panel's QR code: the table's link drawn on the server as SVG."""

from __future__ import annotations


def test_the_qr_code_is_an_svg_of_the_tables_link(client):
    made = client.post("/api/tables", json={"game": "coda", "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    response = client.get(f"/api/tables/{made['code']}/qr.svg")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert response.text.startswith("<?xml") and "<svg" in response.text
    assert f"http://testserver/t/{made['code']}" in response.text  # its title names the link it encodes


def test_no_qr_code_for_a_missing_table(client):
    assert client.get("/api/tables/NOPE2/qr.svg").status_code == 404
