#!/usr/bin/env python3
"""@file pagefind_test.py
@brief `canon export pagefind`'s bundle and search box on a static site, in headless Chromium.

Python 3 standard library only; the WebDriver client is search_page_test.py's. Started by
run_pagefind_test.sh, which indexes a small site, exports the bundle into its pagefind/ and
serves the site with static_server.py (the bundle's filters answered late). Checks, on the
bundle's search.html and on a page of the site that embeds the box: what is typed while the box
still loads is searched; typing shows results with their sections (Pagefind's
sub-results) and the copies canon collapsed ("also at"), never a copy as a result of its own; a
word found only in a copy's title finds its page; a page titled with a script shows the title
as text and runs nothing; a filter of the site's section narrows the results; only the latest
query's answer is shown.
"""

import argparse
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from search_page_test import ELEMENT, TestFailure, check, wait_for, with_chromium

TITLE_PAYLOAD = "<script>window.pwned=1</script> Larder notes"


def ref(element):
    """An element found by WebDriver, as a script's argument."""
    return {ELEMENT: element}


def results(driver):
    """[(title, url, [section titles], [alternate URLs])] of the results on screen (read again
    when the list is replaced while it is read)."""
    for _ in range(20):
        try:
            return read_results(driver)
        except TestFailure as e:
            if "stale element" not in str(e):
                raise
            time.sleep(0.1)
    return read_results(driver)


def read_results(driver):
    out = []
    for r in driver.find_all(".canon-pf-result"):
        title = driver.find(".canon-pf-title", r)
        sections = [driver.text(s) for s in driver.find_all(".canon-pf-section", r)]
        copies = [driver.script("return arguments[0].getAttribute('href')", ref(a))
                  for a in driver.find_all(".canon-pf-alternate", r)]
        url = driver.script("return arguments[0].getAttribute('href') || ''", ref(title))
        out.append((driver.text(title), url, sections, copies))
    return out


def search(driver, words):
    """Types `words` into the box and returns the results once they are the answer to them: the
    list and status are emptied first, and read again until two readings agree (a slow answer
    to an earlier query is never taken for this one's)."""
    field = driver.find(".canon-pf-input")
    driver.script("arguments[0].value = '';"
                  "document.querySelector('.canon-pf-results').textContent = '';"
                  "document.querySelector('.canon-pf-status').textContent = ''", ref(field))
    driver.type(field, words)
    wait_for(lambda: driver.find_all(".canon-pf-result") or driver.text(driver.find(".canon-pf-status")),
             "an answer to %r" % words)
    seen = [results(driver)]

    def settled():
        time.sleep(0.4)
        seen.append(results(driver))
        return seen[-1] == seen[-2]

    wait_for(settled, "the answer to %r to settle" % words)
    return seen[-1]


def check_box(driver, page_url, screenshot=None):
    driver.go(page_url)
    wait_for(lambda: driver.find_all(".canon-pf-input"), "the search box on " + page_url)

    found = search(driver, "configuration stale")
    check(found, "no results for 'configuration stale'")
    title, url, sections, copies = found[0]
    check(title == "Installing Larder", "first result is %r, not the guide" % title)
    check(url.endswith("/docs/install.html"), "the guide links to %r" % url)
    check("Configuration" in sections, "the guide's sections shown: %r" % sections)
    site = page_url.split("/", 3)[:3]  # scheme, "", host:port
    check(sorted(copies) == ["/".join(site) + p for p in ("/mirror/docs/install.html", "/print/install.html")],
          "the guide's copies shown: %r" % copies)
    every_url = [r[1] for r in search(driver, "larder")]
    check(len(every_url) >= 5, "too few results for 'larder': %r" % every_url)
    check(not any("/print/" in u or "/mirror/" in u for u in every_url),
          "a collapsed copy is a result of its own: %r" % every_url)
    if screenshot:
        search(driver, "configuration stale")
        driver.screenshot(screenshot)

    # A word of a copy's title alone finds the page it was collapsed into.
    found = search(driver, "printer")
    check(found and found[0][0] == "Installing Larder", "'printer' (a copy's title) found %r" % found)

    # A hostile title is text.
    found = search(driver, "falconry notes")
    titles = [r[0] for r in found]
    check(TITLE_PAYLOAD in titles, "the payload title is not shown as text: %r" % titles)
    check(driver.script("return window.pwned === undefined"), "a page's title or text ran as script")
    check(not driver.find_all(".canon-pf-box img, .canon-pf-box script"), "markup from a page got into the results")

    # A filter of the site's section.
    search(driver, "larder")
    select = driver.find(".canon-pf-filter")
    values = driver.script("return [...arguments[0].options].map(o => o.value)", ref(select))
    check("kitchen" in values and "docs" in values, "the section filter offers %r" % values)
    driver.script("arguments[0].value = 'kitchen'; arguments[0].dispatchEvent(new Event('change'))", ref(select))
    wait_for(lambda: all("/kitchen/" in r[1] for r in results(driver)) and results(driver),
             "only kitchen pages after choosing the kitchen section")
    driver.script("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('change'))", ref(select))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--site-url", required=True, help="the static site's URL, ending in /")
    parser.add_argument("--screenshot", help="where to save a screenshot of the box with results")
    args = parser.parse_args()

    def run(driver):
        check_box(driver, args.site_url + "pagefind/search.html", args.screenshot)
        check_box(driver, args.site_url)  # the box embedded in a page of the site

    return with_chromium("pagefind test", run)


if __name__ == "__main__":
    sys.exit(main())
