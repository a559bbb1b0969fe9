// The dashboard's sign-in, its files and the control interface used with its session cookie, against a real sandbox
// over HTTP: every way a page of another site (or a rebound DNS name) could reach in is refused, as the control
// interface refuses it with the token; the cookie's flags and the pages' CSP are what they must be.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startPaymentsSandbox, type PaymentsSandbox } from '../src/index.js';
import { contentSecurityPolicy } from '../src/http/dashboard-files.js';
import { sessionCookie } from '../src/http/ui-session.js';

let sandbox: PaymentsSandbox;
let dir: string;
let cookie = '';
let setCookie = '';

/** A request as a browser sends it, with every header given (undici sends `Host` as given: a rebound name's). */
async function send(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const response = await request(`${sandbox.origin}${path}`, { method: (options.method ?? 'GET') as 'GET', headers: options.headers ?? {}, body: options.body });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text };
}

const own = () => ({ origin: sandbox.origin, 'sec-fetch-site': 'same-origin' });
const signIn = (token: string, headers: Record<string, string> = {}) =>
  send('/__sandbox/ui/session', { method: 'POST', headers: { ...own(), 'content-type': 'application/json', ...headers }, body: JSON.stringify({ token }) });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-dashboard-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>dashboard</title><script type="module" src="./assets/app.js"></script>');
  await writeFile(join(dir, 'assets', 'app.js'), 'export const app = 1;\n');
  await writeFile(join(dir, 'assets', 'app.css'), 'body { margin: 0 }\n');
  sandbox = await startPaymentsSandbox({ dashboardDir: dir });
  const signedIn = await signIn(sandbox.controlToken);
  expect(signedIn.status).toBe(204);
  setCookie = String(signedIn.headers['set-cookie']);
  cookie = setCookie.split(';')[0]!;
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('dashboard sign-in', () => {
  it('prints a link whose token is in the fragment (never sent), to the sign-in page', () => {
    const link = new URL(sandbox.dashboardUrl);
    expect(link.pathname).toBe('/__sandbox/ui/');
    expect(new URLSearchParams(link.hash.slice(1)).get('token')).toBe(sandbox.controlToken);
  });

  it('serves a sign-in page without inline script, and its script, to a browser without a session', async () => {
    const page = await send('/__sandbox/ui/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('src="/__sandbox/ui/sign-in.js"');
    expect(page.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    const script = await send('/__sandbox/ui/sign-in.js');
    expect([script.status, script.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
    // It takes the token out of the address bar and the history entry, and loads the dashboard without it.
    expect(script.text).toContain("history.replaceState(null, '', location.pathname)");
    expect(script.text).toContain("location.replace('/__sandbox/ui/')");
  });

  it('sets a session cookie that is HttpOnly, SameSite=Strict, for /__sandbox, and not the token', () => {
    const attributes = setCookie.split(';').map((part) => part.trim());
    expect(attributes[0]).toMatch(new RegExp(`^${sessionCookie}=[A-Za-z0-9_-]{43}$`));
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/__sandbox']));
    expect(setCookie).not.toContain(sandbox.controlToken);
  });

  it.each([
    { what: 'a wrong token', token: 'ctl_sandbox_not-this-one-0000000000', headers: {}, status: 401 },
    { what: 'no token', token: '', headers: {}, status: 401 },
    { what: 'another origin', token: 'right', headers: { origin: 'http://evil.example' }, status: 403 },
    { what: 'no origin', token: 'right', headers: { origin: '' }, status: 403 },
    { what: 'a text/plain body', token: 'right', headers: { 'content-type': 'text/plain' }, status: 415 },
    { what: 'a form body', token: 'right', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415 },
    { what: 'a rebound DNS name (Host)', token: 'right', headers: { host: 'evil.example:80' }, status: 403 },
    { what: 'another site (Sec-Fetch-Site)', token: 'right', headers: { 'sec-fetch-site': 'cross-site' }, status: 403 },
  ])('refuses a sign-in with $what: $status, no cookie', async ({ token, headers, status }) => {
    const given = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== ''));
    const sent = await send('/__sandbox/ui/session', {
      method: 'POST',
      headers: { ...Object.fromEntries(Object.entries(own()).filter(([k]) => !(k in headers))), 'content-type': 'application/json', ...given },
      body: JSON.stringify({ token: token === 'right' ? sandbox.controlToken : token }),
    });
    expect(sent.status).toBe(status);
    expect(sent.headers['set-cookie']).toBeUndefined();
    expect(sent.text).not.toContain(sandbox.controlToken);
  });

  it('a signed-out session is refused everywhere', async () => {
    const other = await signIn(sandbox.controlToken);
    const otherCookie = String(other.headers['set-cookie']).split(';')[0]!;
    expect((await send('/__sandbox/clock', { headers: { cookie: otherCookie, ...own() } })).status).toBe(200);
    const out = await send('/__sandbox/ui/session', { method: 'DELETE', headers: { cookie: otherCookie, ...own() } });
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await send('/__sandbox/clock', { headers: { cookie: otherCookie, ...own() } })).status).toBe(401);
    expect((await send('/__sandbox/ui/assets/app.js', { headers: { cookie: otherCookie } })).status).toBe(401);
  });
});

describe('dashboard files', () => {
  it.each([
    { path: '/__sandbox/ui/', type: 'text/html; charset=utf-8', cache: 'no-store' },
    { path: '/__sandbox/ui/index.html', type: 'text/html; charset=utf-8', cache: 'no-store' },
    { path: '/__sandbox/ui/assets/app.js', type: 'text/javascript; charset=utf-8', cache: 'no-cache' },
    { path: '/__sandbox/ui/assets/app.css', type: 'text/css; charset=utf-8', cache: 'no-cache' },
  ])('$path: its content type, no sniffing, the strict CSP, cache $cache', async ({ path, type, cache }) => {
    const served = await send(path, { headers: { cookie } });
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe(type);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe(contentSecurityPolicy);
    expect(served.headers['cache-control']).toBe(cache);
    expect(contentSecurityPolicy).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it('gives the sign-in page, not the dashboard, without a session; files need one', async () => {
    const page = await send('/__sandbox/ui/');
    expect(page.text).not.toContain('<title>dashboard</title>');
    expect((await send('/__sandbox/ui/assets/app.js')).status).toBe(401);
  });

  it.each([
    '/__sandbox/ui/../../package.json',
    '/__sandbox/ui/assets/../../../package.json',
    '/__sandbox/ui/assets/%2e%2e/%2e%2e/package.json',
    '/__sandbox/ui/assets/..%2f..%2fpackage.json',
    '/__sandbox/ui/assets/none.js',
    '/__sandbox/ui/other',
  ])(
    '%s: 404, nothing outside the build',
    async (path) => {
      const served = await send(path, { headers: { cookie } });
      expect(served.status).toBe(404);
    },
  );

  it('answers 503 with a page that says so when the dashboard is not built', async () => {
    const bare = await startPaymentsSandbox({ dashboardDir: join(dir, 'not-built') });
    try {
      const response = await request(`${bare.origin}/__sandbox/ui/session`, {
        method: 'POST',
        headers: { origin: bare.origin, 'content-type': 'application/json' },
        body: JSON.stringify({ token: bare.controlToken }),
      });
      await response.body.text();
      const session = String(response.headers['set-cookie']).split(';')[0]!;
      const page = await request(`${bare.origin}/__sandbox/ui/`, { headers: { cookie: session } });
      expect(page.statusCode).toBe(503);
      expect(page.headers['content-security-policy']).toBe(contentSecurityPolicy);
      expect(await page.body.text()).toContain('not built');
    } finally {
      await bare.close();
    }
  });
});

describe('the control interface with the dashboard session', () => {
  it('takes the cookie in place of the token, for a read and a change from its own origin', async () => {
    expect((await send('/__sandbox/clock', { headers: { cookie, 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    const advanced = await send('/__sandbox/clock/advance', { method: 'POST', headers: { cookie, ...own(), 'content-type': 'application/json' }, body: '{"ms":1}' });
    expect(advanced.status).toBe(200);
  });

  const change = { method: 'POST', path: '/__sandbox/clock/advance', body: '{"ms":1}' };
  it.each([
    { what: 'no cookie and no token', headers: { cookie: '', origin: 'own', 'content-type': 'application/json' }, status: 401 },
    { what: 'a session that is not one', headers: { cookie: `${sessionCookie}=made-up`, origin: 'own', 'content-type': 'application/json' }, status: 401 },
    { what: 'another origin', headers: { origin: 'http://evil.example', 'content-type': 'application/json' }, status: 403 },
    { what: 'no Origin on a change', headers: { origin: '', 'content-type': 'application/json' }, status: 403 },
    { what: 'another site', headers: { origin: 'own', 'sec-fetch-site': 'same-site', 'content-type': 'application/json' }, status: 403 },
    { what: 'a form POST', headers: { origin: 'own', 'content-type': 'application/x-www-form-urlencoded' }, status: 415 },
    { what: 'a text/plain POST', headers: { origin: 'own', 'content-type': 'text/plain' }, status: 415 },
    { what: 'a rebound DNS name (Host)', headers: { origin: 'own', host: 'rebound.example:8080', 'content-type': 'application/json' }, status: 403 },
  ])('refuses a change with $what: $status, and the clock does not move', async ({ headers, status }) => {
    const before = await sandbox.control.getClock();
    const given: Record<string, string> = { cookie };
    for (const [name, value] of Object.entries(headers)) {
      if (value === '') delete given[name];
      else given[name] = value === 'own' ? sandbox.origin : value;
    }
    const refused = await send(change.path, { method: change.method, headers: given, body: change.body });
    expect(refused.status).toBe(status);
    expect(JSON.parse(refused.text)).toEqual({ error: expect.any(String) });
    expect((await sandbox.control.getClock()).offsetMs).toBe(before.offsetMs);
    // The same change with the session's own headers moves it: the refusal was the headers'.
    const allowed = await send(change.path, { method: change.method, headers: { cookie, ...own(), 'content-type': 'application/json' }, body: change.body });
    expect(allowed.status).toBe(200);
    expect((await sandbox.control.getClock()).offsetMs).toBe(before.offsetMs + 1);
  });

  it.each<{ what: string; headers: Record<string, string>; status: number }>([
    { what: 'a rebound DNS name (Host)', headers: { host: 'rebound.example:8080' }, status: 403 },
    { what: 'another site', headers: { 'sec-fetch-site': 'cross-site' }, status: 403 },
    { what: 'another origin', headers: { origin: 'http://evil.example' }, status: 403 },
  ])('refuses a read and the event stream with $what: $status', async ({ headers, status }) => {
    for (const path of ['/__sandbox/transactions', '/__sandbox/events', '/__sandbox/ui/', '/__sandbox/ui/assets/app.js']) {
      const refused = await send(path, { headers: { cookie, ...headers } });
      expect([path, refused.status]).toEqual([path, status]);
    }
  });

  it('keeps the token-holding clients working as before, with any Host (a container name)', async () => {
    const read = await send('/__sandbox/clock', { headers: { authorization: `Bearer ${sandbox.controlToken}`, host: 'sandbox:4012' } });
    expect(read.status).toBe(200);
  });
});
