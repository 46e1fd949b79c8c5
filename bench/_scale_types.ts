// The shape of a figure producer of `npm run bench -- scale` (bench/scale.ts runs them), apart
// from the entry file so that a producer's own file can name it without importing the entry.

export interface ScaleOptions {
  /** The namespace counts to measure, ascending. */
  sizes: readonly number[];
  /** Prints one figure line. */
  line: (metric: string, n: number, value: number, unit: string, extra?: Record<string, unknown>) => void;
}

/** One producer of figures; `run` prints its lines for every size. */
export interface ScaleFigure {
  name: string;
  run(o: ScaleOptions): Promise<void>;
}
