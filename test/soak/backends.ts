// The backends the soaks run on (issue 22): a file of its own, so `npm run soak` validates its
// options before it loads anything heavy.
export const SOAK_BACKENDS = ['embedded', 'postgres', 'dynamodb'] as const;
export type SoakBackend = (typeof SOAK_BACKENDS)[number];
/** `npm run soak`'s defaults (test/soak/soak.ts uses them too). */
export const DEFAULT_NODES = 2;
export const DEFAULT_CLIENTS = 6;
