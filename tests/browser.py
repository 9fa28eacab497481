"""What the browser tests share: Debian's chromium driven by Playwright, skipped where either is
missing (never in CI: ``.ci/run`` installs both)."""

import os
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # pragma: no cover - the test set-up installs it
    expect = sync_playwright = None

if os.environ.get("CI"):
    assert CHROMIUM and sync_playwright, ".ci/run installs Debian's chromium and the test extras (playwright)"
needs_browser = pytest.mark.skipif(not (CHROMIUM and sync_playwright), reason="needs Debian's chromium and playwright")
