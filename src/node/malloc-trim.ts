// Handing glibc's free memory back to the system (issue 14 item 9). After a burst, glibc keeps
// the memory of freed buffers inside its heap and arenas wherever a live allocation sits above
// it: measured after 200 clients for 20 s, ~150–250 MiB free in holes against ~40 MiB in use.
// Only malloc_trim(3) returns such holes (it releases every free page of every arena, whichever
// thread calls it), and Node has no binding for it: the node calls it through koffi, an FFI
// library whose npm package carries its native part prebuilt for each platform, with its C
// signature `int malloc_trim(size_t pad)`. A pad of 0 also trims the top of the main heap as
// far as it goes.
//
// Only on Linux with glibc (musl has no malloc_trim), unless opted out (./glibc.mjs). koffi is
// loaded on first use, not at import: where it cannot load, the node runs without the trim.
import { createRequire } from 'node:module';
import { isGlibc, mallocTuningOff } from './glibc.mjs';

export { MALLOC_TUNING_ENV } from './glibc.mjs';

/** glibc's soname on every architecture it supports. */
const C_LIBRARY = 'libc.so.6';

let trim: ((pad: number) => number) | null | undefined;

/** glibc's malloc_trim, or null where it is not to be used or cannot be had. */
function mallocTrimFunction(): ((pad: number) => number) | null {
  if (trim !== undefined) return trim;
  trim = null;
  if (process.platform !== 'linux' || mallocTuningOff(process.env) || !isGlibc()) return trim;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const f = koffi.load(C_LIBRARY).func('int malloc_trim(size_t pad)');
    trim = (pad) => f(pad) as number;
  } catch {
    // No prebuilt koffi for this platform, or no malloc_trim in this C library: no trim.
  }
  return trim;
}

/** Whether mallocTrim can do anything in this process. */
export function mallocTrimAvailable(): boolean {
  return mallocTrimFunction() !== null;
}

/**
 * Asks glibc to return its free pages to the system. True when some memory was released (the
 * function's own answer); false when there was none, or where the trim is not available.
 */
export function mallocTrim(): boolean {
  const f = mallocTrimFunction();
  return f !== null && f(0) === 1;
}
