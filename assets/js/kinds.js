// The chart kinds: the registry of the JS module of each kind. A kind is a Hugo partial
// (layouts/_partials/chart-kinds/<kind>.html, found by the chart shortcode) plus its module here.
// A module's class has:
//   static initialView(spec, hostWidth, read, {load, plotWidth}) -> {spec: Vega-Lite, width?,
//     inline?} or null: the build draws it as SVG (publish/chart_svgs.js) into the figure
//     (inline: false = file only); `read(name)` gives a CSS custom property, `load(url)` a
//     published JSON file, `plotWidth` narrows the plot when the first drawing overflowed;
//   static expectedHeight(figure, spec) -> px or null: room kept while nothing is drawn;
//   constructor(figure, spec): adds its controls (export.js addExportTools), no drawing;
//   async draw(): draws (first: takes over from the build's SVG), and redraws on a new
//     colour scheme or width.
import { XYChart } from './xy.js';
import { RatioChart } from './ratio.js';
import { TimeSeriesChart } from './timeseries.js';
import { MetricsChart } from './metrics.js';
import { QueriesChart } from './queries.js';
import { PlansChart } from './plans.js';
import { VersionsChart } from './versions.js';

export const KINDS = {
  bars: XYChart, line: XYChart, ratio: RatioChart, timeseries: TimeSeriesChart, metrics: MetricsChart,
  queries: QueriesChart, plans: PlansChart, versions: VersionsChart,
};
