#!/usr/bin/env python3
# test/doc_links.py -- every relative link and #anchor of README.md, CHANGELOG.md and docs/*.md resolves
#
#   python3 test/doc_links.py [source tree]     # last line: N relative links checked, N broken
#
# Anchors follow GitHub's rule: the heading lowercased, backticks and
# punctuation other than - and _ dropped, spaces as -, -1, -2 ... for repeats.
# Links inside code spans and fenced blocks are not links and are skipped.
import os, re, sys, glob, unicodedata

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
files = [os.path.join(root, f) for f in ['README.md', 'CHANGELOG.md']] + sorted(glob.glob(os.path.join(root, 'docs', '*.md')))
files = [f for f in files if os.path.exists(f)]

def slug(text):
    # GitHub: strip markdown formatting, lowercase, drop punctuation except - and _, spaces -> -
    t = re.sub(r'`', '', text)
    t = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', t)
    t = re.sub(r'<[^>]+>', '', t)
    t = t.strip().lower()
    out = []
    for ch in t:
        cat = unicodedata.category(ch)
        if ch in '-_' or ch == ' ':
            out.append('-' if ch == ' ' else ch)
        elif cat[0] in 'LN' or cat == 'Mn':
            out.append(ch)
        # everything else dropped
    return ''.join(out)

anchors_cache = {}
def anchors(path):
    if path in anchors_cache:
        return anchors_cache[path]
    seen = {}
    res = set()
    in_code = False
    for line in open(path, encoding='utf-8'):
        if line.lstrip().startswith('```'):
            in_code = not in_code
            continue
        if in_code:
            continue
        m = re.match(r'^(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if m:
            s = slug(m.group(2))
            n = seen.get(s, 0)
            seen[s] = n + 1
            res.add(s if n == 0 else f'{s}-{n}')
        for a in re.findall(r'<a\s+(?:name|id)="([^"]+)"', line):
            res.add(a)
    anchors_cache[path] = res
    return res

bad = 0
checked = 0
for f in files:
    in_code = False
    for lineno, line in enumerate(open(f, encoding='utf-8'), 1):
        if line.lstrip().startswith('```'):
            in_code = not in_code
            continue
        if in_code:
            continue
        line_nocode = re.sub(r'`[^`]*`', '', line)
        for m in re.finditer(r'\[[^\]]*\]\(([^)\s]+)\)', line_nocode):
            target = m.group(1)
            if re.match(r'^[a-z]+:', target):
                continue
            checked += 1
            path, _, frag = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            if not os.path.exists(dest):
                print(f'{os.path.relpath(f, root)}:{lineno}: missing file: {target}')
                bad += 1
                continue
            if frag and dest.endswith('.md') and frag not in anchors(dest):
                print(f'{os.path.relpath(f, root)}:{lineno}: missing anchor: {target}')
                bad += 1
print(f'{checked} relative links checked, {bad} broken')
sys.exit(1 if bad else 0)
