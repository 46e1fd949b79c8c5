// Types of ./relaunch.mjs (plain JavaScript: it runs before the TypeScript loader).
export declare const MALLOC_TUNING_ENV: string;
export declare const MALLOC_TUNING: Readonly<Record<'MALLOC_ARENA_MAX' | 'MALLOC_MMAP_THRESHOLD_' | 'MALLOC_TRIM_THRESHOLD_', string>>;
export declare const SERVER_COMMANDS: readonly string[];
export declare const LAUNCHER_FD_ENV: string;
export declare const FORWARDED_SIGNALS: readonly string[];
export declare function isGlibc(): boolean;
export declare function relaunchEnv(args: readonly string[], env: Record<string, string | undefined>, glibc: boolean): Record<string, string> | null;
export declare function relaunchIfNeeded(): boolean;
export declare function watchLauncher(): void;
