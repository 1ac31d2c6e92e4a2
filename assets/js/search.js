// Starts Pagefind's search UI on the search page (no inline script: the CSP is script-src 'self'
// plus 'wasm-unsafe-eval' for Pagefind's WebAssembly) and runs the query of a ?q= link.
(function () {
  "use strict";
  const mount = document.getElementById("search");
  if (!mount) return;
  if (typeof window.PagefindUI !== "function") {
    // `hugo server` has no index: Pagefind runs after Hugo in `make build`.
    mount.textContent = "The search index is not built here: run make build and serve site/.";
    return;
  }
  const bundle = mount.dataset.bundle;
  const start = () => {
    const ui = new window.PagefindUI({
      element: mount,
      bundlePath: bundle,
      baseUrl: mount.dataset.base, // result links under a project page's path
      showSubResults: true,
      showImages: false,
      resetStyles: false,
    });
    const q = new URLSearchParams(window.location.search).get("q");
    if (q) ui.triggerSearch(q);
  };
  // The UI lists the filter groups of its first search's result, which has only the groups
  // whose chunks had loaded by then: load every filter chunk into the (shared) Pagefind module
  // before the UI exists, so no search can run early. On a load error the UI reports it.
  import(bundle + "pagefind.js")
    .then((pagefind) => pagefind.filters())
    .catch(() => undefined)
    .then(start);
})();
