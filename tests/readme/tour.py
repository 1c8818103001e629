#!/usr/bin/python3
"""tour.py: runs README.md's "A first five minutes" with the real psql.

usage: tour.py README PORT

The section runs from its heading to the next "## " heading. In a ```psql
block, a line "eddy=> stmt" (continued over "eddy-> " lines) is sent to psql
as written and the lines under it, up to the next prompt, are what psql must
print; a statement shown with no output must succeed (print no ERROR). A
"$ psql URL" line names the user and database to connect as (the test's own
server stands in for the URL's host and port). In a ```sql block every
statement must succeed, or fail with the SQLSTATE of a "-- NNNNN: ..." comment
after it. Every statement's result is one "ok"/"not ok" line.
"""
import re
import subprocess
import sys
import urllib.parse

PROMPT = re.compile(r'^[A-Za-z0-9_]+=[>#] ?')
CONT = re.compile(r'^[A-Za-z0-9_]+-[>#] ?')
MARK = '@@tour-statement-'


def section(text):
    m = re.search(r'^## A first five minutes\s*$', text, re.M)
    if m is None:
        return None
    rest = text[m.end():]
    n = re.search(r'^## ', rest, re.M)
    return rest[:n.start()] if n else rest


def blocks(sec):
    """Yields (info string, lines) for every fenced block of the section."""
    lines = sec.split('\n')
    i = 0
    while i < len(lines):
        m = re.match(r'^```\s*(\w*)\s*$', lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith('```'):
            j += 1
        yield m.group(1), lines[i + 1:j]
        i = j + 1


def transcript(lines):
    """Statements of a psql block: [(sql, expected lines)] and the connection's user and database."""
    user, db = 'eddy', 'eddy'
    stmts = []
    for ln in lines:
        if ln.startswith('$ '):
            m = re.search(r'postgres(?:ql)?://\S+', ln)
            if m:
                u = urllib.parse.urlparse(m.group(0))
                user = u.username or user
                db = u.path.lstrip('/') or db
            continue
        if PROMPT.match(ln):
            stmts.append([PROMPT.sub('', ln, count=1), []])
        elif CONT.match(ln) and stmts and not stmts[-1][1]:
            stmts[-1][0] += '\n' + CONT.sub('', ln, count=1)
        elif stmts:
            stmts[-1][1].append(ln)
    return [(s, trim(out)) for s, out in stmts], user, db


def trim(out):
    out = [ln.rstrip() for ln in out]
    while out and out[-1] == '':
        out.pop()
    return out


def psql(port, user, db, script, verbosity='default'):
    # Unbuffered stdout, so that results and errors (stderr) keep their order.
    cmd = ['stdbuf', '-o0', '-e0', 'psql', '-X', '-h', '127.0.0.1', '-p', str(port), '-U', user,
           '-v', 'VERBOSITY=' + verbosity, db]
    r = subprocess.run(cmd, input=script, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=120)
    return r.stdout


def split_output(out, n):
    parts = [[] for _ in range(n)]
    cur = None
    for ln in out.split('\n'):
        if ln.startswith(MARK):
            cur = int(ln[len(MARK):])
            continue
        if cur is not None:
            parts[cur].append(ln)
    return [trim(p) for p in parts]


def name_of(sql):
    return re.sub(r'\s+', ' ', sql)[:60]


def run_psql_block(port, lines, k):
    stmts, user, db = transcript(lines)
    script = ''.join("\\echo '%s%d'\n%s\n" % (MARK, i, s) for i, (s, _) in enumerate(stmts))
    got = split_output(psql(port, user, db, script), len(stmts))
    for i, ((sql, want), have) in enumerate(zip(stmts, got)):
        name = 'readme_tour_%d_%d %s' % (k, i + 1, name_of(sql))
        if want:
            if have == want:
                print('ok', name)
            else:
                print('not ok', name, '(psql printed something else)')
                for ln in want:
                    print('  want |' + ln)
                for ln in have:
                    print('  have |' + ln)
        elif any(ln.startswith(('ERROR:', 'FATAL:', 'psql:')) for ln in have):
            print('not ok', name, ': failed:', ' / '.join(have))
        else:
            print('ok', name)
    return len(stmts)


def run_sql_block(port, lines, k):
    stmts, cur = [], ''
    for ln in lines:
        cur += ln + '\n'
        code = re.match(r'^(.*;)\s*(?:--\s*(\S{5})\b.*)?$', ln)
        if code:
            stmts.append((cur.strip(), code.group(2)))
            cur = ''
    script = ''.join("\\echo '%s%d'\n%s\n" % (MARK, i, s) for i, (s, _) in enumerate(stmts))
    got = split_output(psql(port, 'eddy', 'eddy', script, 'sqlstate'), len(stmts))
    for i, ((sql, code), have) in enumerate(zip(stmts, got)):
        name = 'readme_sql_%d_%d %s' % (k, i + 1, name_of(sql))
        errors = [ln for ln in have if ln.startswith(('ERROR:', 'FATAL:', 'psql:'))]
        if code is None and errors:
            print('not ok', name, ': failed:', ' / '.join(errors))
        elif code is not None and not any(re.match(r'^ERROR:\s+%s$' % code, ln) for ln in errors):
            print('not ok', name, ': expected SQLSTATE %s, got:' % code, ' / '.join(have))
        else:
            print('ok', name)
    return len(stmts)


def main():
    text = open(sys.argv[1]).read()
    port = int(sys.argv[2])
    sec = section(text)
    if sec is None:
        print('not ok readme_tour: README.md has no "## A first five minutes" section')
        return
    n = 0
    for k, (info, lines) in enumerate(blocks(sec), 1):
        if info == 'psql':
            n += run_psql_block(port, lines, k)
        elif info == 'sql':
            n += run_sql_block(port, lines, k)
    if n == 0:
        print('not ok readme_tour: the section shows no statement to run')


main()
