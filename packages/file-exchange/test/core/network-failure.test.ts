import { describe, expect, it } from 'vitest';
import { classifyNetworkFailure, type NetworkFailureKind } from '../../src/core/index.js';

const coded = (message: string, code: string, extra: object = {}) => Object.assign(new Error(message), { code, ...extra });

describe('classifyNetworkFailure', () => {
  it.each<{ title: string; thrown: unknown; kind: NetworkFailureKind; code?: string; closedWithoutAnswer?: boolean }>([
    { title: 'connection refused', thrown: coded('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'), kind: 'network', code: 'ECONNREFUSED' },
    { title: 'socket closed by the server (undici)', thrown: coded('other side closed', 'UND_ERR_SOCKET'), kind: 'network', closedWithoutAnswer: true },
    {
      title: 'a fetch wrapper around a reset',
      thrown: new TypeError('fetch failed', { cause: coded('read ECONNRESET', 'ECONNRESET') }),
      kind: 'network',
      code: 'ECONNRESET',
      closedWithoutAnswer: true,
    },
    { title: 'a timeout', thrown: coded('no progress for 10 ms', 'ETIMEDOUT'), kind: 'network', closedWithoutAnswer: false },
    { title: 'an error without a code', thrown: new Error('boom'), kind: 'network' },
    { title: 'a self-signed server', thrown: coded('self-signed certificate in certificate chain', 'SELF_SIGNED_CERT_IN_CHAIN'), kind: 'server-certificate-untrusted' },
    { title: 'an expired server certificate', thrown: coded('certificate has expired', 'CERT_HAS_EXPIRED'), kind: 'server-certificate-untrusted' },
    { title: 'a wrong host name', thrown: coded("Hostname/IP does not match certificate's altnames", 'ERR_TLS_CERT_ALTNAME_INVALID'), kind: 'server-certificate-untrusted' },
    {
      title: 'a certificate refused by the server, under a wrapper',
      thrown: new Error('request failed', { cause: coded('tlsv13 alert certificate required', 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED') }),
      kind: 'client-certificate-refused',
      code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
    },
    { title: 'an unknown CA alert', thrown: coded('sslv3 alert unknown ca', 'ERR_SSL_SSLV3_ALERT_UNKNOWN_CA'), kind: 'client-certificate-refused' },
    { title: 'TLS spoken to a plain server', thrown: coded('wrong version number', 'ERR_SSL_WRONG_VERSION_NUMBER'), kind: 'tls' },
    { title: "undici's proxy refusal", thrown: coded('Proxy response (407) !== 200 when HTTP Tunneling', 'UND_ERR_ABORTED'), kind: 'proxy-refused' },
    { title: 'our tunnel refused', thrown: coded('Proxy refused the tunnel: 403 Forbidden', 'ERR_PROXY_TUNNEL'), kind: 'proxy-refused' },
    { title: 'a full disk', thrown: coded('ENOSPC: no space left on device, write', 'ENOSPC', { path: '/data/x', syscall: 'write' }), kind: 'local-file', code: 'ENOSPC' },
    { title: 'a name too long', thrown: coded('ENAMETOOLONG: name too long', 'ENAMETOOLONG', { path: '/data/xxx', syscall: 'open' }), kind: 'local-file' },
    { title: 'a socket write after the peer left', thrown: coded('write EPIPE', 'EPIPE', { syscall: 'write' }), kind: 'network' },
  ])('$title -> $kind', ({ thrown, kind, code, closedWithoutAnswer }) => {
    const failure = classifyNetworkFailure(thrown);
    expect(failure.kind).toBe(kind);
    if (code !== undefined) expect(failure.code).toBe(code);
    if (closedWithoutAnswer !== undefined) expect(failure.closedWithoutAnswer).toBe(closedWithoutAnswer);
  });

  it('gives the proxy status', () => {
    expect(classifyNetworkFailure(coded('Proxy refused the tunnel: 407 Proxy Authentication Required', 'ERR_PROXY_TUNNEL')).proxyStatus).toBe(407);
  });
});
