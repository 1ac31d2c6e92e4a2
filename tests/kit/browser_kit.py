"""Serving a built site on localhost and driving Debian's Chromium with Playwright.

Used by the browser tests and the bench/ scripts: one threaded static server, one browser
(the system's Chromium: `CHROMIUM=<path>` if set, else `chromium` on PATH, as Debian installs
it; never a browser Playwright downloads),
pages that record every console error, page error, failed request, HTTP error and CSP
violation (`watch`). Tests wait on conditions the page reaches (`WAIT` ms at most, generous
because CI machines can be heavily loaded), never for fixed times.
"""

import contextlib
import functools
import http.server
import os
import shutil
import threading

WAIT = 60_000  # ms: the longest a test waits for a page condition before failing

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'self'"
)


def page_csp(html: str) -> str:
    """The Content-Security-Policy of a built page's meta tag."""
    import re

    return re.search(r'http-equiv="?Content-Security-Policy"? content="([^"]+)"', html).group(1)


class _Handler(http.server.SimpleHTTPRequestHandler):
    csp = None

    def end_headers(self):
        if self.csp:
            self.send_header("Content-Security-Policy", self.csp)
        super().end_headers()

    def log_message(self, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    # A browser opens several connections at once (HTTP/1.0: one per file); with the default
    # backlog of 5, a loaded machine drops SYNs and Chromium retries only after 1 s, 3 s, ...
    request_queue_size = 128

    def handle_error(self, request, client_address):
        pass  # the browser may drop a connection it no longer needs

    def shutdown(self):
        super().shutdown()
        self.server_close()


def until(page, expression, arg=None, timeout_ms=WAIT):
    """Polls `expression` (a JavaScript expression, or a function of `arg`) in the page until it
    is truthy. Playwright's wait_for_function checks once through the DevTools protocol and then
    polls with `eval`, which the site's CSP forbids: it passed only when the condition already
    held. page.evaluate is not subject to the page's CSP."""
    waited = 0
    while not page.evaluate(expression, arg):
        if waited > timeout_ms:
            raise AssertionError(f"timed out after {timeout_ms} ms waiting for {expression}")
        page.wait_for_timeout(50)
        waited += 50


def frames(page, n=2):
    """Waits for the page's next `n` animation frames: what the page set off before (an
    IntersectionObserver's first callbacks, a hash change's handler, a style change) has then
    been run, laid out and painted. The event to wait on before asserting that something did
    not happen, in place of a fixed sleep."""
    page.evaluate(
        """n => new Promise((done) => {
        const next = (left) => (left ? requestAnimationFrame(() => next(left - 1)) : done());
        next(n);
      })""",
        n,
    )


def serve(directory, csp=None):
    """Starts a threaded server for `directory` on 127.0.0.1:0, sending `csp` as a header too
    when given; returns (server, base URL). server.shutdown() also closes its socket."""
    handler = functools.partial(type("H", (_Handler,), {"csp": csp}), directory=str(directory))
    server = _Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def chromium() -> str:
    """The Chromium to drive: $CHROMIUM, else `chromium` (or `chromium-browser`) on PATH."""
    found = (
        os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )
    if not found:
        raise RuntimeError(
            "no Chromium: install Debian's (make chromium) or set CHROMIUM=<path to the binary>"
        )
    return found


def launch(playwright):
    return playwright.chromium.launch(executable_path=chromium(), args=ARGS)


WATCH_CSP = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolations.push(e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sourceFile || ''));
});
"""


def watch(page, problems):
    """Appends to `problems` every console error (a CSP block logs one), page error, HTTP error
    response and failed request of `page`, and records CSP violation events (`csp_violations`).

    One kind of failed request is not a problem: a load the page's own navigation cancelled.
    When the reader follows a link or submits a form, Chromium aborts what the old document
    still loads (an image, the favicon, a search fragment) with net::ERR_ABORTED. Such a
    request was sent before or during a main-frame navigation that started after it; any
    other failure (an abort with no navigation, a refused connection, a CSP block) and every
    4xx/5xx response still counts."""
    started = committed = 0  # main-frame navigations: requested, and committed
    sent = {}  # request -> (started, committed) when it was sent

    def on_request(request):
        nonlocal started
        if request.is_navigation_request() and _frame(request) == page.main_frame:
            started += 1
        sent[request] = (started, committed)

    def on_navigated(frame):
        nonlocal committed
        if frame == page.main_frame:
            committed = started

    def on_failed(request):
        was_started, was_committed = sent.pop(request, (started, committed))
        left_behind = started > was_started or was_started > was_committed
        if not (request.failure == "net::ERR_ABORTED" and left_behind):
            problems.append(f"failed: {request.url} {request.failure}")

    page.add_init_script(WATCH_CSP)
    page.on("request", on_request)
    page.on("framenavigated", on_navigated)
    page.on("requestfinished", lambda r: sent.pop(r, None))
    page.on("requestfailed", on_failed)
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    page.on("response", lambda r: r.status >= 400 and problems.append(f"HTTP {r.status}: {r.url}"))
    page.set_default_timeout(WAIT)
    return page


def _frame(request):
    try:
        return request.frame
    except Exception:  # a navigation request of a frame not created yet (a popup's)
        return None


def open_page(browser, url, problems, **context_args):
    """Opens `url` in a new context, `watch`ed into `problems`; returns the page once loaded."""
    context = browser.new_context(**context_args)
    page = watch(context.new_page(), problems)
    page.goto(url)
    return page


@contextlib.contextmanager
def post_page(browser, www, study, **context_args):
    """Serves the web root `www` and opens `study`'s post in it (`open_page`); yields
    (page, problems) and shuts the server down when the block ends."""
    server, root = serve(www)
    problems: list[str] = []
    try:
        yield (
            open_page(browser, f"{root}/benchlog/posts/{study}/", problems, **context_args),
            problems,
        )
    finally:
        server.shutdown()


def wait_for_charts(page, timeout=WAIT):
    """Waits until every figure.chart is rendered (or failed); returns their states by id.
    Charts are drawn when they near the viewport, so each is scrolled into view in turn (as a
    reader scrolling through the post would), then the page is scrolled back to the top."""
    figures = page.query_selector_all("figure.chart")
    if figures:  # selectors, not a JS predicate: the page forbids eval
        for figure in figures:
            figure.scroll_into_view_if_needed()
            page.wait_for_selector(
                f"figure#{figure.get_attribute('id')}[data-state]",
                state="attached",
                timeout=timeout,
            )
        page.wait_for_selector("html[data-charts=rendered]", state="attached", timeout=timeout)
        page.evaluate("window.scrollTo(0, 0)")
    return page.evaluate(
        "Object.fromEntries(Array.from(document.querySelectorAll('figure.chart')).map(f => [f.id, f.dataset.state]))"
    )


def csp_violations(page):
    return page.evaluate("window.__cspViolations")
