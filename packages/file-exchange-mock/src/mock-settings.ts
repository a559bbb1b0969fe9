import { mockSettings as rest } from './generated/file-exchange/mock-settings.js';
import { mockSettings as soap } from './generated/file-exchange-soap/mock-settings.js';

/**
 * Where the mocks of the file exchange contracts are served by default, by contract: the base path (from the
 * contract) and the default port of each mock (`prism`, `stateful`, from the contract registry). Its own entry point,
 * `@paykit/file-exchange-mock/mock-settings`, loads nothing else, so a launcher can print the addresses without
 * loading the mock.
 */
export const mockSettings = { 'file-exchange': rest, 'file-exchange-soap': soap } as const;
