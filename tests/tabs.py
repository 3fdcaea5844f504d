"""Browser tabs for the page's tests (tests/test_web_page.py: `cpflow serve`; tests/test_site_page.py: the static
site): a fresh tab in a context of its own, at an address, and the errors it logs (its scripts' and the console's),
on a desktop's screen or on a phone's (390x844, touch; or a smaller phone's: `SMALL_PHONES`)."""

from __future__ import annotations

PHONE = {"width": 390, "height": 844}
SMALL_PHONES = [{"width": 375, "height": 667}, {"width": 360, "height": 640}]  # iPhone SE and mini; a small Android
PHONE_CONTEXT = {"viewport": PHONE, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}


def open_tab(browser, url: str, **context):
    """A fresh tab at `url` (in a context with `context` for its options), and the list its errors are logged in."""
    tab = browser.new_context(**context).new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    tab.goto(url)
    return tab, errors


def open_phone(browser, url: str, size: dict = PHONE):
    """A fresh tab at `url` as a phone of that screen `size` opens it, and the list its errors are logged in."""
    return open_tab(browser, url, **{**PHONE_CONTEXT, "viewport": size})


def scripts_errors(errors: list[str]) -> list[str]:
    """The errors but the browser's `Failed to load resource` lines (a 4xx the page was meant to get)."""
    return [error for error in errors if not error.startswith("Failed to load resource")]


def checked(opened, errors_of=scripts_errors):
    """A fixture's body: the tab `open_tab` opened once its page is ready; the test done, its context closed and no
    error of those `errors_of` picks logged."""
    tab, errors = opened
    tab.wait_for_selector("body[data-ready]")
    yield tab
    tab.context.close()
    assert errors_of(errors) == [], errors
