"""Headless Chromium for the site: the browser tests and the screenshots.

Playwright's Python package drives the Chromium the system has (Debian's
`chromium`, or the one $CANASTRA_CHROMIUM names); Playwright's own browser
download is never used. Chromium starts headless with a fresh profile and no
background networking, so it talks to nothing but the pages it is given.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium() -> str | None:
    given = os.environ.get("CANASTRA_CHROMIUM")
    if given:
        return given if shutil.which(given) or os.path.isfile(given) else None
    return next((found for found in map(shutil.which, NAMES) if found), None)


def unavailable() -> str | None:
    """Why no browser can be driven here, or None when one can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install playwright; its browser download is not needed)"
    if chromium() is None:
        return ("no Chromium found (apt-get install chromium, or set CANASTRA_CHROMIUM to a Chromium or Chrome "
                "executable)")
    return None


@contextmanager
def browser_context(width: int = 1400, height: int = 900):
    """A Playwright browser context of the system's Chromium, with a fresh profile."""
    from playwright.sync_api import sync_playwright
    reason = unavailable()
    if reason:
        raise RuntimeError(reason)
    with sync_playwright() as playwright, tempfile.TemporaryDirectory(prefix="canastra-chromium-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=chromium(), headless=True, args=FLAGS,
            viewport={"width": width, "height": height})
        try:
            yield context
        finally:
            context.close()
