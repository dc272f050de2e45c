#!/usr/bin/env python3
"""A canon index in shards, two of them served by xapian-tcpsrv on loopback (docs/serving.md).

Indexes a site (both collapse modes), splits each index into 3 shards with `canon shard`, serves
shards 2 and 3 with xapian-tcpsrv on free ports, and checks:
  - `canon search` on the local stub (the split index) and on a stub listing shard 1 and the two
    remote shards gives what the one database gives, for a fixed set of queries (phrase, boolean,
    prefix, non-ASCII, filters): the same URLs in the same order, alternates, snippets, weights;
    only the number of matches may differ (the one database estimates it; over shards every
    match is weighed, so it is exact), and then not both call it exact;
  - `canon serve` on the remote stub answers the JSON API as `canon search` does;
  - a shard that is stopped (SIGSTOP) or killed is left out within the deadline, with a notice
    naming it (CLI text, JSON, web page); a search with no shard answering fails with a message;
  - the shard is searched again once it is back (restarted on its port), by `canon search` and by
    the running server;
  - Omega's CGI and `quest` read the same stub;
  - a running `canon serve` finds a page added and re-indexed, on one database and on shards,
    with no search failing meanwhile.
Skipped (exit 77) without xapian-tcpsrv or Omega, failed instead when CANON_REQUIRE_TOOLS=1.

Usage: remote_shards.py CANON_BINARY SITE_DIR            the whole test, on a small site
       remote_shards.py CANON_BINARY --real-sites        the same-results part on python3.11-doc
                                                         and cppreference (each skipped when not
                                                         installed, failed when CANON_REQUIRE_TOOLS=1)
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
import time
import urllib.error
import urllib.parse
import urllib.request

QUERIES = [
    "backup", "restore file", '"single file"', "back*", "title:back* restore",
    "(back* OR restor*) -daily", "日本語", "čeština", "NOT backup", "restore NEAR file",
    "site:localhost backup", "path:/docs/ back*", "title:tutorial", "encrypt AND (key OR password)",
]
# Real sites (Debian packages): where the HTML is, and queries of each kind on it.
REAL_SITES = {
    "python3.11-doc": ("/usr/share/doc/python3.11/html", [
        "event loop", "os path join", '"context manager"', "async*", "title:asyncio", "socket AND (server OR client)",
        "datetime NOT timezone", "Gürzenichstraße", "répertoire", "unicode ß", "email", "shelve", "json dump*",
        "path:/library/ pickle", "list OR dict OR tuple", "re NEAR match", "importlib resources abc",
        "sqlite3", "thread* lock", "decimal rounding"]),
    "cppreference-doc-en-html": ("/usr/share/cppreference/doc/html", [
        "vector push_back", "std::unique_ptr", '"move constructor"', "constexpr*", "title:basic_string",
        "allocator NOT deprecated", "förnamn", "locale facet", "iterator category", "unordered_map OR map",
        "path:/en/cpp/algorithm/ sort", "mutex NEAR lock", "regex match*", "chrono duration", "std::find",
        "exception AND (throw OR catch)", "atomic", "string_view", "printf", "coroutine"]),
}
DEADLINE = 1.0  # seconds (--shard-deadline)

failures = 0


def check(ok, what, detail=""):
    global failures
    if ok:
        print("ok:", what)
    else:
        failures += 1
        print("FAIL:", what, detail, file=sys.stderr)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, seconds=10):
    end = time.time() + seconds
    while time.time() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.05)
    return False


class Shard:
    """A xapian-tcpsrv in a process group of its own (it forks a child per connection)."""

    def __init__(self, path, port):
        self.path, self.port, self.process = path, port, None

    def start(self):
        self.process = subprocess.Popen(
            ["xapian-tcpsrv", "--interface", "127.0.0.1", "--port", str(self.port), "--quiet", self.path],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        if not wait_for_port(self.port):
            raise RuntimeError(f"xapian-tcpsrv did not listen on {self.port}")

    def signal(self, sig):
        os.killpg(self.process.pid, sig)

    def kill(self):
        if self.process and self.process.poll() is None:
            self.signal(signal.SIGCONT)
            self.signal(signal.SIGKILL)
            self.process.wait()


def run(*args, check_status=True):
    out = subprocess.run(list(args), capture_output=True, text=True)
    if check_status and out.returncode != 0:
        raise RuntimeError(f"{args} failed ({out.returncode}): {out.stderr}")
    return out


def comparable(results):
    """The results without the match count (the one database estimates it), and weights to 12
    significant digits (a sum over shards adds the same parts in another order)."""
    results = dict(results)
    for key in ("estimated_matches", "matches_exact"):
        results.pop(key, None)
    results["results"] = [dict(hit, weight=float(f"{hit['weight']:.12g}")) for hit in results["results"]]
    return results


OMEGA = "/usr/lib/cgi-bin/omega/omega"


def omega(work, database, query):
    """The URLs Omega's CGI (run from the command line, xml template) gives for `query` on
    `database` (a database directory or a stub file), each cluster once (COLLAPSE=11)."""
    data = f"{work}/omega-data"
    os.makedirs(data, exist_ok=True)
    link = f"{data}/db"
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(database, link)
    with open(f"{work}/omega.conf", "w") as f:
        f.write(f"database_dir {data}\ntemplate_dir /usr/share/xapian-omega/templates\nlog_dir {work}\ncdb_dir {work}\n")
    out = subprocess.run([OMEGA, "DB=db", f"P={query}", "COLLAPSE=11", "FMT=xml"], capture_output=True, text=True,
                         env=dict(os.environ, OMEGA_CONFIG_FILE=f"{work}/omega.conf")).stdout
    return re.findall(r'^url="([^"]*)"', out, re.M)


def search_json(canon, index, query, *extra):
    return json.loads(run(canon, "search", index, query, "--json", *extra).stdout)


def remote_stub(split, stub, shards):
    """Serves shards 2 and 3 of the split in `split` with xapian-tcpsrv (added to `shards`) and
    writes `stub`: shard 1 local, the two remote. Returns `stub`."""
    pair = [Shard(f"{split}/shard-{n}", free_port()) for n in (2, 3)]
    for shard in pair:
        shard.start()
    shards += pair
    with open(stub, "w") as f:
        f.write(f"auto {split}/shard-1\n" + "".join(f"remote 127.0.0.1:{s.port}\n" for s in pair))
    return stub


def same_results(canon, site, queries, work, name, shards):
    """Both collapse modes of `site`: one database, its 3 local shards, and shard 1 local with
    shards 2 and 3 remote give the same results for `queries`; quest reads the remote stub.
    Leaves the remote shards running in `shards`; returns the stub of the index-time index."""
    for mode, flags in (("index", []), ("query", ["--no-collapse"])):
        index = f"{work}/{name}-{mode}"
        run(canon, "index", site, "--out", index, "--quiet", *flags)
        run(canon, "shard", index, "--parts", "3", "--out", f"{index}-shards")
        local = [search_json(canon, index, q) for q in queries]
        for q, one in zip(queries, local):
            split = search_json(canon, f"{index}-shards", q)
            check(comparable(split) == comparable(one), f"{name} {mode}: local shards = one database: {q}")
            if split["estimated_matches"] != one["estimated_matches"]:
                check(not (split["matches_exact"] and one["matches_exact"]),
                      f"{name} {mode}: counts that differ are not both called exact: {q}")
        stub = remote_stub(f"{index}-shards", f"{work}/{name}-{mode}-remote.stub", shards)
        for q, one in zip(queries, local):
            remote = search_json(canon, stub, q)
            check(comparable(remote) == comparable(one), f"{name} {mode}: remote shards = one database: {q}")
            check(remote["missing_shards"] == [], f"{name} {mode}: every shard answered: {q}")
        page = ("--offset", "3", "--limit", "4")
        check(comparable(search_json(canon, stub, queries[0], *page)) == comparable(search_json(canon, index, queries[0], *page)),
              f"{name} {mode}: a later page of results, remote shards = one database")
        if mode == "query":
            first = lambda text: re.findall(r"url=(\S+)", text)[:3]
            quest, single = (run("quest", "-d", db, queries[1]).stdout for db in (stub, f"{index}/xapian"))
            check(first(quest) == first(single) and first(single), f"{name}: quest reads the remote stub as the one database",
                  f"{first(quest)} vs {first(single)}")
            omega_one, omega_remote = (omega(work, db, queries[1]) for db in (f"{index}/xapian", stub))
            check(omega_remote == omega_one and omega_one, f"{name}: Omega's CGI reads the remote stub as the one database "
                  "(COLLAPSE=11)", f"{omega_remote} vs {omega_one}")
    return f"{work}/{name}-index-remote.stub"


def spelling_over_remote(canon, work, name, stub):
    """"Did you mean" on a stub of remote shards alone: Xapian's remote backend reads no spelling
    table, so none is offered (and nothing fails) unless --spelling names a shard's directory,
    whose table (canon shard copies the whole index's to each) corrects as the one database."""
    lines = [line for line in open(stub) if line.startswith("remote ")]
    remote_only = f"{work}/{name}-remote-only.stub"
    with open(remote_only, "w") as f:
        f.write("".join(lines))
    split = f"{work}/{name}-index-shards"
    for typo in ("snapshts", "encrytion keys"):
        one = search_json(canon, f"{work}/{name}-index", typo)
        without = search_json(canon, remote_only, typo)
        check(without["corrected_query"] is None, f"spelling, remote shards alone: no correction offered: {typo}")
        told = search_json(canon, remote_only, typo, "--spelling", f"{split}/shard-1")
        check(one["corrected_query"] and told["corrected_query"] == one["corrected_query"],
              f"spelling, remote shards alone with --spelling: corrected as the one database: {typo}",
              f"{told['corrected_query']} vs {one['corrected_query']}")
    bad = run(canon, "search", remote_only, "snapshts", "--spelling", f"{work}/no-such-dir", check_status=False)
    check(bad.returncode != 0 and "spelling database" in bad.stderr, "spelling: a --spelling that is not a database is an error",
          bad.stderr)


def faults(canon, work, name, stub, shards):
    """`canon serve` on the remote stub of `name`'s index; a shard stopped, then killed."""
    stopped, killed = shards[1], shards[0]
    server, url = start_server(canon, work, stub, "--shard-deadline", str(DEADLINE))
    try:
        def api(query):
            start = time.time()
            body = api_search(url, query)
            return body, time.time() - start

        def page(query):
            with urllib.request.urlopen(f"{url}/search?q={urllib.parse.quote(query)}", timeout=30) as r:
                return r.read().decode()

        one = search_json(canon, f"{work}/{name}-index", "restore file")
        served, _ = api("restore file")
        check(comparable(served) == comparable(one), "canon serve on the remote stub = canon search on one database")

        # Load meanwhile: clients searching without pause while shards stop, die and come back;
        # every answer's time is kept (a hung request would show as one of 30 s or an error).
        load_stop = threading.Event()
        load_times, load_errors = [], []

        def load(query):
            while not load_stop.is_set():
                try:
                    load_times.append(api(query)[1])
                except urllib.error.HTTPError as e:
                    load_errors.append(f"{e}: {e.read().decode(errors='replace')[:300]}")
                except Exception as e:
                    load_errors.append(str(e))

        loaders = [threading.Thread(target=load, args=(q,)) for q in ("backup", "restore file", "encrypt*")]
        for t in loaders:
            t.start()

        # A stopped shard: left out within the deadline, named; back once it answers again.
        stopped.signal(signal.SIGSTOP)
        body, took = api("backup")
        name_of_stopped = f"127.0.0.1:{stopped.port}"
        check(body["missing_shards"] == [name_of_stopped], "serve: the stopped shard is named", str(body["missing_shards"]))
        check(took <= DEADLINE + 1, f"serve: answered within the deadline + 1 s ({took:.2f} s)")
        check(len(body["results"]) > 0, "serve: results from the other shards")
        html = page("backup")
        check(name_of_stopped in html and "did not answer" in html, "serve: the web page names the missing shard")
        text = run(canon, "search", stub, "backup", "--shard-deadline", str(DEADLINE))
        check(f"did not answer ({name_of_stopped})" in text.stdout, "search: the text output names the missing shard")
        stopped.signal(signal.SIGCONT)
        time.sleep(1.2)  # past ShardOptions::retry_after
        body, _ = api("backup")
        check(body["missing_shards"] == [], "serve: the shard is searched again once it answers", str(body["missing_shards"]))

        # A killed shard: left out at once; searched again once restarted on its port.
        killed.kill()
        body, took = api("backup")
        check(body["missing_shards"] == [f"127.0.0.1:{killed.port}"], "serve: the killed shard is named")
        check(took <= DEADLINE + 1, f"serve: answered within the deadline + 1 s ({took:.2f} s)")
        killed.start()
        time.sleep(1.2)
        body, _ = api("backup")
        check(body["missing_shards"] == [] and comparable(body) == comparable(search_json(canon, f"{work}/{name}-index", "backup")),
              "serve: results as before once the shard is back")
        load_stop.set()
        for t in loaders:
            t.join()
        check(not load_errors and len(load_times) > 20 and max(load_times) <= DEADLINE + 1,
              f"serve under load: {len(load_times)} answers, none failed or hung, the slowest in "
              f"{max(load_times, default=-1):.2f} s (deadline {DEADLINE} s)", str(load_errors[:3]))
    finally:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()

    # No shard answering: a clear error, not a hang.
    only_remote = f"{work}/only-remote.stub"
    with open(only_remote, "w") as f:
        f.write(f"remote 127.0.0.1:{killed.port}\n")
    killed.kill()
    failed = run(canon, "search", only_remote, "backup", "--shard-deadline", str(DEADLINE), check_status=False)
    check(failed.returncode != 0 and "no shard" in failed.stderr, "search: no shard answering is an error", failed.stderr)


def start_server(canon, work, target, *options):
    """`canon serve TARGET` on a free port: (process, base URL)."""
    log = f"{work}/serve-{len(os.listdir(work))}.err"
    server = subprocess.Popen([canon, "serve", target, "--port", "0", *options], stdout=subprocess.DEVNULL,
                              stderr=open(log, "w"))
    for _ in range(200):
        m = re.search(r"at (http://\S+)", open(log).read())
        if m:
            return server, m.group(1).rstrip("/")
        time.sleep(0.05)
    raise RuntimeError(f"canon serve {target} did not start: {open(log).read()}")


def api_search(url, query):
    with urllib.request.urlopen(f"{url}/api/search?q={urllib.parse.quote(query)}", timeout=30) as r:
        return json.loads(r.read())


def updates(canon, site, work, shards):
    """A running `canon serve` finds a page added to the site once it is re-indexed: on one
    database (`canon index` swaps INDEX_DIR) and on shards, one local and two remote (`canon
    shard` swaps the split); no search fails meanwhile; the time until the new page is found."""
    copy = f"{work}/site-copy"
    shutil.copytree(site, copy)
    index, split = f"{work}/upd-index", f"{work}/upd-shards"
    run(canon, "index", copy, "--out", index, "--quiet")
    run(canon, "shard", index, "--parts", "3", "--out", split)
    stub = remote_stub(split, f"{work}/upd-remote.stub", shards)
    refresh = 1.0
    servers = [start_server(canon, work, index), start_server(canon, work, stub, "--shard-refresh", str(refresh))]
    try:
        word = "zanzibarquokka"
        for (server, url), label in zip(servers, ("one database", "remote shards")):
            check(api_search(url, word)["results"] == [], f"update, {label}: the new word is not there yet")
        # The new page's title, asked before it exists on every search thread at once: each keeps
        # the frequencies of its title and anchor terms (0) while its shards stay open.
        title = "Quokkas of Zanzibar"
        with ThreadPoolExecutor(max_workers=32) as pool:
            list(pool.map(lambda _: api_search(servers[1][1], title), range(64)))
        failures_during = []
        stop = threading.Event()

        def hammer(url):
            while not stop.is_set():
                try:
                    body = api_search(url, "backup")
                    if not body["results"] or body["missing_shards"]:
                        failures_during.append(body)
                except Exception as e:  # an HTTP error or a refused connection is a failed search
                    failures_during.append(str(e))

        threads = [threading.Thread(target=hammer, args=(url,)) for _, url in servers]
        for t in threads:
            t.start()
        with open(f"{copy}/zanzibar.html", "w") as f:
            f.write(f"<html><head><title>Quokkas of Zanzibar</title></head><body><p>The {word} is a new page "
                    "about an animal that does not exist, added after the first index.</p></body></html>")
        run(canon, "index", copy, "--out", index, "--quiet")
        indexed = time.time()
        found = {}

        def wait_for(label, url, since):
            # The server of one database is asked before `canon shard` runs: its time is its own.
            while label not in found and time.time() - since < 30:
                if api_search(url, word)["results"]:
                    found[label] = time.time() - since
                time.sleep(0.05)

        wait_for("one database", servers[0][1], indexed)
        run(canon, "shard", index, "--parts", "3", "--out", split)
        wait_for("remote shards", servers[1][1], time.time())
        stop.set()
        for t in threads:
            t.join()
        # Every search thread of the shards' server has opened them again by now, so each weighs
        # the new title as a process that opens the shards afresh does, none with the frequencies
        # it kept from before.
        time.sleep(refresh)
        want = comparable(search_json(canon, stub, title))
        with ThreadPoolExecutor(max_workers=32) as pool:
            answers = [comparable(answer) for answer in pool.map(lambda _: api_search(servers[1][1], title), range(64))]
        stale = [answer for answer in answers if answer != want]
        check(want["results"] and not stale, f"update, shards: the new title weighs as in a new process ({len(stale)} of 64 differ)",
              "; ".join(f"{key}: {stale[0]['results'][0].get(key)} vs {want['results'][0].get(key)}"
                        for key in want["results"][0] if stale and stale[0]["results"] and
                        stale[0]["results"][0].get(key) != want["results"][0].get(key)) if stale else "")
        # Bounds with room for a sanitizer build on a busy machine; the times themselves are printed.
        check(found.get("one database", 99) < 3.0,
              f"update, one database: the new page is found {found.get('one database', -1):.2f} s after canon index")
        check(found.get("remote shards", 99) < refresh + 3.0,
              f"update, shards: the new page is found {found.get('remote shards', -1):.2f} s after canon shard "
              f"(--shard-refresh {refresh})")
        check(not failures_during, f"update: no search failed during the switch ({len(failures_during)} failed)",
              str(failures_during[:3]))
    finally:
        for server, _ in servers:
            server.terminate()
            server.wait(10)


def main():
    canon, site = sys.argv[1], sys.argv[2]
    required = os.environ.get("CANON_REQUIRE_TOOLS") == "1"
    if shutil.which("xapian-tcpsrv") is None or shutil.which("quest") is None or not os.access(OMEGA, os.X_OK):
        print("remote_shards: no xapian-tcpsrv, quest or Omega: run scripts/install-deps.sh (xapian-tools, xapian-omega)",
              file=sys.stderr)
        return 1 if required else 77
    work = tempfile.mkdtemp(prefix="canon-shards.")
    shards = []
    try:
        if site == "--real-sites":
            ran = 0
            for package, (html, queries) in REAL_SITES.items():
                if not os.path.isdir(html):
                    print(f"remote_shards: {package} is not installed ({html})", file=sys.stderr)
                    if required:
                        return 1
                    continue
                same_results(canon, html, queries, work, package, shards)
                ran += 1
            if ran == 0:
                return 77
        else:
            stub = same_results(canon, site, QUERIES, work, "site", shards)
            spelling_over_remote(canon, work, "site", stub)
            faults(canon, work, "site", stub, shards)
            updates(canon, site, work, shards)
    finally:
        for shard in shards:
            shard.kill()
        shutil.rmtree(work, ignore_errors=True)
    print("remote_shards:", "FAILED" if failures else "passed", f"({failures} failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
