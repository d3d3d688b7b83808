"""The screenshot of `srl-zoo serve`'s page in docs/ (Debian's headless chromium through chromium-driver).

Usage:
  python scripts/screenshot_serve.py models/ewt-english.tar.gz docs/images/serve.png [--width 1100 --height 760]
"""

import argparse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from srl_zoo.serving.local_server import start_local_server

TEXT = (
    "The committee approved the new budget on Tuesday after a long debate. "
    "Prices fell sharply in March because demand collapsed."
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive")
    parser.add_argument("output")
    parser.add_argument("--width", type=int, default=1100)
    parser.add_argument("--height", type=int, default=760)
    parser.add_argument("--text", default=TEXT)
    args = parser.parse_args()
    server, url = start_local_server(args.archive, "--precision", "float32", quiet=False)
    url += "/"
    try:
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
            options.add_argument(argument)
        options.add_argument(f"--window-size={args.width},{args.height}")
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            driver.get(url)
            box = driver.find_element(By.ID, "text")
            box.clear()
            box.send_keys(args.text)
            driver.find_element(By.ID, "label").click()
            WebDriverWait(driver, 60).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-labeled"))
            driver.save_screenshot(args.output)
        finally:
            driver.quit()
    finally:
        server.terminate()
        server.wait(timeout=60)
    print(args.output)


if __name__ == "__main__":
    main()
