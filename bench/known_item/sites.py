"""Sites of the known-item benchmark and how each is judged (docs/known-item.md).

For every site: where its pages are, which pages are *item pages* (the page about one named
thing: a class, a function, a module, a command; the items are drawn from these), which names a
page *names* (a result naming the query's item is a right answer), and what kind of page a
result is (to summarise what wins when the item's page does not). All of it is read from the
page's <title> and, where the title is not enough, its main heading: measurement code, so the
rules are the generators' own conventions, site by site.

Pages are site-relative paths (`java.base/java/util/HashMap.html`), as on disk.
"""

import html
import os
import re

SITES = {
    "javadoc": "/usr/share/doc/openjdk-17-jre-headless/api",
    "cppreference": "/usr/share/cppreference/doc/html",
    "python": "/usr/share/doc/python3.11/html",
    "rust": "/usr/share/doc/rust-doc/html",
    "libstdcxx": "/usr/share/doc/gcc-12-base/libstdc++",
    "postgres": "/usr/share/doc/postgresql-doc-15/html",
}

_TITLE = re.compile(rb"<title[^>]*>(.*?)</title>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")


def _text(raw):
    """Markup-free, entity-decoded, whitespace-collapsed text of an HTML fragment."""
    return " ".join(html.unescape(_TAG.sub("", raw)).split())


class Page:
    """What the judging reads of one page: its title and main-heading markup."""

    __slots__ = ("path", "title", "head")

    def __init__(self, path, title, head):
        self.path, self.title, self.head = path, title, head


def read_page(site_dir, path, limit=65536):
    """The page at SITE_DIR/PATH, its first LIMIT bytes (titles and headings are near the top);
    None when there is no such file."""
    try:
        with open(os.path.join(site_dir, path), "rb") as f:
            data = f.read(limit)
    except OSError:
        return None
    m = _TITLE.search(data)
    title = _text(m.group(1).decode("utf-8", "replace")) if m else ""
    return Page(path, title, data.decode("utf-8", "replace"))


def site_pages(site_dir):
    """Every .html/.htm file below SITE_DIR (symbolic links followed), as sorted relative paths."""
    out = []
    for root, dirs, files in os.walk(site_dir, followlinks=True):
        dirs.sort()
        for f in files:
            if f.endswith((".html", ".htm")):
                out.append(os.path.relpath(os.path.join(root, f), site_dir))
    return sorted(out)


IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


# --- Javadoc (openjdk-17-doc) -------------------------------------------------------------
# A type page: <h1 title="Class HashMap" class="title"> (Class, Interface, Enum Class, Record
# Class, Annotation Interface), titled `HashMap (Java SE 17 & JDK 17)`; it names its type
# (`HashMap`, or `AbstractMap.SimpleEntry` for a nested one). "Uses of Class" pages
# (class-use/) have the same title words but are not about the type: they name nothing.

_JAVADOC_TITLE = re.compile(r"^(.+) \(Java SE 17 & JDK 17\)$")
_JAVADOC_H1 = re.compile(r'<h1 title="(Class|Interface|Enum Class|Enum|Record Class|Record|'
                         r'Annotation Interface|Annotation Type) [^"]+" class="title"')


def javadoc_names(page):
    if "/class-use/" in "/" + page.path or not _JAVADOC_H1.search(page.head):
        return set()
    m = _JAVADOC_TITLE.match(page.title)
    return {m.group(1)} if m else set()


def javadoc_item(page):
    """Items: top-level types (no nested `Outer.Inner`); the query is the type's name."""
    names = javadoc_names(page)
    return {n: n for n in names if "." not in n}


def javadoc_kind(page):
    p = "/" + page.path
    if "/class-use/" in p:
        return "Uses of Class page"
    if javadoc_names(page):
        return "another type's page"
    base = os.path.basename(p)
    if base.startswith("package-"):
        return "package page (" + base + ")"
    if base.startswith("module-"):
        return "module page"
    if "/index-files/" in p:
        return "index letter page"
    return "other page"


# --- cppreference (cppreference-doc-en-html) ------------------------------------------------
# Titles `std::vector - cppreference.com`, several names to a page separated by ", "
# (`std::remove_cv, std::remove_const, std::remove_volatile`). A page names X when one of its
# title's names is `std::X` (C++) or `X` (C, or a C++ macro such as `assert`); `std::X(int)`
# (an overload family's page: `std::abs(int)`) names X too, but `std::swap(std::vector)` (the
# overload for another class) does not, nor do members (`std::vector::vector`, `~vector`),
# other namespaces (`std::ranges::sort`) or specialisations (`std::vector<bool>`).

_CPPREF_SUFFIX = " - cppreference.com"


def _cppref_title_names(page):
    t = page.title
    if not t.endswith(_CPPREF_SUFFIX):
        return []
    return [n.strip() for n in t[: -len(_CPPREF_SUFFIX)].split(",")]


def cppreference_names(page):
    out = set()
    for n in _cppref_title_names(page):
        if n.startswith("std::"):
            n = n[5:]
        m = re.match(r"^(\w+)\((.*)\)$", n)
        if m and not m.group(2).startswith("std::"):
            n = m.group(1)
        if IDENT.match(n):
            out.add(n)
    return out


def cppreference_item(page):
    """Items: names `std::X` in the titles of C++ pages (en/cpp/); the query is the bare X."""
    if not page.path.startswith("en/cpp/"):
        return {}
    out = {}
    for n in _cppref_title_names(page):
        if n.startswith("std::") and IDENT.match(n[5:]):
            out[n[5:]] = n[5:]
    return out


_CPP_NAMESPACES = {"experimental", "chrono", "filesystem", "ranges", "views", "pmr", "this_thread",
                   "regex_constants", "literals", "execution", "placeholders", "rel_ops", "numbers"}


def cppreference_kind(page):
    names = _cppref_title_names(page)
    if not names:
        return "other page"
    first = names[0]
    if cppreference_names(page):
        return "C page of another name" if page.path.startswith("en/c/") else "another std:: item's page"
    if re.match(r"^std::\w+\(", first):
        return "overload for a class (std::f(std::X))"
    m = re.match(r"^std::(\w+)(<[^>]*>)?::(~?)(\w+)", first)
    if m and m.group(1) not in _CPP_NAMESPACES:
        if m.group(1) == m.group(4):
            return "constructor or destructor page (std::X::X, std::X::~X)"
        return "member page (std::X::Y)"
    if first.startswith("std::") and "::" in first[5:]:
        return "item of a nested namespace (std::ns::X)"
    if "(" in first:
        return "overload for a class (std::f(std::X))"
    if first.startswith("Standard library header"):
        return "header page"
    return "topic page"


# --- python3.11-doc ---------------------------------------------------------------------------
# A module page: library/X.html whose <h1> links to its own `#module-X` target, titled
# `X — description` (`email.charset: ...` for the email package). A page names X when its <h1>
# is X's module target or its title is `X — ...` / `X – ...` (2to3, xmlrpc).

_PY_H1 = re.compile(r"<h1>(.*?)</h1>", re.S)
_PY_TITLE = re.compile(r"^([A-Za-z_][\w.]*) [—–] ")


def _python_module(page):
    m = _PY_H1.search(page.head)
    if m:
        a = re.search(r'href="#module-([\w.]+)"', m.group(1))
        if a:
            return a.group(1)
    return None


def python_names(page):
    out = set()
    mod = _python_module(page)
    if mod and page.path.startswith("library/"):
        out.add(mod)
    m = _PY_TITLE.match(page.title)
    if m:
        out.add(m.group(1))
    return out


def python_item(page):
    """Items: the modules of library/ pages (their <h1> is the module's target)."""
    mod = _python_module(page)
    if mod and page.path.startswith("library/"):
        return {mod: mod}
    return {}


def python_kind(page):
    if python_names(page):
        return "another module's page"
    p = page.path
    if p.startswith("whatsnew/"):
        return "What's New page"
    if p.startswith("library/"):
        return "other library page"
    if p.startswith("c-api/"):
        return "C API page"
    if p.startswith(("genindex", "py-modindex")):
        return "index page"
    return p.split("/")[0] + "/ page" if "/" in p else "top-level page"


# --- rust-doc -----------------------------------------------------------------------------------
# Item pages are titled `HashMap in std::collections - Rust` (struct, enum, trait, fn, macro,
# type, constant, union). A page names X when its title is `X in <any path> - Rust` (so std's
# re-export and core's or alloc's original are all right, and so is another module's item of the
# same name, which the query cannot tell apart), `X - Rust` (primitive and keyword pages:
# `str - Rust`) or `<path>::X - Rust` (the module X). "Redirection" pages name nothing.

_RUST_ITEM = re.compile(r"^(\S+) in (\S+) - Rust$")
_RUST_OTHER = re.compile(r"^(\S+) - Rust$")
_RUST_CRATES = ("std/", "core/", "alloc/", "proc_macro/", "test/")
# Platform intrinsics (`_mm256_add_epi8`: about 17,400 item pages, 9 in 10 of the API's) are not
# drawn: they would make the benchmark one of intrinsic names.
_RUST_SKIP = re.compile(r"^(std|core)/(arch|core_arch|intrinsics)/")


def rust_names(page):
    m = _RUST_ITEM.match(page.title)
    if m:
        return {m.group(1)}
    m = _RUST_OTHER.match(page.title)
    if m:
        return {m.group(1).split("::")[-1]}
    return set()


def rust_item(page):
    """Items: item pages of std, core, alloc, proc_macro and test, intrinsics excepted; the
    query is the bare name (`HashMap`)."""
    if not page.path.startswith(_RUST_CRATES) or _RUST_SKIP.match(page.path):
        return {}
    m = _RUST_ITEM.match(page.title)
    if m and IDENT.match(m.group(1)):
        return {m.group(1): m.group(1)}
    return {}


def rust_kind(page):
    if rust_names(page):
        if _RUST_ITEM.match(page.title):
            return "another item's page"
        return "module, primitive or keyword page of another name"
    p = page.path
    if p.startswith(_RUST_CRATES):
        return "other API page"
    if p.startswith("src/"):
        return "source page"
    return p.split("/")[0] + "/ (book) page" if "/" in p else "top-level page"


# --- libstdc++-12-doc (Doxygen) ------------------------------------------------------------------
# Class pages are titled `libstdc++: std::vector< _Tp, _Alloc > Class Template Reference` (Class,
# Struct or Union; Template or not). A page names X when it is the class page of `std::X` or
# `std::__cxx11::X` (the inline namespace readers do not see), with any template arguments (a
# specialisation `std::atomic< bool >` names atomic). Member List pages, file pages, other
# namespaces (`__gnu_cxx::`, `std::__debug::`, `std::chrono::`) and nested classes name nothing.

_DOXY_CLASS = re.compile(r"^libstdc\+\+: (.+?) (Class|Struct|Union)( Template)? Reference$")


def _doxygen_class(page):
    m = _DOXY_CLASS.match(page.title)
    if not m:
        return None
    q = m.group(1).split("<")[0].strip()
    for ns in ("std::__cxx11::", "std::"):
        if q.startswith(ns):
            return q[len(ns):]
    return "::" + q  # another namespace


def libstdcxx_names(page):
    c = _doxygen_class(page)
    return {c} if c and IDENT.match(c) else set()


def libstdcxx_item(page):
    """Items: classes std::X (not reserved names `_X`, `__x`); the query is the bare X."""
    return {c: c for c in libstdcxx_names(page) if not c.startswith("_")}


def libstdcxx_kind(page):
    t = page.title
    if libstdcxx_names(page):
        return "another std:: class"
    c = _doxygen_class(page)
    if c:
        return "class of a nested or other namespace" if c.startswith("::") or "::" in c else "other class"
    if t.endswith("Member List"):
        return "Member List page"
    if t.endswith("File Reference"):
        return "file page"
    if "_source.html" in page.path:
        return "source listing"
    if t.endswith("Namespace Reference"):
        return "namespace page"
    if page.path.startswith("manual/"):
        return "manual page"
    return "other page"


# --- postgresql-doc-15 (DocBook) -----------------------------------------------------------------
# Reference pages (<div class="refentry">: SQL commands sql-*.html, client and server
# applications app-*.html) are titled by the command (`CREATE TABLE`, `pg_dump`). A page names X
# when it is a reference page whose title is X (case ignored): `CREATE TABLE AS` does not name
# `CREATE TABLE`. The query is the title in lower case (`create table`), as it is typed.

def _pg_refentry(page):
    return '<div class="refentry"' in page.head


def postgres_names(page):
    return {page.title.lower()} if _pg_refentry(page) and page.title else set()


_PG_REFERENCE = re.compile(r"^(sql-|app-|pg[a-z]+\.html$)")


def postgres_item(page):
    """Items: the pages of part VI, Reference: SQL commands (sql-*.html), client and server
    applications (app-*.html, pgbench.html, pgupgrade.html, ...)."""
    if not _PG_REFERENCE.match(page.path):
        return {}
    return {n: n for n in postgres_names(page)}


def postgres_kind(page):
    if postgres_names(page):
        return "another command's page"
    p = page.path
    if p.startswith("release-"):
        return "release notes"
    if p.startswith("functions-"):
        return "functions page"
    return "other chapter page"


RULES = {
    "javadoc": (javadoc_names, javadoc_item, javadoc_kind),
    "cppreference": (cppreference_names, cppreference_item, cppreference_kind),
    "python": (python_names, python_item, python_kind),
    "rust": (rust_names, rust_item, rust_kind),
    "libstdcxx": (libstdcxx_names, libstdcxx_item, libstdcxx_kind),
    "postgres": (postgres_names, postgres_item, postgres_kind),
}


def names(site, page):
    """The names PAGE names (empty for none, or for a page that is not there)."""
    return RULES[site][0](page) if page else set()


def item_names(site, page):
    """{name: query} for the items PAGE is the page of."""
    return RULES[site][1](page) if page else {}


def kind(site, page):
    """A short description of what kind of page PAGE is, for the misses' summary."""
    return RULES[site][2](page) if page else "page not on disk"
