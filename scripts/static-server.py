#!/usr/bin/env python3
"""A static file server on 127.0.0.1 with no file watcher: ROOT at /, and each --mount PREFIX=DIR
at PREFIX (scripts/serve.sh --watch: the page trunk rebuilds in dist/, the book in docs/book/).
Files are read at each request, so a rebuilt page is served as soon as it is written.
Usage: scripts/static-server.py PORT ROOT [--mount /book/=DIR ...]"""
import argparse
import functools
import http.server
import os
import posixpath
import urllib.parse


class Handler(http.server.SimpleHTTPRequestHandler):
    mounts = []

    def translate_path(self, path):
        clean = posixpath.normpath(urllib.parse.unquote(urllib.parse.urlsplit(path).path))
        for prefix, directory in self.mounts:
            if clean + "/" == prefix or clean.startswith(prefix):
                rest = clean[len(prefix):] if clean.startswith(prefix) else ""
                full = os.path.join(directory, *[p for p in rest.split("/") if p not in ("", ".", "..")])
                return full + ("/" if path.split("?")[0].endswith("/") and not full.endswith("/") else "")
        return super().translate_path(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("port", type=int)
    parser.add_argument("root")
    parser.add_argument("--mount", action="append", default=[], help="PREFIX=DIR, e.g. /book/=docs/book")
    args = parser.parse_args()
    Handler.mounts = []
    for mount in args.mount:
        prefix, _, directory = mount.partition("=")
        Handler.mounts.append(("/" + prefix.strip("/") + "/", os.path.abspath(directory)))
    handler = functools.partial(Handler, directory=os.path.abspath(args.root))
    with http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler) as server:
        print(f"serving {args.root} on http://127.0.0.1:{args.port}/", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
