import { Counter } from 'prom-client';
import type { Metric, Registry as PromRegistry } from 'prom-client';
import type { RequestTable } from './request-table.ts';

interface TableMetricConfig {
  name: string;
  help: string;
  labelNames: readonly string[];
  register: PromRegistry;
}

/**
 * A histogram as prom-client's registry reads metrics: `name`, `help`, `type` and `get()`. The
 * registry only calls `get()` on what it holds (prom-client's own Histogram also has an internal
 * shortcut, which is why this is not a subclass of it).
 */
class TableHistogram {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #table: RequestTable;

  constructor(config: TableMetricConfig, table: RequestTable) {
    this.name = config.name;
    this.help = config.help;
    this.#table = table;
  }

  get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: { metricName: string; labels: Record<string, string | number>; value: number }[];
  }> {
    const bucket = `${this.name}_bucket`;
    const values = [];
    const bounds = this.#table.bounds;
    for (const cell of this.#table.cells()) {
      let cumulative = 0;
      for (let i = 0; i < bounds.length; i++) {
        cumulative += cell.buckets[i]!;
        values.push({
          metricName: bucket,
          labels: { ...cell.labels, le: bounds[i]! },
          value: cumulative,
        });
      }
      values.push({
        metricName: bucket,
        labels: { ...cell.labels, le: '+Inf' },
        value: cell.count,
      });
      values.push({ metricName: `${this.name}_sum`, labels: cell.labels, value: cell.sum });
      values.push({ metricName: `${this.name}_count`, labels: cell.labels, value: cell.count });
    }
    const { name, help, type, aggregator } = this;
    return Promise.resolve({ name, help, type, aggregator, values });
  }
}

/**
 * A histogram (`_bucket`, `_sum`, `_count`) of a {@link RequestTable}'s observations, registered in
 * `register` and read at scrape time.
 *
 * @example
 * tableHistogram({ name: 'pipit_request_duration_seconds', help: '...', labelNames: ['action'], register }, table);
 */
export function tableHistogram(config: TableMetricConfig, table: RequestTable): void {
  // prom-client's types list its own four classes only; the registry needs name and get().
  config.register.registerMetric(new TableHistogram(config, table) as unknown as Metric);
}

/**
 * A counter of a {@link RequestTable}'s observations per label set (what the histogram's `_count`
 * holds, under a name of its own), registered in `register` and filled in at scrape time.
 *
 * @example
 * tableCounter({ name: 'pipit_requests_total', help: '...', labelNames: ['action'], register }, table);
 */
export function tableCounter(config: TableMetricConfig, table: RequestTable): Counter<string> {
  return new Counter({
    name: config.name,
    help: config.help,
    labelNames: config.labelNames,
    registers: [config.register],
    collect(this: Counter<string>) {
      this.reset();
      for (const cell of table.cells()) this.inc(cell.labels, cell.count);
    },
  });
}
