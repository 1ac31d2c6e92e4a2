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
  const ui = new window.PagefindUI({
    element: mount,
    bundlePath: mount.dataset.bundle,
    baseUrl: mount.dataset.base, // result links under a project page's path
    showSubResults: true,
    showImages: false,
    resetStyles: false,
  });
  const q = new URLSearchParams(window.location.search).get("q");
  if (q) ui.triggerSearch(q);
})();
