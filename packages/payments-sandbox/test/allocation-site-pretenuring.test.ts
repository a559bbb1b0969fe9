import v8 from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The module afresh (it turns the setting off once per process), with V8's setter watched and left untouched. */
async function fresh(setter: (flags: string) => void = () => {}) {
  vi.resetModules();
  const spy = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(setter);
  const { turnOffAllocationSitePretenuring } = await import('../src/state/allocation-site-pretenuring.js');
  return { spy, turnOffAllocationSitePretenuring };
}

afterEach(() => void vi.restoreAllMocks());

describe('a PostgreSQL-backed sandbox process turns off allocation-site pretenuring', () => {
  it.each([
    { options: [], turned: true },
    { options: ['--max-old-space-size=4096', '--enable-source-maps'], turned: true },
    { options: ['--allocation-site-pretenuring'], turned: false },
    { options: ['--no-allocation-site-pretenuring'], turned: false },
    { options: ['', '--no-allocation-site-pretenuring', ''], turned: false },
  ])('process options $options: turned off here: $turned', async ({ options, turned }) => {
    const { spy, turnOffAllocationSitePretenuring } = await fresh();
    expect(turnOffAllocationSitePretenuring(options)).toBe(turned);
    expect(spy.mock.calls).toEqual(turned ? [['--no-allocation-site-pretenuring']] : []);
  });

  it('once per process: a second store opened does not set it again', async () => {
    const { spy, turnOffAllocationSitePretenuring } = await fresh();
    expect(turnOffAllocationSitePretenuring([])).toBe(true);
    expect(turnOffAllocationSitePretenuring([])).toBe(false);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('a runtime whose setter throws is left as it is, and asked again next time', async () => {
    const { spy, turnOffAllocationSitePretenuring } = await fresh(() => {
      throw new Error('not supported here');
    });
    expect(turnOffAllocationSitePretenuring([])).toBe(false);
    expect(turnOffAllocationSitePretenuring([])).toBe(false);
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it('opening a PostgreSQL store is what turns it off (before it reaches the server)', async () => {
    const { spy } = await fresh();
    const { openPostgresStore } = await import('../src/state/postgres-store.js');
    // A port nothing listens on: the store fails to open, after the setting was made.
    await expect(openPostgresStore('postgres://nobody:secret@127.0.0.1:1/none?connect_timeout=1')).rejects.toThrow(/cannot reach/);
    const chosen = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((option) => option.includes('allocation-site-pretenuring'));
    expect(spy.mock.calls).toEqual(chosen ? [] : [['--no-allocation-site-pretenuring']]);
  });
});
