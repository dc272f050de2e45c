"""Shows a duplicate -> indexed pair to judge by reading (bench/real_sites/judged/).

show_pair.py SITE_DIR DUPLICATE_PATH INDEXED_PATH [--full]
    Prints each page's title and main text (the element with role="main", MediaWiki's
    mw-content-text, Doxygen's "contents", classic Sphinx's "body", else the body less nav,
    header, footer, aside, script and style), then the lines only one of them has. --full prints
    the whole texts and every differing line; otherwise the first 3,000 characters of each and
    25 differing lines per side.
"""
import difflib
import html.parser
import re
import sys

SKIP = {"script", "style", "nav", "header", "footer", "aside", "noscript", "template", "head"}
BLOCK = {"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "dt", "dd", "table", "br", "section",
         "blockquote", "ul", "ol", "td", "th"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.title, self.in_title = [], "", False
        self.parts, self.main_parts, self.saw_main = [], [], False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "title":
            self.in_title = True
        if tag in BLOCK:
            self.parts.append("\n")
            if self.stack and self.stack[-1][1]:
                self.main_parts.append("\n")
        if tag in VOID:
            return
        main = (a.get("role") == "main" or a.get("id") == "mw-content-text" or
                # Doxygen's <div class="contents">, classic Sphinx's <div class="body">; not
                # Sphinx's local table of contents, <div class="contents local topic">.
                (a.get("class") or "").split() == ["contents"] or
                (a.get("class") or "").split()[:1] == ["body"])
        inside = bool(self.stack) and self.stack[-1][1]
        skip = (bool(self.stack) and self.stack[-1][2]) or tag in SKIP
        self.saw_main = self.saw_main or main
        self.stack.append((tag, inside or main, skip))

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if self.in_title:
            self.title += data
            return
        if self.stack and self.stack[-1][2]:
            return
        self.parts.append(data)
        if self.stack and self.stack[-1][1]:
            self.main_parts.append(data)


def text_of(path):
    t = Text()
    t.feed(open(path, encoding="utf-8", errors="replace").read())
    body = "".join(t.main_parts if t.saw_main else t.parts)
    lines = [re.sub(r"\s+", " ", l).strip() for l in body.split("\n")]
    return t.title.strip(), [l for l in lines if l]


def main():
    site, dup, rep = sys.argv[1:4]
    full = "--full" in sys.argv
    (dt, dl), (rt, rl) = text_of(f"{site}/{dup}"), text_of(f"{site}/{rep}")
    for name, title, lines in (("DUPLICATE " + dup, dt, dl), ("INDEXED " + rep, rt, rl)):
        text = "\n".join(lines)
        print(f"===== {name}\ntitle: {title}\n{text if full else text[:3000]}\n")
    only_d = [l for l in dl if l not in set(rl)]
    only_r = [l for l in rl if l not in set(dl)]
    ratio = difflib.SequenceMatcher(None, dl, rl, autojunk=False).ratio()
    print(f"===== line similarity {ratio:.3f}; lines only in the duplicate: {len(only_d)} of {len(dl)}; "
          f"only in the authoritative page: {len(only_r)} of {len(rl)}")
    limit = None if full else 25
    for l in only_d[:limit]:
        print("- " + l[:200])
    for l in only_r[:limit]:
        print("+ " + l[:200])


if __name__ == "__main__":
    main()
