#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-layers.py [--root DIR] [--conf FILE]

Holds the source tree to its layers (scripts/layers.conf): every C file
of kdb-itrace/ and arch/ in one layer, includes only downward and never
between peers, private and published headers, the system headers each
layer may use, include spelling (a root or the own folder, never
"../"), no arch conditionals in arch-neutral code, and the one list of
the pure-C sources (kdb-itrace/lib/sources.mk) that no other build list
repeats. Reads source text only (no compiler): comments are blanked,
both branches of every #if read.

Prints one PASS line per rule that held, or a FAIL line per violation
(at most 20 a rule), for the style group of `make check`; exit status 1
on any FAIL. The rules, by id:
  L1 every .c/.h under kdb-itrace/ and arch/ is in a layer
  I1 a quoted include names exactly one existing file
  I2 includes go to the same layer or down, never to a peer
  I3 private headers stay in their layer; published ones go only where
     listed
  I4 <...> includes: what the layer (or file) may use
  I5 spelling: from the own folder (its files bare) or from a root;
     no "../"
  P1 arch-neutral code has no arch conditionals
  B1 the lib list names exactly the lib folders' .c files
  B2 no other build list names a lib source
  B3 the scripts that copy the module sources carry *.mk (Kbuild
     includes the lib list)
  B4 the folders "reach:" names (tools/, bench/) name no path under
     the ones it forbids (tests/) outside comments
  S1 references (a use of another file's non-static function or
     variable, scripts/srcgraph.py) go to the same layer or down, never
     to a peer; a call through an interface header (iface:) counts as a
     use of the header's layer
  C1 no circle of references through files of more than one layer
  C2 no circle of references among the files of a layer "acyclic:"
     lists
"""
import argparse
import fnmatch
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import srcgraph  # noqa: E402

MAX_FAILS = 20
ARCH_TOKENS = re.compile(
    r'\b(CONFIG_X86\w*|CONFIG_PPC\w*|__x86_64__|__i386__|__powerpc64__|__powerpc__)\b')
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)


class Conf:
    """scripts/layers.conf"""

    def __init__(self, path):
        self.layers, self.order, self.private = [], [], []
        self.published, self.system, self.system_file = [], {}, []
        self.roots, self.lib_dirs, self.copies = [], [], []
        self.lib_list, self.neutral, self.lib_readers = None, [], []
        self.iface, self.reach, self.acyclic = [], [], []
        with open(path) as f:
            for n, line in enumerate(f, 1):
                line = line.split('#', 1)[0].strip()
                if not line:
                    continue
                key, _, rest = line.partition(':')
                words = rest.split()
                self.add(key.strip(), words, f'{path}:{n}')

    def add(self, key, w, where):
        if key == 'layer' and len(w) == 2:
            self.layers.append((w[0], w[1]))
        elif key == 'order':
            self.order = [g.split('|') for g in ' '.join(w).replace(' ', '').split('<')]
        elif key == 'private' and len(w) == 1:
            self.private.append(w[0])
        elif key == 'published' and len(w) == 2:
            self.published.append((w[0], w[1].split(',')))
        elif key == 'system' and len(w) == 2:
            self.system[w[0]] = w[1]
        elif key == 'system-file' and len(w) == 2:
            self.system_file.append((w[0], w[1]))
        elif key == 'roots':
            self.roots = w
        elif key == 'lib-list' and len(w) == 1:
            self.lib_list = w[0]
        elif key == 'lib-dirs':
            self.lib_dirs = w
        elif key == 'lib-readers':
            self.lib_readers = w
        elif key == 'copies':
            self.copies = w
        elif key == 'neutral':
            self.neutral = w
        elif key == 'reach' and len(w) >= 3 and w[-2] == 'not':
            self.reach.append((w[:-2], w[-1]))
        elif key == 'acyclic':
            self.acyclic = w
        elif key == 'iface' and len(w) == 2:
            self.iface.append((w[0], w[1]))
        else:
            sys.exit(f'check-layers.py: {where}: cannot read "{key}: {" ".join(w)}"')


def arch_of(path):
    p = path.split('/')
    return p[1] if p[0] == 'arch' and len(p) > 2 else None


def blank_comments(text):
    """Comments blanked, newlines kept (strings skipped whole, so that a
    "//" in one starts no comment)."""
    def repl(m):
        s = m.group(0)
        if s.startswith('"'):
            return s
        return re.sub(r'[^\n]', ' ', s)
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', repl, text, flags=re.S)


class Checker:
    def __init__(self, root, conf):
        self.root, self.conf = root, conf
        self.fails, self.counts = {}, {}
        self.archs = sorted(d for d in os.listdir(os.path.join(root, 'arch'))
                            if os.path.isdir(os.path.join(root, 'arch', d)))
        self.files = sorted(
            os.path.relpath(p, root)
            for top in ('kdb-itrace', 'arch')
            for p in glob.glob(os.path.join(root, top, '**', '*.[ch]'), recursive=True))
        self.rank = {}
        for i, group in enumerate(conf.order):
            for name in group:
                for layer in self.expand(name):
                    self.rank[layer] = i

    def expand(self, name, arch=None):
        if '{arch}' not in name:
            return [name]
        archs = [arch] if arch else self.archs
        return [name.replace('{arch}', a) for a in archs]

    def fail(self, rule, msg):
        msgs = self.fails.setdefault(rule, [])
        if msg not in msgs:         # once, not once per arch build
            msgs.append(msg)

    def passed(self, rule, msg):
        self.counts[rule] = msg

    def layer(self, path):
        for pat, name in self.conf.layers:
            if fnmatch.fnmatch(path, pat):
                return name.replace('{arch}', arch_of(path) or '')
        return None

    def exists(self, rel):
        return os.path.isfile(os.path.join(self.root, rel))

    def roots(self, arch):
        return [r.replace('{arch}', arch) for r in self.conf.roots]

    def resolve(self, src, name):
        """The files a quoted include of SRC can mean: one per arch
        build (SRC's own arch, else every arch), each as (arch, hits in
        search order)."""
        out = []
        for arch in ([arch_of(src)] if arch_of(src) else self.archs):
            dirs = [os.path.dirname(src)] + self.roots(arch)
            hits = []
            for d in dirs:
                cand = os.path.normpath(os.path.join(d, name))
                if self.exists(cand) and cand not in hits:
                    hits.append(cand)
            out.append((arch, hits))
        return out

    def visible(self, src_layer, target, tlayer):
        for pat in self.conf.private:
            if fnmatch.fnmatch(target, pat) and src_layer != tlayer:
                return 'private to ' + tlayer
        for pat, users in self.conf.published:
            if fnmatch.fnmatch(target, pat) and src_layer != tlayer:
                if src_layer not in [u for x in users for u in self.expand(x)]:
                    return 'published to ' + ', '.join(users) + ' only'
        return None

    def system_ok(self, path, layer, name):
        what = None
        for pat, w in self.conf.system_file:
            if fnmatch.fnmatch(path, pat):
                what = w
        if what is None:
            arch = arch_of(path)
            for key, w in self.conf.system.items():
                if layer in self.expand(key, arch):
                    what = w
        top = name.split('/')[0] if '/' in name else ''
        return {
            'any': True,
            'linux': top in ('linux', 'uapi'),
            'libc': top not in ('linux', 'uapi', 'asm', 'asm-generic'),
        }.get(what, False), what or 'none'

    def check_file(self, path, edges):
        layer = self.layer(path)
        if layer is None:
            self.fail('L1', f'{path} is in no layer')
            return
        with open(os.path.join(self.root, path), errors='replace') as f:
            text = blank_comments(f.read())
        for m in INCLUDE.finditer(text):
            line = text.count('\n', 0, m.start()) + 1
            where = f'{path}:{line}'
            kind, name = m.group(1), m.group(2)
            if kind == '<':
                ok, what = self.system_ok(path, layer, name)
                if not ok:
                    self.fail('I4', f'{where} includes <{name}> ({layer} may use: {what})')
                continue
            self.check_include(path, layer, where, name, edges)
        if any(fnmatch.fnmatch(path, g) for g in self.conf.neutral):
            for m in ARCH_TOKENS.finditer(text):
                line = text.count('\n', 0, m.start()) + 1
                self.fail('P1', f'{path}:{line} {m.group(1)} in arch-neutral code')

    def check_include(self, path, layer, where, name, edges):
        dotdot = '..' in name.split('/')
        if dotdot:
            self.fail('I5', f'{where} "{name}": no "../", name it from a root')
        builds = self.resolve(path, name)
        missing = [arch for arch, hits in builds if not hits]
        if missing:
            only = '' if len(missing) == len(builds) else f' ({", ".join(missing)} build)'
            self.fail('I1', f'{where} "{name}" names no file{only}')
        for arch, hits in builds:
            if not hits:
                continue
            if len(hits) > 1:
                self.fail('I1', f'{where} "{name}" ambiguous: {" ".join(hits)}')
            target = hits[0]
            tlayer = self.layer(target)
            if tlayer is None:
                continue
            own = os.path.dirname(path)
            if os.path.dirname(target) == own:
                if '/' in name:
                    self.fail('I5', f'{where} "{name}": same folder, name it bare')
            elif not (dotdot or target.startswith(own + '/') or
                      any(os.path.normpath(os.path.join(r, name)) == target
                          for r in self.roots(arch))):
                self.fail('I5', f'{where} "{name}": name {target} from a root')
            edges.add((path, target))
            sr, tr = self.rank.get(layer), self.rank.get(tlayer)
            if sr is None or tr is None:
                self.fail('I2', f'{where}: layer {layer if sr is None else tlayer} not in the order')
            elif tr > sr:
                self.fail('I2', f'{where} includes {target} ({layer} -> {tlayer}: upward)')
            elif tr == sr and tlayer != layer:
                self.fail('I2', f'{where} includes {target} ({layer} -> {tlayer}: peers)')
            why = self.visible(layer, target, tlayer)
            if why:
                self.fail('I3', f'{where} includes {target} ({why})')

    def lib_sources(self):
        """(listed .c files, the list's path) from the lib list"""
        listed = set()
        text = open(os.path.join(self.root, self.conf.lib_list)).read()
        for m in re.finditer(r'^(itrace_lib\w*)\s*:?=\s*(.*)$', text, re.M):
            var, names = m.group(1), m.group(2).split()
            suffix = var[len('itrace_lib_'):] if var.startswith('itrace_lib_') else ''
            base = f'arch/{suffix}/lib' if suffix in self.archs else 'kdb-itrace/lib'
            listed |= {f'{base}/{n}.c' for n in names}
        return listed

    def check_build_lists(self):
        listed = self.lib_sources()
        present = {os.path.relpath(p, self.root)
                   for d in self.conf.lib_dirs
                   for p in glob.glob(os.path.join(self.root, d, '*.c'))}
        for p in sorted(present - listed):
            self.fail('B1', f'{p} is not in {self.conf.lib_list}')
        for p in sorted(listed - present):
            self.fail('B1', f'{self.conf.lib_list} names {p}, which does not exist')
        if 'B1' not in self.fails:
            self.passed('B1', f'{self.conf.lib_list} names the {len(present)} lib sources')

        names = '|'.join(re.escape(os.path.splitext(os.path.basename(p))[0])
                         for p in sorted(present))
        pat = re.compile(r'[\w./$(){}-]*\blib/(?:' + names + r')\.[co]\b')
        lists = ['Kbuild', 'Makefile'] + [
            os.path.relpath(p, self.root) for g in
            ('tools/**/Makefile', 'bench/**/*.sh', 'tests/**/*.sh', 'scripts/**/*.sh',
             'scripts/**/*.mk', 'kdb-itrace/**/*.mk')
            for p in glob.glob(os.path.join(self.root, g), recursive=True)]
        seen = 0
        for rel in sorted(set(lists)):
            if rel == self.conf.lib_list or rel in self.conf.lib_readers:
                continue
            if not self.exists(rel):
                continue
            seen += 1
            with open(os.path.join(self.root, rel), errors='replace') as f:
                for n, line in enumerate(f, 1):
                    code = line.split('#', 1)[0]
                    m = pat.search(code)
                    if m:
                        self.fail('B2', f'{rel}:{n} names {m.group(0)}: '
                                        f'take it from {self.conf.lib_list}')
        if 'B2' not in self.fails:
            self.passed('B2', f'{seen} other build lists name no lib source')
        for rel in self.conf.copies:
            text = open(os.path.join(self.root, rel)).read() if self.exists(rel) else ''
            if "-name '*.mk'" not in text:
                self.fail('B3', f'{rel} copies the module sources without *.mk')
        if 'B3' not in self.fails:
            self.passed('B3', f'{len(self.conf.copies)} copies of the module sources carry *.mk')

    def check_reach(self):
        """B4: a folder that must not reach into another names no path
        under it outside comments (C comments blanked; '#' lines and
        tails in the others, which are shell, make, Tcl and Python)."""
        nfiles = 0
        for dirs, banned in self.conf.reach:
            # the folder as a path component: "../tests/", "$top/tests/"
            pat = re.compile(r'(?<![\w.-])' + re.escape(banned.rstrip('/')) + r'/')
            for d in dirs:
                for dirpath, subdirs, names in os.walk(os.path.join(self.root, d)):
                    subdirs[:] = [x for x in subdirs if not x.startswith(('build', '.'))]
                    for name in sorted(names):
                        rel = os.path.relpath(os.path.join(dirpath, name), self.root)
                        try:
                            with open(os.path.join(self.root, rel)) as f:
                                text = f.read()
                        except (UnicodeDecodeError, OSError):
                            continue
                        nfiles += 1
                        if rel.endswith(('.c', '.h')):
                            text = blank_comments(text)
                        else:
                            text = re.sub(r'(^|\s)#[^\n]*', r'\1', text)
                        for n, line in enumerate(text.split('\n'), 1):
                            if pat.search(line):
                                self.fail('B4', f'{rel}:{n} reaches into {banned}/')
        if 'B4' not in self.fails:
            self.passed('B4', f'{nfiles} files of ' + ', '.join(
                d + '/' for ds, _ in self.conf.reach for d in ds) + ' reach into no folder they may not')

    def owner(self, graph, sym, definer):
        """The layer a use of SYM (defined in DEFINER) is a use of: the
        definer's, or that of an interface header declaring SYM which
        the definer's layer implements; and whether it was the latter."""
        dlayer = self.layer(definer)
        for hdr in sorted(graph.declared.get(sym, ())):
            if not srcgraph.same_build(hdr, definer):
                continue
            for pat, impl in self.conf.iface:
                if fnmatch.fnmatch(hdr, pat) and \
                        dlayer in self.expand(impl, arch_of(definer)):
                    return self.layer(hdr), True
        return dlayer, False

    def check_references(self):
        graph = srcgraph.Graph(self.root, self.files)
        edges, nrefs = {}, 0
        for user, targets in sorted(graph.uses.items()):
            ulayer = self.layer(user)
            for definer, syms in sorted(targets.items()):
                for sym in sorted(syms):
                    olayer, via_iface = self.owner(graph, sym, definer)
                    if ulayer is None or olayer is None:
                        continue
                    nrefs += 1
                    ur, orank = self.rank.get(ulayer), self.rank.get(olayer)
                    if ur is None or orank is None or orank > ur or \
                            (orank == ur and olayer != ulayer):
                        self.fail('S1', f'{user} uses {sym} of {definer} '
                                  f'({ulayer} -> {olayer})')
                    if not via_iface:
                        edges.setdefault(user, set()).add(definer)
        if 'S1' not in self.fails:
            self.passed('S1', f'{nrefs} references go down or stay in their layer')
        ncomp = 0
        for comp in srcgraph.tarjan(set(self.files), edges):
            if len(comp) < 2:
                continue
            ncomp += 1
            layers = sorted({self.layer(f) for f in comp})
            if len(layers) > 1:
                self.fail('C1', f'{len(comp)} files of {", ".join(layers)} '
                          f'refer to each other in a circle: {" ".join(comp)}')
        if 'C1' not in self.fails:
            self.passed('C1', f'no circle of references across layers '
                        f'({ncomp} within one)')
        acyclic = {lay for name in self.conf.acyclic for lay in self.expand(name)}
        inner = {u: {d for d in ds if self.layer(d) == self.layer(u)}
                 for u, ds in edges.items()}
        for comp in srcgraph.tarjan(set(self.files), inner):
            layers = {self.layer(f) for f in comp}
            if len(comp) > 1 and layers <= acyclic:
                self.fail('C2', f'{len(comp)} files of {layers.pop()} refer to each '
                          f'other in a circle: {" ".join(comp)}')
        if 'C2' not in self.fails:
            self.passed('C2', 'no circle of references within '
                        + ', '.join(self.conf.acyclic))

    def run(self):
        edges = set()
        for path in self.files:
            self.check_file(path, edges)
        layers = {self.layer(p) for p in self.files} - {None}
        if 'L1' not in self.fails:
            self.passed('L1', f'{len(self.files)} files in {len(layers)} layers')
        for rule, msg in (('I1', 'every quoted include names one file'),
                          ('I2', f'{len(edges)} include edges go down or stay in their layer'),
                          ('I3', 'private and published headers stay where they may'),
                          ('I4', 'system includes as each layer may'),
                          ('I5', 'includes named from their own folder or a root, no "../"'),
                          ('P1', 'no arch conditionals in arch-neutral code')):
            if rule not in self.fails:
                self.passed(rule, msg)
        self.check_build_lists()
        self.check_reach()
        self.check_references()
        for rule in ('L1', 'I1', 'I2', 'I3', 'I4', 'I5', 'P1', 'B1', 'B2', 'B3',
                     'B4', 'S1', 'C1', 'C2'):
            if rule in self.fails:
                msgs = self.fails[rule]
                for msg in msgs[:MAX_FAILS]:
                    print(f'FAIL layers {rule}: {msg}')
                if len(msgs) > MAX_FAILS:
                    print(f'FAIL layers {rule}: {len(msgs) - MAX_FAILS} more')
            else:
                print(f'PASS layers {rule}: {self.counts[rule]}')
        return 1 if self.fails else 0


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[2])
    ap.add_argument('--root', default=top)
    ap.add_argument('--conf', default=None)
    a = ap.parse_args()
    conf = Conf(a.conf or os.path.join(a.root, 'scripts', 'layers.conf'))
    return Checker(a.root, conf).run()


if __name__ == '__main__':
    sys.exit(main())
