// Shared by `npm run bench -- remote` and its server process (./_remote_server.ts).

/** Concurrent writers (issue 16): the calls of one round, in process, over the wire and on the floors. */
export const WRITERS = 8;
/** Partitions of the bench's collections: each commitWal carries one chunk per partition. */
export const FLOOR_PARTITIONS = 4;
