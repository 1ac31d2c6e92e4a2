"""Every chart kind of the registry (assets/js/kinds.js) is drawn by one of the two bundles: the
main one (charts.js `OWN`) or the Vega bundle (vega-loader.js `VEGA_KINDS`, vega-kinds.js `kinds`).
A kind added to kinds.js only would build its SVG and never come alive in the browser."""

from __future__ import annotations

import re

from tests.kit.golden import ROOT

JS = ROOT / "assets" / "js"


def _keys(text: str) -> set[str]:
    return set(re.findall(r"(\w+): \w+Chart", text))


def test_every_kind_is_in_one_bundle():
    registry = _keys(re.search(r"KINDS = \{(.*?)\};", (JS / "kinds.js").read_text(), re.S)[1])
    charts = (JS / "charts.js").read_text()
    own = _keys(re.search(r"const OWN = \{(.*?)\};", charts, re.S)[1])
    loader = (JS / "vega-loader.js").read_text()
    vega = set(re.findall(r"'(\w+)'", re.search(r"VEGA_KINDS = new Set\(\[(.*?)\]", loader)[1]))
    bundle = _keys(re.search(r"kinds: \{(.*?)\}", (JS / "vega-kinds.js").read_text(), re.S)[1])
    assert registry and own and vega
    assert own | vega == registry and not own & vega
    assert bundle == vega
