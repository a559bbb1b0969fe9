import { execFile } from 'node:child_process';
import type { TestCertificates } from '../../src/index.js';

export interface CurlResponse {
  status: number;
  body: string;
}

/**
 * One request made by the curl program (an HTTP client independent of Node's), presenting the mock's PEM client
 * certificate and trusting its CA. `args` are further curl options (method, headers, `--data-binary`).
 */
export function curl(certificates: TestCertificates, url: string, args: string[] = [], stdin?: string): Promise<CurlResponse> {
  const tls = ['--cacert', certificates.caCertPath, '--cert', certificates.clientCertPath, '--key', certificates.clientKeyPath];
  return new Promise((resolve, reject) => {
    const child = execFile(
      'curl',
      ['--silent', '--show-error', '--max-time', '20', ...tls, ...args, '--write-out', '\n%{http_code}', url],
      { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`curl failed: ${stderr || error.message}`));
        const cut = stdout.lastIndexOf('\n');
        resolve({ status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) });
      },
    );
    child.stdin?.end(stdin);
  });
}
