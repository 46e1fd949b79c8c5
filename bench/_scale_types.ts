// The shape of a figure producer of `npm run bench -- scale` (bench/scale.ts runs them), apart
// from the entry file so that a producer's own file can name it without importing the entry.

export interface ScaleOptions {
  /** The namespace counts to measure, ascending. */
  sizes: readonly number[];
  /** Prints one figure line. */
  line: (metric: string, n: number, value: number, unit: string, extra?: Record<string, unknown>) => void;
  /** The node figures' sizes of load and windows (bench/_scale_node.ts; absent: its defaults). */
  node?: Partial<ScaleNodeKnobs>;
}

/** What the node figures' windows and loads are: shortened for the CI lane (test/scale), full by default. */
export interface ScaleNodeKnobs {
  /** Seconds of the idle window. */
  idleSeconds: number;
  /** Namespaces the mixed load touches before node_rss_mb. */
  touched: number;
  /** Writes, then strong reads, timed on one namespace. */
  ops: number;
  /** A directory whose set-up catalogs are kept and used again (one per size, its namespace count checked). */
  reuse?: string;
}

/** One producer of figures; `run` prints its lines for every size. */
export interface ScaleFigure {
  name: string;
  run(o: ScaleOptions): Promise<void>;
}
