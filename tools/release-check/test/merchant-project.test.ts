// How a merchant project is configured: third-party packages from the registry npm uses here, with the authorities
// npm trusts, given to every package manager explicitly (npm --prefix loses npm's global configuration, turbo passes
// no NODE_EXTRA_CA_CERTS, Yarn 4 reads neither).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnvironment, run } from '../src/commands.js';
import { projectNpmrc, publicRegistry, yarnrc, type PublicRegistry } from '../src/merchant-project.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-merchant-project-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An npm whose only configuration is `npmrc` (no user or global file of the machine), with NODE_EXTRA_CA_CERTS as given. */
async function npmEnvironment(name: string, npmrc: string, extraCaCerts?: string): Promise<NodeJS.ProcessEnv> {
  const userconfig = join(dir, `${name}.npmrc`);
  const globalconfig = join(dir, `${name}.global.npmrc`);
  await writeFile(userconfig, npmrc);
  await writeFile(globalconfig, '');
  const env = cleanEnvironment({ npm_config_userconfig: userconfig, npm_config_globalconfig: globalconfig });
  delete env.NODE_EXTRA_CA_CERTS;
  return extraCaCerts === undefined ? env : { ...env, NODE_EXTRA_CA_CERTS: extraCaCerts };
}

describe('publicRegistry', () => {
  it.each([
    {
      name: 'npm-cafile',
      npmrc: 'registry=https://registry.example.invalid/\ncafile=/etc/npm-proxy-ca.pem\n',
      extra: '/etc/extra-ca.pem',
      expected: { url: 'https://registry.example.invalid/', caFile: '/etc/npm-proxy-ca.pem' },
    },
    {
      name: 'extra-ca-certs',
      npmrc: 'registry=https://registry.example.invalid/\n',
      extra: '/etc/extra-ca.pem',
      expected: { url: 'https://registry.example.invalid/', caFile: '/etc/extra-ca.pem' },
    },
    { name: 'neither', npmrc: 'registry=https://registry.example.invalid/\n', extra: undefined, expected: { url: 'https://registry.example.invalid/' } },
  ])('reads the registry and certificate file npm uses ($name)', async ({ name, npmrc, extra, expected }) => {
    expect(await publicRegistry(dir, await npmEnvironment(name, npmrc, extra))).toEqual(expected);
  });
});

describe('projectNpmrc', () => {
  const upstream: PublicRegistry = { url: 'https://registry.example.invalid/', caFile: '/etc/npm-proxy-ca.pem' };

  it('sends our scope to the local registry and the rest to npm\'s, trusting npm\'s authorities', () => {
    expect(projectNpmrc('http://127.0.0.1:4873/', upstream).split('\n')).toEqual([
      '@paykit:registry=http://127.0.0.1:4873/',
      'registry=https://registry.example.invalid/',
      'cafile=/etc/npm-proxy-ca.pem',
      '',
    ]);
  });

  it('gives npm the certificate file even when its global configuration is gone, as `npm --prefix` makes it', async () => {
    const project = join(dir, 'project');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, '.npmrc'), projectNpmrc('http://127.0.0.1:4873/', upstream));
    // The global configuration that held `cafile` is gone (npm looks for it under --prefix) and there is no
    // NODE_EXTRA_CA_CERTS: only the project's .npmrc can say it.
    const environment = await npmEnvironment('prefix-moved', '');
    const result = await run('npm', ['config', 'get', 'cafile', 'registry', '@paykit:registry'], { cwd: project, env: environment, timeoutMs: 4_000 });
    expect(result.stdout.trim().split('\n')).toEqual([
      'cafile=/etc/npm-proxy-ca.pem',
      'registry=https://registry.example.invalid/',
      '@paykit:registry=http://127.0.0.1:4873/',
    ]);
  });

  it('leaves npm its own authorities when it has no certificate file', () => {
    expect(projectNpmrc('http://127.0.0.1:4873/', { url: upstream.url })).not.toContain('cafile');
  });
});

describe('yarnrc', () => {
  const upstream: PublicRegistry = { url: 'https://registry.example.invalid/', caFile: '/etc/npm-proxy-ca.pem' };
  const lines = (text: string) => text.split('\n');

  it.each([
    ['yarn4-pnp', 'nodeLinker: pnp'],
    ['yarn4-node-modules', 'nodeLinker: node-modules'],
  ] as const)('%s: %s, third-party packages from npm\'s registry and authorities, ours from the local one', (flavour, linker) => {
    const text = yarnrc(flavour, 'http://127.0.0.1:4873/', upstream);
    expect(lines(text)).toEqual(
      expect.arrayContaining([
        linker,
        'npmRegistryServer: "https://registry.example.invalid/"',
        'httpsCaFilePath: "/etc/npm-proxy-ca.pem"',
        'unsafeHttpWhitelist: ["127.0.0.1"]',
        'npmPreapprovedPackages: ["@paykit/*"]',
        '  paykit:',
        '    npmRegistryServer: "http://127.0.0.1:4873/"',
      ]),
    );
  });

  it('lets a package under Plug\'n\'Play reach only what it declares (no fallback to the project\'s dependencies)', () => {
    expect(lines(yarnrc('yarn4-pnp', 'http://127.0.0.1:4873/', upstream))).toContain('pnpFallbackMode: none');
    expect(yarnrc('yarn4-node-modules', 'http://127.0.0.1:4873/', upstream)).not.toContain('pnpFallbackMode');
  });

  it('leaves Yarn its own authorities when npm has no certificate file', () => {
    expect(yarnrc('yarn4-pnp', 'http://127.0.0.1:4873/', { url: upstream.url })).not.toContain('httpsCaFilePath');
  });
});
