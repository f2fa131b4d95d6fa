#!/usr/bin/env python3
"""Writes the seed corpus of the plan and cluster fuzz targets from the tests' real inputs: the plan and cluster
TOML texts the tests write as C++ string literals (adjacent literals joined), and the plan files the repository
ships. Usage: fuzz/seed_corpus.py (from anywhere); rewrites fuzz/corpus/plan_text and fuzz/corpus/cluster_text."""
import hashlib
import pathlib
import re

root = pathlib.Path(__file__).resolve().parent.parent
literal = re.compile(r'R"\((.*?)\)"|"((?:[^"\\\n]|\\.)*)"', re.S)
between = re.compile(r'\s*(?://[^\n]*\s*)*')


def decoded(text):
    escapes = {'n': '\n', 't': '\t', '"': '"', '\\': '\\', "'": "'", 'r': '\r', '0': '\0'}
    return re.sub(r'\\(.)', lambda m: escapes.get(m.group(1), m.group(0)), text)


def joined_literals(source):
    """Every run of adjacent string literals in a C++ file, joined and decoded."""
    out, pos = [], 0
    while (m := literal.search(source, pos)):
        parts, end = [], m.start()
        while (m := literal.match(source, end)):
            parts.append(m.group(1) if m.group(1) is not None else decoded(m.group(2)))
            end = between.match(source, m.end()).end()
        out.append(''.join(parts))
        pos = end if end > pos else pos + 1
    return out


def write(folder, texts):
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob('test-*'):
        old.unlink()
    for text in texts:
        data = text.encode()
        (folder / ('test-' + hashlib.sha1(data).hexdigest()[:12])).write_bytes(data)


sources = [p.read_text() for p in sorted((root / 'tests').glob('*.cpp')) + sorted((root / 'tests').glob('*.h'))]
literals = [t for s in sources for t in joined_literals(s)]
plans = {t for t in literals if '[[run]]' in t}
clusters = {t for t in literals if '[[cluster]]' in t}
write(root / 'fuzz/corpus/plan_text', sorted(plans))
write(root / 'fuzz/corpus/cluster_text', sorted(clusters))
shipped = root / 'fuzz/corpus/plan_text'
for plan in sorted((root / 'resources/plans').rglob('*.toml')) + sorted((root / 'tests/data').glob('*.toml')):
    (shipped / ('file-' + plan.name)).write_bytes(plan.read_bytes())
print(f'{len(plans)} plan texts, {len(clusters)} cluster texts from the tests; plan files copied')
