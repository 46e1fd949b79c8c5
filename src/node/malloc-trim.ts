// Handing glibc's free memory back to the system (issue 14 item 9). After a burst, glibc keeps
// the memory of freed buffers inside its heap and arenas wherever a live allocation sits above
// it: measured after 200 clients for 20 s, ~150–250 MiB free in holes against ~40 MiB in use.
// Only malloc_trim(3) returns such holes (it madvises every free page of every arena), and
// Node has no binding for it.
//
// SQLite's extension loader, which better-sqlite3 exposes, opens a shared library and calls a
// named function in it with (db, &errmsg, api). Named `malloc_trim` in the C library, that
// call is malloc_trim(pad) with the db pointer as `pad`: on x86-64 and arm64 the first
// argument is a register the function reads and the other two are never looked at. A pad only
// limits trimming the top of the main heap (which MALLOC_TRIM_THRESHOLD_ looks after, see
// src/cli/relaunch.mjs); the freeing of unused pages in every arena does not depend on it.
// SQLite then reports "error during initialization" when something was released (a non-zero
// return) and closes the library again; that error is the expected outcome.
//
// Used only where all of this holds: Linux, glibc, x64 or arm64, not opted out.
import Database from 'better-sqlite3';

/** `LOAM_MALLOC_TUNING=off` turns this off too (the same switch as src/cli/relaunch.mjs). */
export const MALLOC_TUNING_ENV = 'LOAM_MALLOC_TUNING';
const C_LIBRARY = 'libc.so.6';

let usable: boolean | undefined;

function mallocTrimUsable(): boolean {
  if (usable !== undefined) return usable;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  usable =
    process.platform === 'linux' &&
    (process.arch === 'x64' || process.arch === 'arm64') &&
    typeof header?.glibcVersionRuntime === 'string' &&
    (process.env[MALLOC_TUNING_ENV] ?? '').toLowerCase() !== 'off';
  return usable;
}

/** Returns glibc's free pages to the system; false where that cannot be done here. */
export function mallocTrim(): boolean {
  if (!mallocTrimUsable()) return false;
  let db: Database.Database | undefined;
  try {
    db = new Database(':memory:');
    // better-sqlite3 12 takes the entry point as a second argument (its published types predate it).
    (db.loadExtension as unknown as (path: string, entryPoint: string) => unknown).call(db, C_LIBRARY, 'malloc_trim');
  } catch (e) {
    // The expected report of a trim that released memory; anything else means it is not available.
    if (!/error during initialization/.test((e as Error).message)) {
      usable = false;
      return false;
    }
  } finally {
    db?.close();
  }
  return true;
}
