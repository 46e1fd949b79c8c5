// Types of ./glibc.mjs (plain JavaScript: the launcher runs before the TypeScript loader).
export declare const MALLOC_TUNING_ENV: string;
export declare function mallocTuningOff(env: Record<string, string | undefined>): boolean;
export declare function isGlibc(): boolean;
