import { execFile } from 'node:child_process';
import type { TestCertificates } from '../../src/index.js';

export interface CurlResponse {
  status: number;
  body: string;
  /** Connections curl opened: one means it tried once. */
  connects: number;
}

export type CurlIdentity = 'client' | 'foreign' | 'none';

function identityArgs(certificates: TestCertificates, identity: CurlIdentity): string[] {
  if (identity === 'none') return [];
  if (identity === 'foreign') return ['--cert-type', 'P12', '--cert', `${certificates.foreignClientPfxPath}:${certificates.foreignClientPfxPassword}`];
  return ['--cert', certificates.clientCertPath, '--key', certificates.clientKeyPath];
}

/**
 * One request made by the curl program (an HTTP client independent of Node's), trusting the mock's CA and presenting
 * the mock's PEM client certificate (or, with `identity`, the foreign one or none). `args` are further curl options
 * (method, headers, `--data-binary`).
 */
export function curl(certificates: TestCertificates, url: string, args: string[] = [], stdin?: string, identity: CurlIdentity = 'client'): Promise<CurlResponse> {
  const tls = ['--cacert', certificates.caCertPath, ...identityArgs(certificates, identity)];
  return new Promise((resolve, reject) => {
    const child = execFile(
      'curl',
      ['--silent', '--show-error', '--max-time', '20', ...tls, ...args, '--write-out', '\n%{http_code} %{num_connects}', url],
      { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`curl failed: ${stderr || error.message}`));
        const cut = stdout.lastIndexOf('\n');
        const [status, connects] = stdout.slice(cut + 1).split(' ').map(Number);
        resolve({ status: status!, connects: connects!, body: stdout.slice(0, cut) });
      },
    );
    child.stdin?.end(stdin);
  });
}
