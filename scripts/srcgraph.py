#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""srcgraph.py - the reference graph of the module's C sources, from
their text alone (no compiler, no preprocessor), for
scripts/check-layers.py (rules S1, C1).

Definitions: the non-static functions and variables of each .c file,
the inline functions of each header (a file that uses an inline uses
what the inline uses). Uses: the identifiers of a file that do not
follow '.' or '->', matched against those definitions; a name both
arches define links to the user's own arch, and arch-neutral code to
both. Declarations: the prototypes and externs of each header. Both
branches of every #if are read (it over-approximates on purpose);
member names are never uses.
"""
import os
import re
import sys
from collections import defaultdict

KEYWORDS = set("""auto break case char const continue default do double else
enum extern float for goto if inline int long register restrict return
short signed sizeof static struct switch typedef union unsigned void
volatile while bool true false NULL _Bool typeof __typeof__""".split())
ATTR = re.compile(r"^(__\w+|asmlinkage|noinline|notrace|DEFINE_\w+|"
                  r"EXPORT_\w+|module_\w+|MODULE_\w+|late_initcall|"
                  r"IS_ENABLED|BUILD_BUG_ON\w*)$")


def strip_comments_strings(text):
    """Comments and string/char literal contents blanked, lines kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def split_pp(text):
    """(code without preprocessor lines, list of directive strings)."""
    code, pp = [], []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.lstrip().startswith("#"):
            d = ln
            code.append("")
            while d.endswith("\\") and i + 1 < len(lines):
                i += 1
                d = d[:-1] + " " + lines[i]
                code.append("")
            pp.append(d.strip())
        else:
            code.append(ln)
        i += 1
    return "\n".join(code), pp


def idents(s):
    """Identifiers of s that are not member names (after . or ->)."""
    res = []
    for m in re.finditer(r"[A-Za-z_]\w*", s):
        pre = s[:m.start()].rstrip()
        if pre.endswith(".") or pre.endswith("->"):
            continue
        if m.group(0) in KEYWORDS:
            continue
        res.append(m.group(0))
    return res


def depth0(s, opens="([", closes=")]"):
    """s with everything inside () and [] removed."""
    out, d = [], 0
    for c in s:
        if c in opens:
            if d == 0:
                out.append(c)
            d += 1
        elif c in closes:
            d -= 1
            if d == 0:
                out.append(c)
        elif d == 0:
            out.append(c)
    return "".join(out)


def func_name(head):
    """Name of the function a top-level head 'int foo(args) attrs' declares."""
    d = 0
    for m in re.finditer(r"[A-Za-z_]\w*|[()]", head):
        t = m.group(0)
        if t == "(":
            d += 1
            continue
        if t == ")":
            d -= 1
            continue
        if d:
            continue
        rest = head[m.end():].lstrip()
        if rest.startswith("(") and not ATTR.match(t) and t not in KEYWORDS:
            return t
    return None


def parse_top(code):
    """Top-level items: list of (kind, name, storage, body, line)."""
    items = []
    i, n, start = 0, len(code), 0
    while i < n:
        c = code[i]
        if c == ";" or c == "{":
            head = code[start:i]
            line = code.count("\n", 0, start) + 1 + \
                (len(head) - len(head.lstrip("\n")))
            body = ""
            if c == "{":
                d, j = 1, i + 1
                while j < n and d:
                    if code[j] == "{":
                        d += 1
                    elif code[j] == "}":
                        d -= 1
                    j += 1
                body = code[i:j]
                i = j
            h = " ".join(head.split())
            toks = h.split()
            storage = "static" if "static" in toks else \
                "extern" if "extern" in toks else "typedef" \
                if "typedef" in toks else ""
            inline = "inline" in toks or "__always_inline" in toks
            if c == "{":
                # function body, or an aggregate initializer / type body
                if "=" not in h and "(" in h and \
                        not re.match(r"^(struct|union|enum)\b[^()]*$", h):
                    name = func_name(h)
                    if name:
                        items.append(("func", name,
                                      "inline" if inline else storage,
                                      h + body, line))
                        start = i
                        continue
                # aggregate: run on to the ';' after the braces
                k = code.find(";", i)
                k = n if k < 0 else k
                tail = code[i:k]
                full = h + " {...} " + " ".join(tail.split())
                if "=" in h:
                    name = last_ident(h.split("=")[0])
                    if name and storage != "typedef":
                        items.append(("var", name, storage, h + body, line))
                elif storage == "typedef":
                    pass
                else:
                    for dcl in depth0(tail).split(","):
                        nm = last_ident(dcl)
                        if nm:
                            items.append(("var", nm, storage, full, line))
                i = k + 1
                start = i
                continue
            # ';': a declaration; a top-level macro call
            # (module_param(..), MODULE_*(..), EXPORT_*(..)) declares nothing
            if re.match(r"^[A-Za-z_]\w*\s*\(\)$", depth0(h, "(", ")").strip()):
                pass
            elif h and storage != "typedef":
                fp = re.search(r"\(\s*\*\s*(\w+)\s*\)", h)
                flat = depth0(h.split("=")[0])
                if fp and "(" in flat and flat.find("(") == \
                        h.split("=")[0].find("("):
                    items.append(("var", fp.group(1), storage, h, line))
                elif "(" in depth0(h.split("=")[0], "[", "]") and \
                        func_name(h.split("=")[0]):
                    nm = func_name(h.split("=")[0])
                    if not re.match(r"^[A-Z_0-9]+$", nm):
                        items.append(("proto", nm, storage, h, line))
                else:
                    for k, dcl in enumerate(split_decls(h)):
                        nm = last_ident(dcl.split("=")[0], k > 0)
                        if nm:
                            items.append(("var", nm, storage, h, line))
            i += 1
            start = i
            continue
        i += 1
    return items


def split_decls(h):
    """'static int a = 1, b[2]' -> ['static int a = 1', ' b[2]']."""
    parts, d, cur = [], 0, []
    for c in h:
        if c in "([{":
            d += 1
        elif c in ")]}":
            d -= 1
        if c == "," and d == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    parts.append("".join(cur))
    return parts


def last_ident(s, more=False):
    """The declared name of declarator s (more: after a comma, no type)."""
    s = depth0(s, "[", "]").replace("[", " ").replace("]", " ")
    toks = [t for t in re.findall(r"[A-Za-z_]\w*", s) if not ATTR.match(t)]
    if len(toks) < 2 and not more and not re.search(r"\*", s):
        return None         # a lone word declares nothing
    if toks and toks[0] in ("struct", "union", "enum") and len(toks) == 2 \
            and "*" not in s:
        return None         # 'struct foo;' declares a type, not a variable
    ids = [t for t in toks if t not in KEYWORDS]
    return ids[-1] if ids else None



class Src:
    """One source file, read."""

    def __init__(self, root, rel):
        self.rel = rel
        with open(os.path.join(root, rel), errors="replace") as f:
            self.raw = f.read()
        self.code, self.pp = split_pp(strip_comments_strings(self.raw))
        self.items = parse_top(self.code)
        # macro bodies count as uses
        self.macro_text = " ".join(p for p in self.pp
                                   if re.match(r"#\s*define", p))
        self.is_c = rel.endswith(".c")

    def globals(self):
        return [nm for k, nm, st, _, _ in self.items
                if self.is_c and k in ("func", "var")
                and st not in ("static", "extern", "inline")]

    def statics(self):
        return {nm for k, nm, st, _, _ in self.items
                if k in ("func", "var") and st in ("static", "inline")}

    def inlines(self):
        return {nm: body for k, nm, st, body, _ in self.items
                if not self.is_c and k == "func"}

    def declared(self):
        return {nm for k, nm, st, _, _ in self.items
                if k == "proto" or (k == "var" and st == "extern")}


def arch_of(path):
    p = path.split("/")
    return p[1] if p[0] == "arch" and len(p) > 2 else None


def same_build(a, b):
    """Can files a and b be in one build (not two different arches)?"""
    return not (arch_of(a) and arch_of(b) and arch_of(a) != arch_of(b))


class Graph:
    """uses[user][definer] = {symbol}; declared[symbol] = {header}"""

    def __init__(self, root, files):
        self.srcs = {f: Src(root, f) for f in files}
        self.defs = defaultdict(set)
        self.declared = defaultdict(set)
        self.inline_def = {}
        for f, s in self.srcs.items():
            for nm in s.globals():
                self.defs[nm].add(f)
            if not s.is_c:
                for nm in s.declared():
                    self.declared[nm].add(f)
        for f, s in self.srcs.items():
            for nm, body in s.inlines().items():
                if nm not in self.defs:
                    self.inline_def.setdefault(nm, body)
        self.memo = {}
        self.uses = defaultdict(lambda: defaultdict(set))
        for f, s in self.srcs.items():
            self.read_uses(f, s)

    def inline_reach(self, nm, seen=()):
        """the global definitions inline nm reaches, through others"""
        if nm in self.memo:
            return self.memo[nm]
        out = set()
        for t in idents(self.inline_def[nm]):
            if t == nm or t in seen:
                continue
            if t in self.defs:
                out.add(t)
            elif t in self.inline_def:
                out |= self.inline_reach(t, seen + (nm,))
        self.memo[nm] = out
        return out

    def read_uses(self, f, s):
        if s.is_c:
            own = set(s.globals()) | s.statics()
            text = s.code + " " + s.macro_text
        else:   # a header uses what its inlines and macros use
            own = set(s.inlines())
            text = " ".join(s.inlines().values()) + " " + s.macro_text
        for t in set(idents(text)) - own:
            if t in self.defs:
                reached = {t}
            elif t in self.inline_def and s.is_c:
                reached = self.inline_reach(t) - own
            else:
                continue
            for g in reached:
                for df in self.defs[g]:
                    if df != f and same_build(f, df):
                        self.uses[f][df].add(g)


def tarjan(nodes, edges):
    index, low, on, st, res = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        st.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in nodes:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = st.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            res.append(sorted(comp))
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return res
