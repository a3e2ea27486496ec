#!/usr/bin/env python3
"""Checks a site `mart-holiday site` wrote in headless Chromium, as a reader's browser shows it.

    python3 scripts/site-browser-check.py SITE_DIR [--pages N] [--shard K/N] [--only PAGE]

Serves SITE_DIR on 127.0.0.1 (a static server, as docs/site.md describes), opens a check page
of the same origin in one `chromium --headless --dump-dom`, and there loads the site's pages one
by one in a frame 1280 pixels wide, then makes it 390 pixels wide (the home page, whose script
answers the search, is loaded again). Each page must, at each width:
  - render without overlap: no two text boxes (headings, paragraphs, list items, cells, terms,
    labels, links) that do not hold one another intersect, no cell's text overflows it, and the
    page is no wider than the window;
  - pass an axe-style check: `lang="ko"`, a title, one `h1`, heading levels without gaps, a
    `main`, every form field labelled, every table with header cells that have a scope, every
    link with text, and a WCAG 2 contrast of at least 4.5:1 (3:1 for large text) for every text;
  - carry structured data that parses (branch pages: one JSON-LD store with an identifier);
  - link only to pages that exist (every same-site link is fetched).
On the home page the search must find a branch by its name and by its district.

`--pages N` checks every kind of page and an even sample of the rest, N in all; `--shard K/N`
checks only the K-th of N shares of those pages (every N-th, from the K-th), so that N runs side
by side check them all. `--only PAGE` checks that one page (a path below SITE_DIR).

Exit status 0 when every check passes, 1 when one fails (each failure on a line of standard
error), 2 when it cannot run (no chromium: the message says so).
Standard library only; Chromium is the one program it needs.
"""
import functools
import html
import http.server
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading

CHECK_PAGE = r"""<!doctype html><html><head><meta charset="utf-8"><title>check</title></head><body>
<pre id="result">running</pre>
<script>
const PAGES = __PAGES__, WIDTHS = __WIDTHS__, QUERIES = __QUERIES__;
// Per width: the pages checked and the failures found. WIDTH is the width being checked.
const results = {};
let WIDTH = 0, failures = [], checked = [];
const fail = (page, what) => failures.push(page + ': ' + what);
const sleep = ms => new Promise(r => setTimeout(r, ms));
function load(page) {
  return new Promise(resolve => {
    const frame = document.createElement('iframe');
    frame.style.cssText = 'border:0;display:block;width:' + WIDTH + 'px;height:900px';
    frame.onload = () => resolve(frame);
    frame.src = page;
    document.body.appendChild(frame);
  });
}
// The frame made WIDTH wide; its page is laid out again as a window of that width shows it
// (media queries included), without loading it again.
function resize(frame) {
  frame.style.width = WIDTH + 'px';
  void frame.contentDocument.documentElement.getBoundingClientRect();
}
function luminance(rgb) {
  const c = rgb.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}
function parseColor(text) {
  const m = text.match(/rgba?\(([^)]+)\)/); if (!m) return null;
  const p = m[1].split(',').map(s => parseFloat(s));
  return {rgb: p.slice(0, 3), alpha: p.length > 3 ? p[3] : 1};
}
function background(win, el) {
  for (let e = el; e; e = e.parentElement) {
    const c = parseColor(win.getComputedStyle(e).backgroundColor);
    if (c && c.alpha > 0) return c.rgb;
  }
  return [255, 255, 255];
}
// Each same-site path is fetched once (at every width, each link to it is judged by that answer);
// the paths a page names first are fetched side by side.
const linkStatus = {};
async function checkLinks(page, doc) {
  const links = [];
  for (const a of doc.querySelectorAll('a[href]')) {
    const url = new URL(a.getAttribute('href'), new URL(page, location.href));
    if (url.origin !== location.origin) continue;
    links.push([a.getAttribute('href'), url]);
    const key = url.pathname;
    if (!(key in linkStatus)) {
      linkStatus[key] = fetch(url.href, {method: 'HEAD'}).then(r => r.status, e => String(e));
    }
  }
  for (const [href, url] of links) {
    const status = await linkStatus[url.pathname];
    if (status !== 200) fail(page, 'link ' + href + ' answers ' + status);
  }
}
function checkLayout(page, win, doc) {
  const root = doc.documentElement;
  if (root.scrollWidth > WIDTH + 1) fail(page, 'wider than the window: ' + root.scrollWidth + ' px at ' + WIDTH);
  const boxes = [];
  for (const el of doc.querySelectorAll('h1,h2,h3,p,li,th,td,dt,dd,caption,summary,label,input,blockquote,header a')) {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    boxes.push([el, r]);
    if ((el.tagName === 'TD' || el.tagName === 'TH') && el.scrollWidth > el.clientWidth + 1)
      fail(page, 'text overflows its cell: ' + el.textContent.slice(0, 40));
  }
  let overlaps = 0;
  for (let i = 0; i < boxes.length; i++) {
    const [a, ra] = boxes[i];
    for (let j = i + 1; j < boxes.length; j++) {
      const [b, rb] = boxes[j];
      const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (w > 1 && h > 1 && !a.contains(b) && !b.contains(a)) {
        if (overlaps++ < 3) fail(page, 'overlap at ' + WIDTH + ' px: <' + a.tagName + '> "' + a.textContent.slice(0, 30) +
          '" and <' + b.tagName + '> "' + b.textContent.slice(0, 30) + '"');
      }
    }
  }
}
function checkAccessibility(page, win, doc) {
  if (doc.documentElement.getAttribute('lang') !== 'ko') fail(page, 'html lang is not ko');
  if (!doc.title.trim()) fail(page, 'no title');
  if (doc.querySelectorAll('h1').length !== 1) fail(page, doc.querySelectorAll('h1').length + ' h1 headings');
  if (!doc.querySelector('main')) fail(page, 'no main landmark');
  let level = 0;
  for (const h of doc.querySelectorAll('h1,h2,h3,h4,h5,h6')) {
    const n = +h.tagName[1];
    if (n > level + 1) fail(page, 'heading level jumps from h' + level + ' to h' + n + ': ' + h.textContent);
    if (!h.textContent.trim()) fail(page, 'empty heading');
    level = n;
  }
  for (const field of doc.querySelectorAll('input,select,textarea')) {
    const labelled = (field.id && doc.querySelector('label[for="' + field.id + '"]')) || field.getAttribute('aria-label') || field.closest('label');
    if (!labelled) fail(page, 'form field without a label: ' + field.outerHTML.slice(0, 60));
  }
  for (const table of doc.querySelectorAll('table')) {
    if (!table.querySelector('th')) fail(page, 'table without header cells');
    for (const th of table.querySelectorAll('th')) if (!th.getAttribute('scope')) fail(page, 'header cell without scope: ' + th.textContent);
  }
  for (const a of doc.querySelectorAll('a')) if (!a.textContent.trim() && !a.getAttribute('aria-label')) fail(page, 'link without text: ' + a.getAttribute('href'));
  for (const el of doc.querySelectorAll('body *')) {
    if (!Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const style = win.getComputedStyle(el);
    const fg = parseColor(style.color);
    if (!fg) continue;
    const l1 = luminance(fg.rgb), l2 = luminance(background(win, el));
    const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight) >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    if (ratio < (large ? 3 : 4.5)) fail(page, 'contrast ' + ratio.toFixed(2) + ':1 for "' + el.textContent.trim().slice(0, 30) + '"');
  }
}
function checkStructuredData(page, doc) {
  const scripts = doc.querySelectorAll('script[type="application/ld+json"]');
  const isBranch = /^[^/]+\/[^/]+\.html$/.test(page) && !page.endsWith('/index.html') && !page.startsWith('districts/');
  if (isBranch && scripts.length !== 1) fail(page, scripts.length + ' JSON-LD elements');
  for (const s of scripts) {
    try {
      const data = JSON.parse(s.textContent);
      if (!data['@type'] || !data.identifier) fail(page, 'JSON-LD without @type or identifier');
      for (const d of data.specialOpeningHoursSpecification || [])
        if (d.validFrom !== d.validThrough || d.opens !== '00:00' || d.closes !== '00:00') fail(page, 'JSON-LD special hours not a closed day');
    } catch (e) { fail(page, 'JSON-LD does not parse: ' + e); }
  }
}
async function checkSearch(frame) {
  const doc = frame.contentDocument, win = frame.contentWindow;
  const form = doc.getElementById('find'), q = doc.getElementById('q');
  if (!form || form.hidden || !q) { fail('index.html', 'the search form is not shown with script on'); return; }
  for (const [query, wanted] of QUERIES) {
    q.value = query;
    q.dispatchEvent(new win.Event('input'));
    let links = [];
    for (let i = 0; i < 100 && !links.length; i++) { await sleep(50); links = Array.from(doc.querySelectorAll('#hits a')); }
    const hit = links.find(a => a.getAttribute('href') === wanted);
    if (!hit) { fail('index.html', 'search "' + query + '" does not find ' + wanted + ' (' + links.length + ' hits)'); continue; }
    const answer = await fetch(new URL(hit.getAttribute('href'), new URL('index.html', location.href)).href);
    if (answer.status !== 200) fail('index.html', 'search hit ' + wanted + ' answers ' + answer.status);
    const text = await answer.text();
    if (!text.includes('<h1>')) fail('index.html', 'search hit ' + wanted + ' is not a page');
  }
}
for (const width of WIDTHS) results[width] = {checked: [], failures: []};
(async () => {
  for (const page of PAGES) {
    // Each page is loaded once and checked at each width in turn; the home page, whose script
    // answers the search, is loaded afresh for each width.
    let frame = null;
    for (const width of WIDTHS) {
      WIDTH = width; failures = results[width].failures; checked = results[width].checked;
      if (frame && page !== 'index.html') resize(frame);
      else {
        if (frame) frame.remove();
        frame = await load(page);
      }
      const doc = frame.contentDocument, win = frame.contentWindow;
      checkLayout(page, win, doc);
      checkAccessibility(page, win, doc);
      checkStructuredData(page, doc);
      await checkLinks(page, doc);
      if (page === 'index.html') await checkSearch(frame);
      checked.push(page);
    }
    frame.remove();
  }
  document.getElementById('result').textContent = 'RESULT' + JSON.stringify(results) + 'END';
})().catch(e => {
  failures.push('check page: ' + e);
  document.getElementById('result').textContent = 'RESULT' + JSON.stringify(results) + 'END';
});
</script></body></html>"""


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Handler(http.server.SimpleHTTPRequestHandler):
    check_pages = {}

    def do_GET(self):
        if self.path.split("?")[0] in self.check_pages:
            body = self.check_pages[self.path.split("?")[0]].encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, *args):
        pass


def main():
    args = sys.argv[1:]
    limit = None
    if "--pages" in args:
        i = args.index("--pages")
        limit = int(args[i + 1])
        del args[i:i + 2]
    only = None
    if "--only" in args:
        i = args.index("--only")
        only = args[i + 1]
        del args[i:i + 2]
    shard, shards = 1, 1
    if "--shard" in args:
        i = args.index("--shard")
        shard, shards = (int(n) for n in args[i + 1].split("/"))
        del args[i:i + 2]
    if len(args) != 1 or not os.path.isfile(os.path.join(args[0], "index.html")) or not 1 <= shard <= shards:
        print("usage: site-browser-check.py SITE_DIR [--pages N] [--shard K/N] [--only PAGE]"
              "  (SITE_DIR holds index.html)", file=sys.stderr)
        return 2
    site = os.path.abspath(args[0])
    chromium = find_chromium()
    if not chromium:
        print("skipped: chromium is not installed (scripts/setup.sh installs it)", file=sys.stderr)
        return 2

    pages = []
    for folder, _, names in os.walk(site):
        for name in names:
            if name.endswith(".html"):
                pages.append(os.path.relpath(os.path.join(folder, name), site))
    pages.sort()
    if limit and len(pages) > limit:
        # Every kind of page, and an even sample of the rest (the same sample every time).
        keep = {p for p in pages if "/" not in p or p.endswith("/index.html")}
        rest = [p for p in pages if p not in keep]
        keep.update(random.Random(52).sample(rest, max(0, limit - len(keep))))
        pages = sorted(keep)
    pages.remove("index.html")
    pages.insert(0, "index.html")
    if only is not None:
        if only not in pages:
            print("error: %s is no page of %s" % (only, site), file=sys.stderr)
            return 2
        pages = [only]
    if shards > 1:
        print("shard %d/%d: %d of %d pages" % (shard, shards, len(pages[shard - 1::shards]), len(pages)))
        pages = pages[shard - 1::shards]

    with open(os.path.join(site, "search.json"), encoding="utf-8") as f:
        rows = json.load(f)
    row = next(r for r in rows if r[2])
    queries = [[row[1].split(" ")[-1], row[0]], [row[2] + " " + row[1].split(" ")[-1], row[0]]]

    handler = functools.partial(Handler, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    failures = []
    widths = (1280, 390)
    try:
        # One browser for both widths: each page is loaded in a frame of the width checked, and
        # the outer window is wider than the widest frame.
        name = "/__check__.html"
        Handler.check_pages[name] = (CHECK_PAGE.replace("__PAGES__", json.dumps(pages))
                                     .replace("__WIDTHS__", json.dumps(widths)).replace("__QUERIES__", json.dumps(queries)))
        with tempfile.TemporaryDirectory() as profile:
            run = subprocess.run(
                [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 "--no-first-run", "--user-data-dir=" + profile, "--window-size=%d,1000" % (max(widths) + 40),
                 "--virtual-time-budget=900000", "--dump-dom", "http://127.0.0.1:%d%s" % (port, name)],
                capture_output=True, text=True, timeout=600)
        dom = run.stdout
        start, end = '<pre id="result">RESULT', 'END</pre>'
        results = {}
        if start in dom and end in dom:
            results = json.loads(html.unescape(dom[dom.index(start) + len(start):dom.index(end)]))
        for width in widths:
            result = results.get(str(width))
            if result is None:
                failures.append("%d px: the check page did not finish (chromium status %d): %s" %
                                (width, run.returncode, run.stderr.strip()[-300:]))
                continue
            if len(result["checked"]) != len(pages):
                failures.append("%d px: checked %d of %d pages" % (width, len(result["checked"]), len(pages)))
            failures += ["%d px: %s" % (width, f) for f in result["failures"]]
            print("%d px: %d pages checked, %d failures" % (width, len(result["checked"]), len(result["failures"])))
    finally:
        server.shutdown()
    for failure in failures:
        print("error: " + failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
