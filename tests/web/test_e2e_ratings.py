"""Two accounts play a rated Coda game in the browser: both see their rating change on the end
screen, then on the profile, whose history lists the game; the leaderboard page opens. Then Ann
deletes her account, and the game still replays for Bob, her seat named "deleted player"."""

from __future__ import annotations

import random

import pytest

from .test_e2e import site  # noqa: F401  (the module's server and browser)

pytestmark = pytest.mark.e2e
API = "import('/static/js/api.js')"


def signed_up(browser, url: str, handle: str):
    page = browser.new_context().new_page()
    page.goto(f"{url}/#/account")
    page.fill("#account-create input[name=handle]", handle)
    page.fill("#account-create input[name=password]", "correct horse battery")
    page.click("#account-create button[type=submit]")
    page.wait_for_selector(f"#account-link >> text={handle}")
    return page


def sit(page, url: str, code: str, seat: int, made: dict | None = None) -> None:
    """Keep the seat's token as the lobby does, then open the table."""
    script = f"async ([code, seat, made]) => {{ const m = await {API}; "
    script += "const got = made ?? await m.api.join(code, seat, ''); m.seats.set(code, seat, got.token); }"
    page.evaluate(script, [code, seat, made])
    page.goto(f"{url}/t/{code}")
    page.wait_for_selector(".board")


def test_two_accounts_see_their_rating_change_on_the_end_screen_and_the_profile(site):
    url, browser = site
    ann, bob = signed_up(browser, url, "Ann_r"), signed_up(browser, url, "Bob_r")
    body = {"game": "coda", "seats": [{"kind": "human"}, {"kind": "human"}], "sit": 0, "name": ""}
    made = ann.evaluate(f"async (body) => (await {API}).api.create(body)", body)
    assert made["table"]["rated"] is True
    sit(ann, url, made["code"], 0, made)
    sit(bob, url, made["code"], 1)
    ann.wait_for_selector(".table-head .tag.rated")
    rng = random.Random(7)
    pick = "(n) => { const c = window.codecrack; const legal = c.view?.legal_actions ?? [];"
    pick += " if (c.sending || !legal.length || !(c.view.to_move ?? []).includes(c.seat)) return false;"
    pick += " c.send(legal[n % legal.length]); return true; }"
    for _ in range(3000):
        if ann.query_selector("#result") and bob.query_selector("#result"):
            break
        for page in (ann, bob):
            page.evaluate(pick, rng.randrange(1 << 30))
        ann.wait_for_timeout(20)
    else:
        raise AssertionError("the game did not end")
    for page in (ann, bob):
        page.wait_for_selector("#rating-changes li >> nth=1")
        lines = page.inner_text("#rating-changes")
        assert "1500?" in lines and "→" in lines
    code = made["code"]
    ann.goto(f"{url}/u/ann_r")
    ann.wait_for_selector("#profile-ratings >> text=Coda")
    assert "?" in ann.inner_text("#profile-ratings .rating")
    ann.click("#all-games")
    ann.wait_for_selector(f'#history-games li[data-code="{code}"]')  # quoted: a code may start with a digit
    ann.select_option("#history-filters select[name=opponents]", "ai")
    ann.wait_for_selector("#history-page >> text=No games.")
    ann.goto(f"{url}/leaderboard/coda")
    ann.wait_for_selector("#leaderboard >> text=Nobody is listed yet.")
    assert "?" in ann.inner_text("#your-rank")  # not listed after one game, yet its rating is shown
    ann.goto(f"{url}/#/account")
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.fill("#delete-account input[name=password]", "correct horse battery")
    ann.click("#delete-account button[type=submit]")
    ann.wait_for_url(f"{url}/")
    bob.goto(f"{url}/t/{code}")
    bob.wait_for_selector("#end-summary")
    bob.click("#replay")
    bob.click("#replay-bar button[title=Start]")
    bob.click("#replay-next")
    assert "step 1 /" in bob.inner_text("#replay-step")
    bob.wait_for_selector("text=deleted player")
    for page in (ann, bob):
        page.context.close()
