// The shape of one figure of `npm run bench -- router` (bench/router.ts lists them), apart from
// the entry file so that a figure's own file can name it without importing the entry.

export interface RouterOptions {
  seconds: number;
  synchronous: 'FULL' | 'NORMAL';
  large: boolean;
  /** A fresh folder for this figure's databases (removed after the run). */
  dir: string;
}

/** One figure of the router bench: prints its JSON lines. */
export interface RouterFigure {
  name: string;
  run(o: RouterOptions): Promise<void>;
}
