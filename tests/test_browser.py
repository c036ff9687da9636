"""The answer page in a real browser (Debian's headless Chromium driven by Selenium), used as a
person uses it: step through a won Pyramid deal to the end, and read the browser's log.

Chromium missing is a failure, not a skip: .ci/run installs it (apt-get chromium chromium-driver).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import solitaire_solver as ss

SCREENSHOT = Path(__file__).resolve().parent.parent / "docs" / "pyramid-solution.png"
VISIBLE = ".frame:not([hidden])"


@pytest.fixture
def browser():
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver, ("the browser test needs Debian's chromium and chromium-driver "
                                 "(apt-get install -y chromium chromium-driver; .ci/run does it)")
    opts = Options()
    opts.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=900,820", "--hide-scrollbars", "--force-device-scale-factor=1"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(driver), options=opts)
    try:
        yield d
    finally:
        d.quit()


def shown(d, selector: str) -> list:
    return [e for e in d.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()]


def test_stepping_a_won_pyramid_to_the_end_clears_the_pyramid(browser, tmp_path):
    deal = ss.Deal.from_seed(1)
    r = ss.solve("pyramid", deal)
    assert r.won
    page = tmp_path / "pyramid.html"
    page.write_text(ss.render_html("pyramid", deal, r), encoding="utf-8")
    d = browser
    d.get(page.as_uri())

    # One frame shows at a time: the deal, with the first move's cards marked.
    assert len(shown(d, ".frame")) == 1
    assert len(shown(d, f"{VISIBLE} [data-place=pyramid]")) == 28
    first = {e.get_attribute("data-card") for e in shown(d, f"{VISIBLE} [data-marked=true]")}
    assert first == {ss.card_name(c) for c in r.moves[0].cards}
    assert not d.find_element(By.ID, "first").is_enabled()

    # The arrow keys step; a click on a move opens the position where it is played.
    body = d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    assert d.find_element(By.CSS_SELECTOR, VISIBLE).get_attribute("data-step") == "1"
    body.send_keys(Keys.ARROW_LEFT)
    assert d.find_element(By.CSS_SELECTOR, VISIBLE).get_attribute("data-step") == "0"
    d.find_elements(By.CSS_SELECTOR, "#moves button")[5].click()
    assert d.find_element(By.CSS_SELECTOR, VISIBLE).get_attribute("data-step") == "5"

    # A step with a pair marked, for README's picture.
    k = next(i for i, m in enumerate(r.moves) if i >= 5 and len(m.cards) == 2)
    d.find_elements(By.CSS_SELECTOR, "#moves button")[k].click()
    assert len(shown(d, f"{VISIBLE} [data-marked=true]")) == 2
    d.execute_script("window.scrollTo(0, 0)")
    png = d.get_screenshot_as_png()
    assert png.startswith(b"\x89PNG")
    # README's picture is of the compiled core's line: the fallback finds another line, and the
    # picture should not change with the backend that ran the tests.
    if r.stats.get("backend") == "core":
        SCREENSHOT.write_bytes(png)

    # Next, click by click, to the end: the button stops there.
    d.find_element(By.ID, "first").click()
    nxt = d.find_element(By.ID, "next")
    clicks = 0
    while nxt.is_enabled():
        nxt.click()
        clicks += 1
        assert clicks <= len(r.moves)
    assert clicks == len(r.moves)
    assert shown(d, f"{VISIBLE} [data-place=pyramid]") == []
    assert shown(d, f"{VISIBLE} [data-card]") == []  # goal "all": stock and waste are gone too
    assert "won" in d.find_element(By.ID, "caption").text
    d.find_element(By.ID, "first").click()
    assert len(shown(d, f"{VISIBLE} [data-place=pyramid]")) == 28
    body.send_keys(Keys.END)
    assert shown(d, f"{VISIBLE} [data-place=pyramid]") == []

    errors = [e for e in d.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == []
