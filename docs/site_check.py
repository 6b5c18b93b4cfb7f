"""Check the built documentation site as a reader opening it from disk sees it (``make docs-check`` runs it).

* Nothing loads from the network: no page or stylesheet of the site names an external script, style, font or
  image (:func:`external_loads`; the test suite checks the same on its own build).
* Search works from ``file://`` and finds the pages: Debian's headless chromium opens ``index.html?q=NAME`` with
  every host unresolvable, and the first hit for each game's name must be that game's page
  (:func:`search_failures`). Without chromium this part is skipped with a message (``apt-get install chromium``).
* ``--screens DIR``: screenshots of the home page, two game pages and the guides at 1400 and 412 px, to look at.

Usage: ``python docs/site_check.py SITE_DIR [--screens DIR]``.
"""

from __future__ import annotations

import argparse
import html
import importlib
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import quote

# tag and attribute that make a browser fetch what they name (a link <a href> is only followed when clicked)
LOADING = re.compile(
    r"<(?:script|img|source|iframe|audio|video|embed)\b[^>]*?\s(?:src|srcset)=[\"']?\s*((?:https?:)?//[^\"'\s>]+)"
    r"|<link\b(?=[^>]*\brel=[\"']?(?:stylesheet|preload|preconnect|icon|modulepreload|manifest))[^>]*?"
    r"\shref=[\"']?((?:https?:)?//[^\"'\s>]+)",
    flags=re.I,
)
CSS_URL = re.compile(r"(?:url\(\s*[\"']?|@import\s+[\"'])((?:https?:)?//[^\"')\s]+)", flags=re.I)

#: the pages screenshotted: the home page, two game pages and the guides
SCREEN_PAGES = (
    "index.html",
    "getting-started.html",
    "games/swimming.html",
    "games/squeeze.html",
    "hard-opponents.html",
    "training.html",
)
SCREEN_WIDTHS = (1400, 412)


def external_loads(site: Path) -> dict[str, list[str]]:
    """Every external address a page (``*.html``) or stylesheet (``*.css``) of ``site`` makes the browser fetch,
    by file; ``{}`` for a site that works without a network."""
    found: dict[str, list[str]] = {}
    for path in sorted(site.rglob("*.html")):
        urls = [a or b for a, b in LOADING.findall(path.read_text(errors="replace"))]
        if urls:
            found[path.relative_to(site).as_posix()] = urls
    for path in sorted(site.rglob("*.css")):
        urls = CSS_URL.findall(path.read_text(errors="replace"))
        if urls:
            found[path.relative_to(site).as_posix()] = urls
    return found


def chromium() -> str | None:
    """The headless browser's command (Debian's ``chromium``), or None where it is not installed."""
    return next((shutil.which(name) for name in ("chromium", "chromium-browser") if shutil.which(name)), None)


def _chromium(browser: str, *args: str, timeout: int = 120) -> str:
    """Run headless chromium offline (every host name fails to resolve); its stdout."""
    with tempfile.TemporaryDirectory() as profile:
        command = [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--user-data-dir={profile}",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            *args,
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    return done.stdout


def search_hits(browser: str, site: Path, query: str) -> list[str]:
    """The pages the site's search lists for ``query``, best first, as paths in ``site``: the home page opened
    from disk with ``?q=`` (Material opens its search with it), its DOM read once the search has answered."""
    url = (site / "index.html").resolve().as_uri() + "?q=" + quote(query)
    dom = _chromium(browser, "--virtual-time-budget=15000", "--dump-dom", url)
    root = site.resolve().as_uri() + "/"
    links = re.findall(r'<a href="([^"#]+)(?:#[^"]*)?" class="md-search-result__link"', dom)
    return list(dict.fromkeys(html.unescape(link).removeprefix(root) for link in links))


def search_failures(browser: str, site: Path, queries: dict[str, str]) -> list[str]:
    """For each (query, page) of ``queries``, a line when the search's first hit is not ``page``."""
    failures = []
    for query, page in queries.items():
        hits = search_hits(browser, site, query)
        if not hits or hits[0] != page:
            failures.append(f"search {query!r}: first hits {hits[:3]}, expected {page}")
    return failures


def game_queries() -> dict[str, str]:
    """Each game's registry name and title (its docstring's first line) with its page, which must come first, and
    a newcomer's first word with the getting-started page."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from envs.registry import GAMES

    queries = {}
    for game, entry in GAMES.items():
        queries[game] = f"games/{game}.html"
        title = importlib.import_module(entry.module).__doc__.strip().splitlines()[0].strip()
        if title.lower() != game:
            queries[title] = f"games/{game}.html"
    queries["install"] = "getting-started.html"
    return queries


def screenshots(browser: str, site: Path, out: Path) -> list[Path]:
    """PNG screenshots of :data:`SCREEN_PAGES` at each of :data:`SCREEN_WIDTHS` in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    made = []
    for page in SCREEN_PAGES:
        for width in SCREEN_WIDTHS:
            target = out / f"{page.removesuffix('.html').replace('/', '-')}-{width}.png"
            height = 2600 if width < 800 else 1800
            url = (site / page).resolve().as_uri()
            _chromium(browser, f"--window-size={width},{height}", f"--screenshot={target}", url)
            made.append(target)
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="the built site (mkdocs build's site_dir)")
    parser.add_argument("--screens", type=Path, help="write screenshots here")
    args = parser.parse_args(argv)
    failures = [f"{page} loads {', '.join(urls)}" for page, urls in external_loads(args.site).items()]
    browser = chromium()
    if browser is None:
        print("site_check: chromium is not installed: search from disk not checked (apt-get install chromium)")
    else:
        failures += search_failures(browser, args.site, game_queries())
        if args.screens:
            for path in screenshots(browser, args.site, args.screens):
                print(f"site_check: {path}")
    for line in failures:
        print(f"site_check: {line}", file=sys.stderr)
    if not failures:
        print(
            f"site_check: {args.site} loads nothing from the network"
            + (", search from disk finds each game's page" if browser else "")
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
