"""Browser helpers for the table page (tests/test_serve_browser.py, tools/screenshots.py): a served table
on a free local port, and headless Chromium (Debian's `chromium` + `chromium-driver`; nothing is
downloaded at test time)."""

from __future__ import annotations

import contextlib
import shutil
import threading
import time
from collections.abc import Iterator

import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from engine.serve.app import Server, create_app
from engine.serve.table import Table

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@contextlib.contextmanager
def serving(tables: list[Table], bot_delay: float = 0.05) -> Iterator[str]:
    """Serve `tables` in a thread; yields the base URL."""
    config = uvicorn.Config(create_app(Server(tables, bot_delay=bot_delay)), host="127.0.0.1", port=0,
                            log_level="warning", ws="websockets")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:          # startup is quick; the loop only waits for the socket
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join()


@contextlib.contextmanager
def chromium(width: int = 1400, height: int = 1000) -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    if CHROMIUM:
        options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    try:
        yield driver
    finally:
        driver.quit()
