import type { components } from '../generated/control/openapi.js';
import type { SandboxState, SettingsRecord } from './state.js';
import { peek } from './tracking.js';

type Settings = components['schemas']['Settings'];

/**
 * The sandbox's settings: those it was started with, and over them what the control interface changed. The changes
 * are a record of the state (`control` collection), so every process on one shared store sees them, a reset forgets
 * them, and a state file keeps them.
 */
export class SettingsView {
  private cachedFor: SettingsRecord | undefined | null = null;
  private cached: Settings;

  constructor(
    private readonly state: () => SandboxState,
    private readonly initial: Settings,
  ) {
    this.cached = initial;
  }

  current(): Settings {
    const record = peek(this.state().control, 'settings') as SettingsRecord | undefined;
    if (record !== this.cachedFor) {
      this.cachedFor = record;
      this.cached = { ...this.initial, ...record?.changed };
    }
    return this.cached;
  }

  change(values: Partial<Settings>): Settings {
    const record = peek(this.state().control, 'settings') as SettingsRecord | undefined;
    const changed = { ...record?.changed, ...structuredClone(values) };
    this.state().control.set('settings', { id: 'settings', changed });
    return this.current();
  }
}
