"""The installable web app in Chromium (issue 28 §4): the manifest is linked and valid, Chromium finds
nothing missing to install the site, the service worker registers, and what it caches is static
assets only: no page, no /api answer, no token."""

from __future__ import annotations

import json
import re

import pytest

from codecrack.web.config import WebConfig

from .browser import CHROMIUM, CHROMIUM_ARGS, require_chromium, running_server

pytestmark = pytest.mark.e2e

STATIC = re.compile(r"/(static/[\w./-]+|games/[a-z0-9_-]+/[a-z0-9_-]+\.(js|css))")
CACHED = """async () => {
  const found = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      found.push({ url: request.url, body: await response.text() });
    }
  }
  return found;
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The server and a Chromium with a profile on disk: Chromium installs no site from an
    incognito context (Playwright's usual one)."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    folder = tmp_path_factory.mktemp("installable")
    config = WebConfig(db_url=f"sqlite:///{folder}/web.db", ai_pace=0.0, disconnect_timeout=30)
    with running_server(config) as url, sync_playwright() as playwright:
        profile = playwright.chromium.launch_persistent_context(
            folder / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS, viewport={"width": 1200, "height": 900}
        )
        try:
            yield url, profile
        finally:
            profile.close()


SHOWN = """async () => {
  const registration = await navigator.serviceWorker.ready;
  for (let tries = 0; tries < 200; tries++) {  // a bound (ten seconds), not a timing claim
    const found = await registration.getNotifications();
    if (found.length) return found.map((n) => ({ title: n.title, body: n.body, url: n.data.url }));
    await new Promise((wake) => setTimeout(wake, 50));
  }
  return [];
}"""


def controlled_page(site):
    """A fresh context's page on the home page, reloaded once its worker is active, so that the
    worker controls it (a page is controlled from the load after the worker's activation)."""
    url, profile = site
    page = profile.new_page()
    page.csp_refusals = []
    page.on("console", lambda m: "Content Security Policy" in m.text and page.csp_refusals.append(m.text))
    page.goto(url)
    page.evaluate("() => { navigator.serviceWorker.ready.then(() => { window.workerReady = true; }); }")
    page.wait_for_function("() => window.workerReady === true")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_selector("#create-go")
    return page


def test_the_manifest_is_linked_and_valid_and_nothing_keeps_chromium_from_installing_the_site(site):
    page = controlled_page(site)
    devtools = page.context.new_cdp_session(page)
    manifest = devtools.send("Page.getAppManifest")
    assert manifest["url"] == f"{site[0]}/manifest.webmanifest"
    assert manifest["errors"] == []
    assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    for icon in page.evaluate("fetch('/manifest.webmanifest').then((r) => r.json())")["icons"]:
        assert page.request.get(f"{site[0]}{icon['src']}").ok, icon
    assert page.csp_refusals == []
    page.close()


def test_the_worker_caches_static_assets_only_never_a_page_an_api_answer_or_a_token(site):
    page = controlled_page(site)
    page.select_option("#create-form select[name=game]", "coda")
    page.select_option("#create-form select[name=seat-1]", "ai:random")
    page.fill("#create-form input[name=name]", "Tester")
    page.click("#create-go")
    page.wait_for_selector(".board")
    code = page.url.rsplit("/", 1)[1]
    token = page.evaluate(f"JSON.parse(localStorage.getItem('codecrack:seat:{code}')).token")
    page.reload()  # the table again, its page and every answer through the worker
    page.wait_for_selector(".board")
    page.goto(f"{site[0]}/daily")
    page.wait_for_selector("#app *")
    cached = page.evaluate(CACHED)
    paths = {entry["url"].removeprefix(site[0]) for entry in cached}
    assert {"/static/js/main.js", "/static/app.css", "/games/coda/board.js"} <= paths
    assert [path for path in paths if not STATIC.fullmatch(path)] == []
    assert not any(token in entry["body"] or code in entry["body"] for entry in cached)
    assert page.csp_refusals == []
    page.close()


def test_a_push_shows_its_title_and_body_and_the_account_page_offers_the_opt_in(site):
    """Chromium delivers a push message to the worker (as a push service would, through DevTools):
    the notification shows the message, and leads to its path on this site."""
    url, profile = site
    profile.grant_permissions(["notifications"], origin=url)
    page = controlled_page(site)
    registrations = []
    devtools = page.context.new_cdp_session(page)
    devtools.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    devtools.send("ServiceWorker.enable")
    mine = []
    for _ in range(1000):  # until DevTools has told the worker's registration (a bound, not a timing claim)
        mine = [r for r in registrations if r["scopeURL"] == f"{url}/" and not r["isDeleted"]]
        if mine:
            break
        page.evaluate("() => new Promise((wake) => setTimeout(wake, 50))")  # lets DevTools' events in
    registration = mine[0]
    message = {"title": "codecrack", "body": "Your move at table ABCDE", "url": "/t/ABCDE"}
    shown = []
    for _ in range(6):  # DevTools' delivery is fire and forget: a loaded Chromium may drop one (seen 1 in 4 at load 9)
        devtools.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": url, "registrationId": registration["registrationId"], "data": json.dumps(message)},
        )
        shown = page.evaluate(SHOWN)
        if shown:
            break
    assert shown and all(notification == message for notification in shown), shown
    page.goto(f"{url}/#/account")
    page.wait_for_selector("#push-on:not([disabled])")
    assert page.csp_refusals == []
    page.close()
