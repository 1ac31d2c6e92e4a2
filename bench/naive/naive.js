// The render benchmark's naive baseline (bench/render_bench.py): the same charts from the same
// data, drawn the way a first version would: default vega-embed (eval, default renderer and
// actions), every per-second point of every shown run, the Vega-Lite gallery's overview +
// detail brush and multi-series hover rule (pivot + nearest point selection).
import embed from 'vega-embed';
import { xySpec } from './xyspec.js';

async function timeseries(figure, spec) {
  // the same runs as the built page: its URL-hash `<id>.runs=` list, else the post's defaults
  const m = new RegExp(`${figure.id}\\.runs=([^&]+)`).exec(window.location.hash);
  const shown = m ? decodeURIComponent(m[1]).split(',') : spec.show;
  const runs = new Map(spec.runs.map((r) => [r.id, r]));
  const values = [];
  await Promise.all(shown.map(async (id) => {
    // one file per run, in the folder the spec names once (as timeseries.js reads it)
    const data = await (await fetch(`${spec.series}${id}.json`)).json();
    // a run's file holds every column of its series (docs/data-schema.md): the post's metric
    data.t.forEach((t, i) => values.push({ run: runs.get(id).name, t, v: data[spec.metric][i] }));
  }));
  const x = { field: 't', type: 'quantitative', scale: { domain: { param: 'brush' } } };
  return embed(figure.querySelector('.chart-view'), {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    vconcat: [{
      width: 700, height: 280,
      layer: [
        { mark: 'line', encoding: { x, y: { field: 'v', type: 'quantitative' }, color: { field: 'run', type: 'nominal' } } },
        {
          transform: [{ pivot: 'run', value: 'v', groupby: ['t'] }],
          mark: 'rule',
          encoding: {
            x, opacity: { condition: { value: 0.3, param: 'hover', empty: false }, value: 0 },
            tooltip: [{ field: 't', type: 'quantitative' }, ...shown.map((id) => ({ field: runs.get(id).name, type: 'quantitative' }))],
          },
          params: [{ name: 'hover', select: { type: 'point', fields: ['t'], nearest: true, on: 'pointerover', clear: 'pointerout' } }],
        },
      ],
    }, {
      width: 700, height: 50,
      mark: 'line',
      encoding: { x: { field: 't', type: 'quantitative' }, y: { field: 'v', type: 'quantitative' }, color: { field: 'run', type: 'nominal' } },
      params: [{ name: 'brush', select: { type: 'interval', encodings: ['x'] } }],
    }],
  });
}

async function draw(figure) {
  const spec = JSON.parse(document.getElementById(`${figure.id}-spec`).textContent);
  if (figure.dataset.kind === 'timeseries') await timeseries(figure, spec);
  else if (['bars', 'line'].includes(figure.dataset.kind)) {
    // the page holds the spec's inputs; the spec is the one the built page draws (xyspec.js)
    await embed(figure.querySelector('.chart-view'), xySpec(spec));
  } else if (figure.dataset.kind !== 'ratio') await embed(figure.querySelector('.chart-view'), spec);
  figure.dataset.state = 'rendered';
  figure.dataset.renderedAt = Math.round(performance.now()); // as the built page, for the benchmark
}

Promise.all(Array.from(document.querySelectorAll('figure.chart')).map(draw)).then(() => {
  window.benchlogRenderedAt = performance.now();
  document.documentElement.dataset.charts = 'rendered';
});
