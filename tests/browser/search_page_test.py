#!/usr/bin/env python3
"""@file search_page_test.py
@brief The search page in headless Chromium, driven over chromedriver's WebDriver HTTP protocol.

Python 3 standard library only (urllib + json). Started by run_search_page_test.sh, which builds
the test site's index and runs `canon serve`; this script starts chromedriver, types a query,
submits the form, opens a result's alternates, and checks that the <script>/<img> payloads in
page titles and text are shown as text and never run. Exits non-zero with a message on any
failure, including a missing chromium or chromedriver.
"""

import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C WebDriver element key

# What the test site's payloads carry (run_search_page_test.sh writes them).
TITLE_PAYLOAD = "<script>document.title='pwned';window.pwned=1</script> Payload page"
ALTERNATE_PAYLOAD = '<img src=x onerror="window.pwned=2"> Installing Larder (print)'
TEXT_PAYLOAD = '<img src=x onerror="window.pwned=3">'
QUERY_PAYLOAD = "<script>window.pwned=4</script>"


class TestFailure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise TestFailure(message)


def wait_for(predicate, what, timeout=20.0):
    """Polls predicate() until it returns a true value (returned) or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TestFailure("timed out after %.0f s waiting for %s" % (timeout, what))
        time.sleep(0.1)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    """The few WebDriver commands the test needs, over chromedriver's HTTP endpoint."""

    def __init__(self, endpoint):
        self.endpoint = endpoint
        self.session = None

    def call(self, method, path, body=None, timeout=60):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.endpoint + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.loads(response.read().decode()).get("value")
        except urllib.error.HTTPError as e:
            detail = e.read().decode(errors="replace")
            try:
                value = json.loads(detail)["value"]
                detail = "%s: %s" % (value.get("error"), value.get("message", "").splitlines()[0])
            except (ValueError, KeyError, AttributeError, IndexError):
                pass
            raise TestFailure("WebDriver %s %s failed: %s" % (method, path, detail)) from None

    def ready(self):
        try:
            return bool(self.call("GET", "/status", timeout=2).get("ready"))
        except (OSError, TestFailure):
            return False

    def start(self, chromium, profile_dir):
        args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile_dir,
                "--window-size=1000,1100"]
        capabilities = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args},
        }}}
        value = self.call("POST", "/session", capabilities, timeout=120)
        self.session = value["sessionId"]

    def quit(self):
        if self.session:
            try:
                self.call("DELETE", "/session/" + self.session, timeout=30)
            except (OSError, TestFailure):
                pass
            self.session = None

    def s(self, path):
        return "/session/" + self.session + path

    def go(self, url):
        self.call("POST", self.s("/url"), {"url": url})

    def url(self):
        return self.call("GET", self.s("/url"))

    def title(self):
        return self.call("GET", self.s("/title"))

    def find_all(self, css, parent=None):
        where = self.s("/element/%s/elements" % parent) if parent else self.s("/elements")
        found = self.call("POST", where, {"using": "css selector", "value": css})
        return [e[ELEMENT] for e in found]

    def find(self, css, parent=None):
        found = self.find_all(css, parent)
        check(found, "no element matches %r" % css)
        return found[0]

    def text(self, element):
        return self.call("GET", self.s("/element/%s/text" % element))

    def displayed(self, element):
        return self.call("GET", self.s("/element/%s/displayed" % element))

    def click(self, element):
        self.call("POST", self.s("/element/%s/click" % element), {})

    def type(self, element, text):
        self.call("POST", self.s("/element/%s/value" % element), {"text": text})

    def script(self, source, *args):
        return self.call("POST", self.s("/execute/sync"), {"script": source, "args": list(args)})

    def screenshot(self, path):
        png = base64.b64decode(self.call("GET", self.s("/screenshot")))
        with open(path, "wb") as f:
            f.write(png)


def with_chromium(name, run):
    """Starts chromedriver and a headless Chromium session, calls run(driver), and says whether
    `name`'s checks passed (0) or failed (1, with the failure); cleans up whatever fails."""
    chromium = os.environ.get("CANON_CHROMIUM") or shutil.which("chromium")
    chromedriver = os.environ.get("CANON_CHROMEDRIVER") or shutil.which("chromedriver")
    if not chromium or not chromedriver:
        print("%s: FAILED: chromium and chromedriver are required (Debian packages chromium and "
              "chromium-driver; scripts/install-deps.sh installs them)" % name, file=sys.stderr)
        return 1
    work = tempfile.mkdtemp(prefix="canon-chromium-")
    port = free_port()
    log = open(os.path.join(work, "chromedriver.log"), "w")
    service = subprocess.Popen([chromedriver, "--port=%d" % port], stdout=log, stderr=subprocess.STDOUT)
    driver = WebDriver("http://127.0.0.1:%d" % port)
    try:
        wait_for(lambda: service.poll() is not None or driver.ready(), "chromedriver to start")
        check(service.poll() is None, "chromedriver exited with status %s" % service.returncode)
        driver.start(chromium, os.path.join(work, "profile"))
        run(driver)
        print("%s: passed" % name)
        return 0
    except TestFailure as e:
        print("%s: FAILED: %s" % (name, e), file=sys.stderr)
        return 1
    finally:
        driver.quit()
        service.terminate()
        try:
            service.wait(timeout=10)
        except subprocess.TimeoutExpired:
            service.kill()
            service.wait()
        log.close()
        shutil.rmtree(work, ignore_errors=True)


def check_nothing_ran(driver, expected_title):
    """No payload ran: window.pwned unset, the title as the page set it, no script or img
    element in the document."""
    state = driver.script("return {pwned: typeof window.pwned, title: document.title,"
                          " scripts: document.scripts.length,"
                          " imgs: document.getElementsByTagName('img').length};")
    check(state["pwned"] == "undefined", "a payload ran: window.pwned is set (%r)" % state)
    check(state["title"] == expected_title,
          "document.title is %r, expected %r" % (state["title"], expected_title))
    check(state["scripts"] == 0, "the page has %d <script> elements" % state["scripts"])
    check(state["imgs"] == 0, "the page has %d <img> elements" % state["imgs"])


def run(driver, base_url, screenshot):
    # The start page (the site's own home page is at /: `canon serve` serves the site).
    driver.go(base_url + "search")
    check(driver.title() == "canon search", "start page title is %r" % driver.title())

    # Type a query and submit the form (GET /search?q=...).
    box = driver.find("input[name=q]")
    driver.type(box, "larder")
    driver.click(driver.find("button[type=submit]"))
    wait_for(lambda: "/search?q=larder" in driver.url(), "the result page to load")
    results = wait_for(lambda: driver.find_all("li.result"), "results")
    check(len(results) >= 2, "expected at least 2 results, got %d" % len(results))
    count = driver.text(driver.find("p.count"))
    check("result" in count, "no result count: %r" % count)
    check_nothing_ran(driver, "larder — canon search")

    # The payload title is shown as text, in the result's link.
    titles = [driver.text(driver.find("h2", r)) for r in results]
    check(TITLE_PAYLOAD in titles, "payload title not shown as text; titles: %r" % titles)
    snippets = " ".join(driver.text(e) for e in driver.find_all("p.snippet"))
    check(TEXT_PAYLOAD in snippets, "payload text not shown in a snippet: %r" % snippets)
    marks = [driver.text(e) for e in driver.find_all("p.snippet mark")]
    check(any(m.lower() == "larder" for m in marks), "query not highlighted: %r" % marks)

    # Each result's place in the site: the page's breadcrumb trail, else its URL's directories;
    # none for a page at the root without a trail.
    def place_of(title):
        result = next((r for r in results if driver.text(driver.find("h2", r)) == title), None)
        check(result is not None, "no result titled %r" % title)
        return [driver.text(li) for li in driver.find_all("nav.place li", result)]
    check(place_of("Installing Larder") == ["Larder", "Documentation"],
          "the guide's place reads %r" % place_of("Installing Larder"))
    check(place_of("Larder soup") == ["kitchen", "recipes"],
          "the soup's place reads %r" % place_of("Larder soup"))
    check(place_of(TITLE_PAYLOAD) == [], "a page at the root shows a place: %r" % place_of(TITLE_PAYLOAD))

    # The guide's alternates: hidden until the summary is clicked.
    guide = next((r for r in results if driver.find_all("details.alternates", r)), None)
    check(guide is not None, "no result has alternates")
    summary = driver.find("details.alternates summary", guide)
    check(driver.text(summary) == "1 other version", "summary reads %r" % driver.text(summary))
    alternates = driver.find("details.alternates ul", guide)
    check(not driver.displayed(alternates), "alternates are visible before the summary is clicked")
    driver.click(summary)
    wait_for(lambda: driver.displayed(alternates), "the alternates to open")
    listed = driver.text(alternates)
    check(ALTERNATE_PAYLOAD in listed, "payload alternate title not shown as text: %r" % listed)
    # The index was built without --base-url: `canon serve` serves the site's pages itself, and
    # results link to them on this server.
    check("/print/install.html" in listed, "alternate URL missing: %r" % listed)
    link = driver.find("a", alternates)
    href = driver.script("return arguments[0].getAttribute('href');", {ELEMENT: link})
    check(href == "/print/install.html", "alternate link is %r" % href)
    check_nothing_ran(driver, "larder — canon search")
    driver.screenshot(screenshot)

    # A click on the first result opens the page, served by `canon serve` from the site.
    first = driver.find("li.result h2 a")
    first_title = driver.text(first)
    driver.click(first)
    wait_for(lambda: "/search" not in driver.url(), "the result's page to open")
    check(driver.title() == first_title,
          "the result's page is titled %r, its result %r" % (driver.title(), first_title))
    status = driver.script("return performance.getEntriesByType('navigation')[0].responseStatus;")
    check(status == 200, "the result's page was answered %r" % status)

    # A payload in the query itself: shown in the box and the page, never run.
    driver.go(base_url + "search?q=" + urllib.parse.quote(QUERY_PAYLOAD, safe=""))
    value = driver.script("return document.querySelector('input[name=q]').value;")
    check(value == QUERY_PAYLOAD, "the search box holds %r" % value)
    check_nothing_ran(driver, QUERY_PAYLOAD + " — canon search")

    # A malformed query: the message in the page (served with 400).
    box = driver.find("input[name=q]")
    driver.script("arguments[0].value = '';", {ELEMENT: box})
    driver.type(box, '"unclosed phrase')
    driver.click(driver.find("button[type=submit]"))
    error = wait_for(lambda: driver.find_all("p.error"), "the error message")
    message = driver.text(error[0])
    check("malformed query" in message, "error message reads %r" % message)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--base-url", required=True, help="URL `canon serve` serves, ending in /")
    parser.add_argument("--screenshot", help="where to save a screenshot of the result page")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="canon-screenshot-")
    try:
        screenshot = args.screenshot or os.path.join(work, "search-page.png")
        return with_chromium("browser test", lambda driver: run(driver, args.base_url, screenshot))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
