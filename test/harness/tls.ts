// A throwaway certificate authority for the mTLS tests (spec §8: per-cluster client
// certificates), made with the openssl command (Node's crypto parses X.509 but cannot sign
// it). EC P-256 keys: each certificate takes a few milliseconds. Everything lives in a temp
// directory removed by cleanup().
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Certificates are valid this long (a test never outlives it). */
const VALID_DAYS = '2';
const OPENSSL_TIMEOUT_MS = 30_000;

export interface Issued {
  certFile: string;
  keyFile: string;
  cert: Buffer;
  key: Buffer;
}

export interface TestCa extends Issued {
  dir: string;
  /** A certificate signed by this CA: subject CN `cn`; a server certificate also names 127.0.0.1 and localhost. */
  issue(cn: string, kind: 'server' | 'client'): Issued;
  cleanup(): void;
}

function openssl(args: string[]): void {
  try {
    execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: OPENSSL_TIMEOUT_MS });
  } catch (e) {
    throw new Error(`openssl ${args[0]} failed (is openssl installed? test/setup/install.sh installs it): ${String((e as { stderr?: Buffer }).stderr ?? (e as Error).message)}`);
  }
}

export function makeTestCa(name = 'loam test CA'): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'loam-ca-'));
  const keyFile = join(dir, 'ca.key');
  const certFile = join(dir, 'ca.crt');
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', keyFile]);
  openssl(['req', '-x509', '-new', '-key', keyFile, '-sha256', '-days', VALID_DAYS, '-subj', `/CN=${name}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-out', certFile]);
  let serial = 0;
  const ca: TestCa = {
    dir,
    keyFile,
    certFile,
    key: readFileSync(keyFile),
    cert: readFileSync(certFile),
    issue(cn, kind) {
      serial++;
      const base = join(dir, `${kind}-${serial}`);
      const k = `${base}.key`;
      const csr = `${base}.csr`;
      const crt = `${base}.crt`;
      const ext = `${base}.ext`;
      writeFileSync(
        ext,
        kind === 'server'
          ? 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n'
          : 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n',
      );
      openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', k]);
      openssl(['req', '-new', '-key', k, '-subj', `/CN=${cn}`, '-out', csr]);
      openssl(['x509', '-req', '-in', csr, '-CA', certFile, '-CAkey', keyFile, '-set_serial', String(serial + 1000), '-days', VALID_DAYS, '-sha256', '-extfile', ext, '-out', crt]);
      return { certFile: crt, keyFile: k, cert: readFileSync(crt), key: readFileSync(k) };
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return ca;
}
