"""Screenshots of a built site for the README: the index and one matrix
(`canastra report ... --out DIR --screenshots DIR`), taken in headless
Chromium (browser.py)."""
from __future__ import annotations

from pathlib import Path

from canastra_ref.errors import CanastraError

from .browser import browser_context, unavailable


def take(site: Path, dest: Path, ruleset: str) -> list[Path]:
    reason = unavailable()
    if reason:
        raise CanastraError(f"cannot take screenshots: {reason}")
    pages = {"index.png": site / "index.html", f"matrix-{ruleset}.png": site / "matrix" / f"{ruleset}.html"}
    missing = [str(p) for p in pages.values() if not p.is_file()]
    if missing:
        raise CanastraError(f"no such page in the site: {', '.join(missing)}")
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    with browser_context(width=1280, height=800) as context:
        page = context.new_page()
        for name, source in pages.items():
            page.goto(source.resolve().as_uri())
            page.screenshot(path=str(dest / name))
            written.append(dest / name)
    return written
