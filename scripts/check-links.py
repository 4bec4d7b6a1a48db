#!/usr/bin/env python3
"""Checks every relative link of the book (docs/) and of the top-level Markdown files; exits 1 on
a dead one, naming the file, the link and why.

Usage: scripts/check-links.py [BOOK_DIR]   (default docs/book: what `mdbook build docs` wrote)

Two passes, both offline:
1. The Markdown sources (docs/src/*.md, README.md, ARCHITECTURE.md): every inline link, image and
   reference definition outside code resolves to a file of the repository; a chapter links only
   inside docs/src/ (anything else is dead once the book is served on its own); a `#fragment` is
   a heading of its target (for a chapter, an id of the built page; for another Markdown file,
   GitHub's anchor of one of its headings). A chapter's link into `../api/` is the site's API
   docs beside the book (scripts/build-site.sh): tests/e2e/site.test.mjs follows it.
2. The built book: every relative href and src of every page resolves to a file of the book,
   and its fragment to an id in that file; no `{{#include}}` was left unexpanded.
"""
import html.parser
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "docs" / "src"
TOP = [ROOT / "README.md", ROOT / "ARCHITECTURE.md"]
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
# The site's API docs, beside the book (book/../api/), built by scripts/build-site.sh.
API = "../api/"

errors = []


def fail(where, link, why):
    errors.append(f"{where}: {link}: {why}")


def prose(text):
    """The text outside fenced code blocks and inline code spans."""
    text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    return re.sub(r"(`+)(?:(?!\1).)+?\1", "", text, flags=re.S)


def links(text):
    """Inline links and images `[..](target "title")`, and reference definitions `[x]: target`."""
    for m in re.finditer(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", text):
        yield m.group(1)
    for m in re.finditer(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", text, flags=re.M):
        yield m.group(1)


def github_anchors(path):
    """GitHub's heading anchors of a Markdown file."""
    anchors, seen = set(), {}
    for line in prose(path.read_text()).splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.refs = set(), []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("id", "name") and value:
                self.ids.add(value)
            if name in ("href", "src") and value:
                self.refs.append(value)


pages = {}


def page(path):
    if path not in pages:
        parser = Page()
        parser.feed(path.read_text(errors="replace"))
        pages[path] = parser
    return pages[path]


def check_sources(book):
    files = sorted(SRC.rglob("*.md")) + [p for p in TOP if p.exists()]
    for md in files:
        where = md.relative_to(ROOT)
        in_book = SRC in md.parents
        for link in links(prose(md.read_text())):
            if SCHEME.match(link) or link.startswith("//") or (md.parent == SRC and link.startswith(API)):
                continue
            target, _, fragment = link.partition("#")
            path = (md.parent / target).resolve() if target else md
            if target and not path.exists():
                fail(where, link, f"no such file ({path.relative_to(ROOT) if ROOT in path.parents else path})")
                continue
            if ROOT != path and ROOT not in path.parents:
                fail(where, link, "points outside the repository")
                continue
            if in_book and SRC != path and SRC not in path.parents:
                fail(where, link, "a chapter links outside docs/src/, which the served book does not have")
                continue
            if not fragment:
                continue
            if path.suffix == ".md" and SRC in path.parents:
                built = book / path.relative_to(SRC).with_suffix(".html")
                if not built.exists():
                    fail(where, link, f"{path.relative_to(ROOT)} is not a chapter of the book (not in SUMMARY.md)")
                elif fragment not in page(built).ids:
                    fail(where, link, f"no heading #{fragment} in {path.relative_to(ROOT)}")
            elif path.suffix == ".md":
                if fragment not in github_anchors(path):
                    fail(where, link, f"no heading #{fragment} in {path.relative_to(ROOT)}")


def check_built(book):
    for html in sorted(book.rglob("*.html")):
        where = html.relative_to(ROOT) if ROOT in html.parents else html
        if html.name == "404.html":  # absolute links, for whatever path a server fails on
            continue
        if "{{#include" in html.read_text(errors="replace"):
            fail(where, "{{#include}}", "left unexpanded: its file is missing")
        for ref in page(html).refs:
            if SCHEME.match(ref) or ref.startswith("//") or ref.startswith("/"):
                continue
            if html.parent == book and ref.startswith(API):
                continue
            target, _, fragment = ref.partition("#")
            target = target.split("?")[0]
            path = (html.parent / target).resolve() if target else html
            if path.is_dir():
                path = path / "index.html"
            if book.resolve() not in path.parents:
                fail(where, ref, "points outside the built book")
            elif not path.exists():
                fail(where, ref, "no such file in the built book")
            elif fragment and path.suffix == ".html" and fragment not in page(path).ids:
                fail(where, ref, f"no id #{fragment} in {path.name}")


def main():
    book = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT / "docs" / "book"
    if not (book / "index.html").exists():
        sys.exit(f"check-links: {book} has no index.html: run `mdbook build docs` first")
    check_sources(book)
    check_built(book)
    for error in errors:
        print(f"dead link: {error}", file=sys.stderr)
    if errors:
        sys.exit(f"check-links: {len(errors)} dead link(s)")
    print(f"check-links: every relative link resolves ({len(pages)} pages read)")


if __name__ == "__main__":
    main()
