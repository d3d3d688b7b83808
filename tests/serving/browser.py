"""Debian's headless Chromium driven by Selenium through Debian's chromedriver: nothing is downloaded
(an explicit driver path keeps Selenium Manager from looking for one)."""

import contextlib
import shutil
from collections.abc import Iterator

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@contextlib.contextmanager
def chromium(width: int = 1100, height: int = 900) -> Iterator[webdriver.Chrome]:
    """A headless Chromium window of `width` x `height` CSS pixels (`make browser` installs it)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
