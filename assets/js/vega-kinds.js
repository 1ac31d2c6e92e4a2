// The Vega bundle, fetched by vega-loader.js when a chart needs it: the chart kinds drawn with
// Vega (kinds.js is the build's full registry), and a headless Vega view of a Vega-Lite spec
// (the PNG and SVG export of a time series and of a ratio heat-table).
import { compile } from 'vega-lite';
import { parse, View } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { XYChart } from './xy.js';
import { MetricsChart } from './metrics.js';
import { QueriesChart } from './queries.js';
import { VersionsChart } from './versions.js';

/** A Vega view of the Vega-Lite `spec`, run, with no renderer (for toSVG, toImageURL). */
async function headlessView(spec) {
  const view = new View(parse(compile(spec).spec, null, { ast: true }), { expr: expressionInterpreter, renderer: 'none' });
  await view.runAsync();
  return view;
}

window.benchlogVega = {
  kinds: { bars: XYChart, line: XYChart, metrics: MetricsChart, queries: QueriesChart, versions: VersionsChart },
  headlessView,
};
