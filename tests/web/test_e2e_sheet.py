"""The cracking sheet reads clearly (issue 25 §3): a row keeps its tile number when the name is long,
and the column headers read 10 and 11 in full."""

from __future__ import annotations

import pytest

from .test_e2e import site  # noqa: F401  (the module's server and browser)

pytestmark = pytest.mark.e2e

LONG = "Bartholomew-Alexander Fitzwilliam"

# Whether the label's "#N" (its text, wherever it is in the label) lies inside the label's box.
NUMBER_SHOWN = """th => {
  const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent.indexOf("#");
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, node.textContent.length);
    const text = range.getBoundingClientRect(), box = th.getBoundingClientRect();
    return text.right <= box.right + 0.5 && text.left >= box.left - 0.5 && th.scrollWidth <= th.clientWidth + 1;
  }
  return false;
}"""


def coda_against(site, name: str, width: int):
    url, browser = site
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(url)
    page.select_option("#create-form select[name=game]", "coda")
    page.select_option("#create-form select[name=seat-1]", "ai:random")
    page.fill("#create-form input[name=name]", name)
    page.click("#create-go")
    page.wait_for_selector(".notes .sheet tbody tr")
    return page


@pytest.mark.parametrize("width", [390, 1280])
def test_rows_keep_their_tile_number_and_headers_read_10_and_11(site, width):
    page = coda_against(site, "Seat", width)
    page.evaluate(f"() => {{ window.codecrack.table.seats[1].name = {LONG!r}; window.codecrack.render(); }}")
    for row in page.locator(".notes .sheet tbody th").all():  # the "#N" is drawn inside the row's label
        assert row.evaluate(NUMBER_SHOWN), row.inner_text()
    for header in page.locator(".notes .sheet thead th").all()[1:]:
        fits = header.evaluate(
            "th => th.scrollWidth <= th.clientWidth + 1 && getComputedStyle(th).textOverflow !== 'ellipsis'"
        )
        assert fits, header.inner_text()
    headers = page.locator(".notes .sheet thead th").all_inner_texts()
    assert "10" in headers and "11" in headers
    page.close()
