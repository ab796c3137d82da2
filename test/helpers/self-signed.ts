import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './service.ts';

/**
 * A self-signed certificate for 127.0.0.1 (an EC key), made with openssl in a directory of its own
 * that `cleanup` removes.
 *
 * @example
 * const tls = await selfSigned();
 * try { ... } finally { tls.cleanup(); }
 */
export async function selfSigned(): Promise<{
  key: Buffer;
  cert: Buffer;
  certPath: string;
  keyPath: string;
  cleanup: () => void;
}> {
  const dir = tempDir('pipit-tls-');
  const key = join(dir.dir, 'key.pem');
  const cert = join(dir.dir, 'cert.pem');
  try {
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      key,
      '-out',
      cert,
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]);
  } catch (err) {
    dir.cleanup();
    throw err;
  }
  return {
    key: readFileSync(key),
    cert: readFileSync(cert),
    certPath: cert,
    keyPath: key,
    cleanup: dir.cleanup,
  };
}
