#!/usr/bin/env python3
"""@file embed_test.py
@brief The embeddable search box (web/embed/) on other sites' pages, in headless Chromium.

Python 3 standard library only; the WebDriver client is search_page_test.py's. Started by
run_embed_test.sh, which runs `canon serve --allow-origin` for one static site and serves two
static sites whose pages embed the box. Checks: /embed/ serves web/embed/'s files verbatim;
/api/search answers the listed origin with CORS headers and refuses another with 403; on the
listed site, typing shows results with sections and alternates (links moved from
http://localhost/ to the search server), the payload title and text as text and never run, a
correction, no results, only the latest query's answer, Escape, arrows + Enter opening a
section, and a click on a result; on the other site (the box placed before its script),
typing shows an error line and no results.
"""

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from search_page_test import TestFailure, check, wait_for, with_chromium

TITLE_PAYLOAD = "<script>window.pwned=1</script> Larder notes"
TEXT_PAYLOAD = '<img src=x onerror="window.pwned=2">'
KEY = {"down": "\ue015", "up": "\ue013", "enter": "\ue007", "escape": "\ue00c", "backspace": "\ue003"}


def origin_of(url):
    parts = urllib.parse.urlsplit(url)
    return "%s://%s" % (parts.scheme, parts.netloc)


def get(url, origin=None):
    """(status, headers, body) of a GET, with an Origin header when `origin` is given."""
    request = urllib.request.Request(url, headers={"Origin": origin} if origin else {})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def check_http(search_url, embed_dir, allowed, other):
    for name, kind in (("canon-search.js", "javascript"), ("canon-search.css", "text/css")):
        status, headers, body = get(search_url + "embed/" + name)
        check(status == 200, "GET /embed/%s answered %d" % (name, status))
        check(kind in headers.get("Content-Type", ""), "/embed/%s is served as %r"
              % (name, headers.get("Content-Type")))
        with open(os.path.join(embed_dir, name), "rb") as f:
            check(body == f.read(), "/embed/%s is not web/embed/%s (rebuild canon?)" % (name, name))

    api = search_url + "api/search?q=larder&limit=3"
    status, headers, body = get(api, other)
    check(status == 403, "an origin not listed was answered %d, not 403" % status)
    check(headers.get("Access-Control-Allow-Origin") is None,
          "the 403 carries Access-Control-Allow-Origin: %r" % headers.get("Access-Control-Allow-Origin"))
    check("error" in json.loads(body.decode()), "the 403 has no error message: %r" % body)

    status, headers, body = get(api, allowed)
    check(status == 200, "the listed origin was answered %d" % status)
    check(headers.get("Access-Control-Allow-Origin") == allowed,
          "the listed origin got Access-Control-Allow-Origin: %r"
          % headers.get("Access-Control-Allow-Origin"))
    check("origin" in headers.get("Vary", "").lower(), "no Vary: Origin (Vary: %r)" % headers.get("Vary"))
    check(json.loads(body.decode())["results"], "the listed origin got no results")


def page_up(url):
    try:
        return get(url)[0] == 200
    except OSError:
        return False


class Box:
    """The box on the current page, through WebDriver."""

    def __init__(self, driver):
        self.driver = driver
        self.input = wait_for(lambda: driver.find_all(".canon-search-box input"), "the box")[0]

    def js(self, source, *args):
        return self.driver.script(source, *args)

    def state(self):
        return self.js("""
            const input = document.querySelector('.canon-search-box input');
            const box = input.closest('.canon-search-box');
            const panel = box.querySelector('.canon-search-panel');
            const text = (e) => e ? e.textContent : null;
            return {
              value: input.value, open: !panel.hidden, expanded: input.getAttribute('aria-expanded'),
              active: input.getAttribute('aria-activedescendant'),
              status: text(box.querySelector('.canon-search-status')),
              error: !!box.querySelector('.canon-search-error'),
              options: [...box.querySelectorAll('[role=option]')].map((o) => ({id: o.id,
                  href: o.href, text: o.textContent, cls: o.className,
                  selected: o.getAttribute('aria-selected')})),
              titles: [...box.querySelectorAll('.canon-search-title')].map(text),
              snippets: [...box.querySelectorAll('.canon-search-snippet')].map(text),
              marks: [...box.querySelectorAll('mark')].map(text),
              alternates: [...box.querySelectorAll('.canon-search-alternates')].map((p) => ({
                  text: p.textContent, hrefs: [...p.querySelectorAll('a')].map((a) => a.href)})),
              hrefs: [...box.querySelectorAll('a')].map((a) => a.getAttribute('href')),
              scripts: box.querySelectorAll('script').length, imgs: document.images.length,
              pwned: typeof window.pwned, title: document.title,
            };""")

    def keys(self, text):
        self.driver.type(self.input, text)

    def clear(self):
        """Escape until the field is empty (the first closes the list, the next clears)."""
        for _ in range(3):
            if not self.state()["value"]:
                return
            self.keys(KEY["escape"])
        check(not self.state()["value"], "Escape does not clear the field")

    def search(self, query, what, predicate):
        """Types `query` into an empty field and waits for an answer satisfying predicate(state)."""
        self.clear()
        self.keys(query)
        return wait_for(lambda: (lambda s: s if predicate(s) else None)(self.state()), what)


def check_safe(state, page_title):
    check(state["pwned"] == "undefined", "a payload ran: window.pwned is %s" % state["pwned"])
    check(state["scripts"] == 0 and state["imgs"] == 0,
          "the page has %d script elements in the box and %d images" % (state["scripts"], state["imgs"]))
    check(state["title"] == page_title, "document.title is %r" % state["title"])


def check_allowed_site(driver, page, search_url, screenshot):
    driver.go(page)
    box = Box(driver)
    aria = box.js("""
        const input = document.querySelector('#box .canon-search-box input');
        const list = document.getElementById(input.getAttribute('aria-controls'));
        const label = document.querySelector('label[for="' + input.id + '"]');
        return {type: input.type, role: input.getAttribute('role'),
                expanded: input.getAttribute('aria-expanded'),
                list: list && list.getAttribute('role'), label: label && label.textContent};""")
    check(aria == {"type": "search", "role": "combobox", "expanded": "false", "list": "listbox",
                   "label": "Search this site"}, "the box's field and list: %r" % aria)

    # Results as one types; the payloads as text; links moved to the search server.
    state = box.search("larder", "results for 'larder'", lambda s: len(s["titles"]) >= 4)
    check(state["open"] and state["expanded"] == "true", "the list is not open: %r" % state)
    check(TITLE_PAYLOAD in state["titles"], "payload title not shown as text: %r" % state["titles"])
    check(any(TEXT_PAYLOAD in s for s in state["snippets"]), "payload text not shown: %r" % state["snippets"])
    check(any(m.lower() == "larder" for m in state["marks"]), "query not marked: %r" % state["marks"])
    check(all(h.startswith(search_url) for h in state["hrefs"]),
          "links not on the search server: %r" % state["hrefs"])
    hrefs = [o["href"] for o in state["options"]]
    check(search_url + "docs/install.html" in hrefs, "no link to the guide: %r" % hrefs)
    alternates = [a for a in state["alternates"] if search_url + "print/install.html" in a["hrefs"]]
    check(alternates and alternates[0]["text"].startswith("also at: ")
          and "/print/install.html" in alternates[0]["text"],
          "the guide's alternate is not listed: %r" % state["alternates"])
    check_safe(state, "Pantry blog")

    # Escape closes the list and keeps the words; a second Escape clears them.
    box.keys(KEY["escape"])
    state = box.state()
    check(not state["open"] and state["expanded"] == "false" and state["value"] == "larder",
          "after Escape: %r" % {k: state[k] for k in ("open", "expanded", "value")})
    box.keys(KEY["escape"])
    check(box.state()["value"] == "", "a second Escape leaves %r" % box.state()["value"])

    # A misspelt query, then one matching nothing.
    state = box.search("configuraton", "a correction", lambda s: s["titles"])
    check(state["status"] == "Showing results for configuration", "status reads %r" % state["status"])
    state = box.search("qqzxqv", "no results", lambda s: s["open"] and s["status"])
    check(state["status"] == "No results for “qqzxqv”" and not state["options"],
          "for a query matching nothing: %r" % state["status"])

    # Only the latest query's answer is shown: the answer for 'soup' is held back 1.5 s while
    # the words change to 'flour'.
    box.js("""const real = window.fetch;
        window.fetch = (url, options) => real(url, options).then((r) => String(url).includes('q=soup')
            ? new Promise((done) => setTimeout(() => done(r), 1500)) : r);""")
    box.clear()
    box.keys("soup")
    time.sleep(0.6)  # past the 200 ms pause: the request for 'soup' is out
    box.keys(KEY["backspace"] * 4 + "flour")
    wait_for(lambda: box.state()["titles"] == ["About Larder"], "results for 'flour'")
    time.sleep(1.5)
    state = box.state()
    check(state["titles"] == ["About Larder"], "a stale answer replaced the latest: %r" % state["titles"])

    # A result's sections; arrows move through titles and sections; Enter opens the active one.
    state = box.search("configuration", "a section", lambda s: any(
        o["href"].endswith("#configuration") for o in s["options"]))
    first = state["options"][0]
    check(first["href"] == search_url + "docs/install.html" and first["text"] == "Installing Larder",
          "the first result is %r" % first)
    section = state["options"][1]
    check("canon-search-section" in section["cls"] and section["text"] == "Configuration"
          and section["href"] == search_url + "docs/install.html#configuration",
          "the second option is not the guide's section: %r" % section)
    check(any(search_url + "print/install.html" in a["hrefs"] for a in state["alternates"]),
          "the guide's alternate is not listed: %r" % state["alternates"])
    box.keys(KEY["down"])
    state = box.state()
    check(state["active"] == first["id"] and state["options"][0]["selected"] == "true"
          and "canon-search-active" in state["options"][0]["cls"],
          "ArrowDown did not activate the first result: %r" % state["active"])
    if screenshot:
        driver.screenshot(screenshot)
    box.keys(KEY["down"] + KEY["up"] + KEY["down"])
    state = box.state()
    check(state["active"] == section["id"] and state["options"][0]["selected"] == "false",
          "ArrowDown twice did not activate the section: %r" % state["active"])
    box.keys(KEY["enter"])
    wait_for(lambda: driver.url() == section["href"], "the section's page to open")
    wait_for(lambda: driver.title() == "Installing Larder", "the guide's title")

    # A click on a result is a plain link's.
    driver.go(page)
    box = Box(driver)
    state = box.search("shelves", "results for 'shelves'", lambda s: s["titles"])
    target = [o for o in state["options"] if o["text"] == "Shelves and stale food"]
    check(target and target[0]["href"] == search_url + "docs/shelves.html", "no result for the shelves: %r"
          % state["options"])
    driver.click(driver.find("#%s" % target[0]["id"]))
    wait_for(lambda: driver.url() == target[0]["href"], "the clicked result's page to open")


def check_other_site(driver, page):
    driver.go(page)
    box = Box(driver)
    placed = box.js("""const s = document.querySelector('script[src$="canon-search.js"]');
        const before = s.previousElementSibling;
        return !!before && !!before.querySelector('.canon-search-box');""")
    check(placed, "the box is not right before the script on a page without data-canon-search")
    box.keys("larder")
    state = wait_for(lambda: (lambda s: s if s["error"] else None)(box.state()), "the error line")
    check(state["open"] and state["status"].startswith("Search failed"), "error line reads %r" % state["status"])
    check(not state["options"] and not state["titles"], "results on a site not allowed: %r" % state["titles"])
    check_safe(state, "Elsewhere")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--search-url", required=True, help="URL `canon serve` serves, ending in /")
    parser.add_argument("--embed-dir", required=True, help="web/embed/ of the source tree")
    parser.add_argument("--allowed-url", required=True, help="a page embedding the box, its origin listed")
    parser.add_argument("--other-url", required=True, help="a page embedding the box, its origin not listed")
    parser.add_argument("--screenshot", help="where to save a screenshot of the box with results open")
    args = parser.parse_args()

    if args.screenshot:
        os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
    try:
        for page in (args.allowed_url, args.other_url):  # the static servers are up
            wait_for(lambda: page_up(page), "%s to be served" % page)
        check_http(args.search_url, args.embed_dir, origin_of(args.allowed_url), origin_of(args.other_url))
    except TestFailure as e:
        print("embed test: FAILED: %s" % e, file=sys.stderr)
        return 1

    def run(driver):
        driver.call("POST", driver.s("/window/rect"), {"width": 900, "height": 720})
        check_allowed_site(driver, args.allowed_url, args.search_url, args.screenshot)
        check_other_site(driver, args.other_url)

    return with_chromium("embed test", run)


if __name__ == "__main__":
    sys.exit(main())
