#!/usr/bin/env python3
"""Each package's share of a wasm module's code, from the module's name section (what twiggy's
`top` gives, grouped by crate): the bytes of every function body, attributed to the first crate
in its demangled name that is not core/alloc/std (else to that one), plus the data segments.
Run it on a module that still has its names: cargo's own output, before wasm-bindgen and
wasm-opt (`$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/unroll-lab-worker.wasm`).
Also lists the names that match --grep (e.g. `--grep burn,cubecl,wgpu`: the rule that the page
links none of them).
Usage: scripts/wasm-weight.py MODULE.wasm [--top 25] [--grep a,b,c]"""
import re
import sys
from collections import Counter


def leb(data, pos):
    result = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, pos


def sections(data):
    assert data[:4] == b"\0asm", "not a wasm module"
    pos = 8
    while pos < len(data):
        kind = data[pos]
        size, pos = leb(data, pos + 1)
        yield kind, data[pos : pos + size]
        pos += size


def imported_functions(body):
    count, pos = leb(body, 0)
    functions = 0
    for _ in range(count):
        for _ in range(2):  # module, field
            n, pos = leb(body, pos)
            pos += n
        kind = body[pos]
        pos += 1
        if kind == 0:
            functions += 1
            _, pos = leb(body, pos)
        elif kind == 1:  # table: reftype, limits
            pos += 1
            flags, pos = leb(body, pos)
            _, pos = leb(body, pos)
            if flags & 1:
                _, pos = leb(body, pos)
        elif kind == 2:  # memory: limits
            flags, pos = leb(body, pos)
            _, pos = leb(body, pos)
            if flags & 1:
                _, pos = leb(body, pos)
        elif kind == 3:  # global: type, mutability
            pos += 2
        elif kind == 4:  # tag
            pos += 1
            _, pos = leb(body, pos)
    return functions


def function_names(body):
    pos = 0
    n, pos = leb(body, pos)
    pos += n  # "name"
    names = {}
    while pos < len(body):
        sub = body[pos]
        size, pos = leb(body, pos + 1)
        end = pos + size
        if sub == 1:
            count, p = leb(body, pos)
            for _ in range(count):
                index, p = leb(body, p)
                length, p = leb(body, p)
                names[index] = body[p : p + length].decode("utf-8", "replace")
                p += length
        pos = end
    return names


CRATE = re.compile(r"(?:^|[<\s,&(\[*])([A-Za-z_][A-Za-z0-9_]*)::")
STD = {"core", "alloc", "std"}


def demangle(name):
    """Rust's legacy mangling (`_ZN9burn_flex3ops...17h<hash>E`) as a `::` path."""
    if not name.startswith("_ZN"):
        return name
    pos, parts = 3, []
    while pos < len(name) and name[pos].isdigit():
        digits = pos
        while name[pos].isdigit():
            pos += 1
        length = int(name[digits:pos])
        parts.append(name[pos : pos + length])
        pos += length
    path = "::".join(parts)
    for code, text in (("$LT$", "<"), ("$GT$", ">"), ("$u20$", " "), ("$C$", ","), ("..", "::")):
        path = path.replace(code, text)
    return path


def crate_of(name):
    crates = CRATE.findall(demangle(name))
    for crate in crates:
        if crate not in STD:
            return crate
    return crates[0] if crates else "(unnamed)"


def main():
    args = sys.argv[1:]
    path = args[0]
    top = int(args[args.index("--top") + 1]) if "--top" in args else 25
    grep = args[args.index("--grep") + 1].split(",") if "--grep" in args else []
    data = open(path, "rb").read()
    imports, bodies, names, data_bytes, custom = 0, [], {}, 0, Counter()
    for kind, body in sections(data):
        if kind == 2:
            imports = imported_functions(body)
        elif kind == 10:
            count, pos = leb(body, 0)
            for _ in range(count):
                size, start = leb(body, pos)
                bodies.append(size + (start - pos))
                pos = start + size
        elif kind == 11:
            data_bytes = len(body)
        elif kind == 0:
            n, pos = leb(body, 0)
            section = body[pos : pos + n].decode("utf-8", "replace")
            custom[section] += len(body)
            if section == "name":
                names = function_names(body)
    per = Counter()
    matched = Counter()
    for i, size in enumerate(bodies):
        name = names.get(imports + i, "")
        per[crate_of(name)] += size
        for word in grep:
            if word and word in name:
                matched[word] += 1
    total = len(data)
    print(f"{path}: {total / 1e6:.2f} MB; code {sum(bodies) / 1e6:.2f} MB in {len(bodies)} functions "
          f"({len(names)} named), data {data_bytes / 1e6:.2f} MB, custom sections "
          + ", ".join(f"{k} {v / 1e6:.2f} MB" for k, v in custom.most_common()))
    for crate, size in per.most_common(top):
        print(f"  {size / 1e3:9.1f} kB  {100 * size / max(sum(bodies), 1):5.1f} %  {crate}")
    for word in grep:
        print(f"functions naming {word!r}: {matched[word]}")


if __name__ == "__main__":
    main()
