// Free TCP ports on loopback for test servers (DynamoDB Local, Postgres, MinIO, `loam dev`).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Random ports tried for a pair before giving up. */
const PAIR_ATTEMPTS = 200;
/** The lowest port a pair is drawn from (above the well-known and most registered services' ports). */
const PAIR_LOW = 10_000;

/** The kernel's ephemeral range, from which outgoing connections take their local ports. */
function ephemeralRange(): [number, number] {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(lo) && Number.isInteger(hi)) return [lo!, hi!];
  } catch {
    // Not Linux: the IANA range.
  }
  return [49_152, 65_535];
}

async function canListen(port: number): Promise<boolean> {
  const s = createServer();
  const ok = await new Promise<boolean>((r) => {
    s.once('error', () => r(false));
    s.listen(port, '127.0.0.1', () => r(true));
  });
  if (ok) await new Promise<void>((r) => s.close(() => r()));
  return ok;
}

/**
 * A port p such that p and p + 1 are free now (a server with a second listener beside its
 * port: `loam dev`'s /metrics), drawn below the ephemeral range: a port from listen(0) is an
 * ephemeral one, which any outgoing connection of a test running in parallel may take as its
 * local port between this check and the server's bind (CI saw `loam dev` fail so). `avoid`:
 * ports already handed out, which neither port of the pair may be.
 */
export async function freePortPair(avoid: readonly number[] = []): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const high = Math.max(PAIR_LOW + 2, ephemeralLow - 2);
  for (let i = 0; i < PAIR_ATTEMPTS; i++) {
    const p = PAIR_LOW + Math.floor(Math.random() * (high - PAIR_LOW));
    if (avoid.includes(p) || avoid.includes(p + 1)) continue;
    if ((await canListen(p)) && (await canListen(p + 1))) return p;
  }
  throw new Error(`no two free consecutive ports in ${PAIR_LOW}..${high} after ${PAIR_ATTEMPTS} tries`);
}
