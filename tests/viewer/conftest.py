"""Fixtures of the viewer tests: a headless Debian chromium driven by Playwright.

The browser tests are skipped, with the reason, only when the ``playwright``
package or a chromium executable cannot be found on this machine (on CI,
where ``.ci/run`` installs both, a missing one fails instead). Screenshots
and the pages they show are kept under a temp dir (``SHENGJI_ARTIFACTS``
overrides it) whose path is printed at the end of the run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from viewer_helpers import CHROMIUM_ARGS, find_chromium

ARTIFACTS: list[Path] = []


def _unavailable(reason: str):
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{reason}; CI must have it (.ci/run installs chromium and the test extra)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        _unavailable("no chromium executable found (/usr/bin/chromium, PATH or SHENGJI_CHROMIUM): "
                     "install it with `apt-get install -y chromium`")
    return path


@pytest.fixture(scope="session")
def sync_api():
    try:
        from playwright import sync_api
    except ImportError:
        _unavailable("the playwright package is not installed: `pip install -e '.[test]'` "
                     "(it brings pytest-playwright)")
    return sync_api


@pytest.fixture(scope="session")
def viewer_browser(sync_api, chromium_path):
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def artifact_dir(tmp_path_factory) -> Path:
    env = os.environ.get("SHENGJI_ARTIFACTS")
    if env:
        path = Path(env)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("viewer-artifacts")


@dataclass
class Opened:
    """A page opened from a file://, with everything it asked the network for and every error."""
    page: object
    url: str
    requests: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def state(self) -> dict:
        from viewer_helpers import STATE_JS
        return self.page.evaluate(STATE_JS)

    def status(self) -> dict:
        return self.state()["attrs"]

    def press(self, key: str, times: int = 1) -> None:
        for _ in range(times):
            self.page.keyboard.press(key)

    def assert_clean(self) -> None:
        assert not self.errors, f"console errors: {self.errors}"
        assert not self.blocked, f"network requests: {self.blocked}"
        assert self.requests and all(u == self.url for u in self.requests), \
            f"requests other than the page's own file:// URL: {self.requests}"

    def screenshot(self, name: str, artifact_dir: Path) -> Path:
        path = artifact_dir / name
        self.page.screenshot(path=str(path), full_page=True)
        ARTIFACTS.append(path)
        print(f"viewer screenshot: {path}")
        return path


@pytest.fixture
def open_page(viewer_browser, tmp_path):
    """``open_page(html, name="page.html") -> Opened``: the page, opened from a file."""
    contexts = []

    def opener(html: str, name: str = "page.html", viewport=(1440, 1000)) -> Opened:
        path = tmp_path / name
        path.write_text(html, encoding="utf-8")
        url = path.as_uri()
        context = viewer_browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        contexts.append(context)
        page = context.new_page()
        opened = Opened(page, url)

        def route(r):  # nothing but the page itself may load: anything else is recorded and aborted
            if r.request.url != url:
                opened.blocked.append(r.request.url)
                r.abort()
            else:
                r.continue_()

        context.route("**/*", route)
        page.on("request", lambda req: opened.requests.append(req.url))
        page.on("console", lambda msg: opened.errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: opened.errors.append(f"page error: {exc}"))
        page.goto(url)
        page.wait_for_selector("html[data-ready=true]")
        return opened

    yield opener
    for c in contexts:
        c.close()


def pytest_terminal_summary(terminalreporter):
    if ARTIFACTS:
        terminalreporter.write_sep("-", "viewer artifacts")
        for path in ARTIFACTS:
            terminalreporter.write_line(f"screenshot: {path}")
