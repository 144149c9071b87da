"""The manifest and the service worker as the server sends them (issue 28 §4)."""

from __future__ import annotations

from codecrack.web.installable import assets_digest
from codecrack.web.middleware import SECURITY_HEADERS


def test_the_manifest_names_the_app_in_the_asked_language_and_its_icons_are_served(client):
    answer = client.get("/manifest.webmanifest", headers={"accept-language": "th"})
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["lang"] == "th" and manifest["description"].startswith("เกม")
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon
    assert client.get("/manifest.webmanifest").json()["description"].startswith("Hidden-code")


def test_the_worker_is_served_from_the_root_uncached_under_the_same_csp_and_named_after_the_assets(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    assert answer.headers["content-security-policy"] == SECURITY_HEADERS["content-security-policy"]
    assert f'const VERSION = "{assets_digest()}";' in answer.text
    assert "__VERSION__" not in answer.text
