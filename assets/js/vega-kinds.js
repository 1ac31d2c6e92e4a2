// The Vega bundle, fetched by vega-loader.js when a chart needs it: the chart kinds drawn with
// Vega (kinds.js is the build's full registry), a headless Vega view of a Vega-Lite spec
// (the PNG and SVG export of a time series, a metrics chart and a ratio heat-table), and the Vega view a
// bars or line chart draws over its build-time SVG.
import { compile } from 'vega-lite';
import { parse, View } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { drawOver } from './render.js';
import { QueriesChart } from './queries.js';
import { VersionsChart } from './versions.js';

/** A Vega view of the Vega-Lite `spec`, run, with no renderer (for toSVG, toImageURL). */
async function headlessView(spec) {
  const view = new View(parse(compile(spec).spec, null, { ast: true }), { expr: expressionInterpreter, renderer: 'none' });
  await view.runAsync();
  return view;
}

window.benchlogVega = {
  kinds: { queries: QueriesChart, versions: VersionsChart },
  headlessView,
  drawOver, // the Vega view of a bars or line chart (xy.js, in the main chart bundle)
};
