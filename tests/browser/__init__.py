"""Browser tests of the live table page (headless Chromium driven by Playwright) and their helpers."""
