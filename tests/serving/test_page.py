"""The page in a real headless browser: type a text, click Label, and the drawn spans are the API's
frames; the JSON toggle shows the API's answer; errors show in the page; it fits a phone's width."""

import json
import os
import signal

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.serving.browser import chromium
from tests.serving.conftest import spans_of

pytestmark = pytest.mark.slow  # starts the service and a browser: not in `make test-fast`

TEXT = "President Bush nominated two individuals. The Senate confirmed them on Tuesday."


def label_in_page(driver, server, text: str, times: int = 1) -> None:
    driver.get(server.url + "/")
    WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "model").text.startswith("model "))
    box = driver.find_element(By.ID, "text")
    box.clear()
    box.send_keys(text)
    driver.find_element(By.ID, "label").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-labeled"))


def drawn_spans(driver):
    """Per sentence, per frame, the (role, start, end) of each drawn argument span, read from the DOM."""
    sentences = []
    for section in driver.find_elements(By.CSS_SELECTOR, "#results .sentence"):
        frames = []
        for frame in section.find_elements(By.CSS_SELECTOR, ".frame"):
            frames.append(
                [
                    (
                        span.get_attribute("data-role"),
                        int(span.get_attribute("data-start")),
                        int(span.get_attribute("data-end")),
                    )
                    for span in frame.find_elements(By.CSS_SELECTOR, ".arg")
                ]
            )
        sentences.append(frames)
    return sentences


def test_the_page_draws_the_frames_the_api_returns(server, tmp_path):
    status, answer, _ = server.post({"text": TEXT})
    assert status == 200
    with chromium() as driver:
        label_in_page(driver, server, TEXT)
        assert drawn_spans(driver) == [
            [sorted(f, key=lambda a: a[1]) for f in s] for s in spans_of(answer["sentences"])
        ]
        assert sum(len(frame) for sentence in drawn_spans(driver) for frame in sentence) > 0
        sentences = driver.find_elements(By.CSS_SELECTOR, "#results .sentence .text")
        assert [element.text for element in sentences] == [s["text"] for s in answer["sentences"]]
        roles = {a["role"] for s in answer["sentences"] for f in s["frames"] for a in f["arguments"]}
        assert {chip.text for chip in driver.find_elements(By.CSS_SELECTOR, "#legend span")} == roles
        for span in driver.find_elements(By.CSS_SELECTOR, ".arg"):  # each span shows its text and its role
            assert span.find_element(By.CSS_SELECTOR, "sub .role").text == span.get_attribute("data-role")
        assert not driver.find_element(By.ID, "json").is_displayed()
        driver.find_element(By.ID, "show-json").click()
        assert json.loads(driver.find_element(By.ID, "json").text) == answer
        path = os.path.join(tmp_path, "serve-page.png")
        driver.save_screenshot(path)
        assert os.path.getsize(path) > 10_000


def test_an_error_is_shown_in_the_page(server):
    with chromium() as driver:
        driver.get(server.url + "/")
        words = " ".join(["word"] * 3100)  # over the server's 3,000-token limit
        driver.execute_script("document.getElementById('text').value = arguments[0]", words)
        driver.find_element(By.ID, "label").click()
        error = driver.find_element(By.ID, "error")
        WebDriverWait(driver, 30).until(lambda d: error.is_displayed())
        assert error.text == "Error 413: the request has 3100 tokens; the limit is 3000 (max_request_tokens)"


def test_the_page_fits_a_phone(server, tmp_path):
    with chromium(390, 844) as driver:
        label_in_page(driver, server, TEXT)
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= driver.execute_script("return window.innerWidth")
        driver.save_screenshot(os.path.join(tmp_path, "serve-phone.png"))


def test_the_page_shows_rolesets_role_meanings_and_scores_on_hover():
    """With the shipped model: `approve.01 — assent to` above the frame, `approver` beside `ARG0`, and the
    argument's score in its hover title."""
    from tests.conftest import REPO_ROOT
    from tests.serving.conftest import Server

    running = Server(os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz"))
    try:
        with chromium() as driver:
            label_in_page(driver, running, "The committee approved the budget.")
            frame = next(
                f
                for f in driver.find_elements(By.CSS_SELECTOR, ".frame")
                if f.find_element(By.CSS_SELECTOR, ".predicate").text.startswith("approved")
            )
            assert frame.find_element(By.CSS_SELECTOR, ".roleset").text == "approve.01 — assent to"
            agent = frame.find_element(By.CSS_SELECTOR, ".arg[data-role='ARG0']")
            assert agent.find_element(By.CSS_SELECTOR, "sub .description").text == "approver"
            title = agent.get_attribute("title")
            assert title.startswith("ARG0: approver · score 0.") or title == "ARG0: approver · score 1.00"
    finally:
        assert running.stop() == -signal.SIGTERM
