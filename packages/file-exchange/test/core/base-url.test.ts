import { describe, expect, it } from 'vitest';
import { parseBaseUrl } from '../../src/core/index.js';

const example = 'https://<host>/services/messaging/rest';
const parse = (value: unknown) => parseBaseUrl(value, example, (message) => new TypeError(message));

describe('parseBaseUrl', () => {
  it.each([
    ['https://files.example/services/messaging/rest', 'https://files.example/services/messaging/rest'],
    ['https://files.example:8443/services/messaging/rest///', 'https://files.example:8443/services/messaging/rest'],
    ['https://files.example/', 'https://files.example'],
    ['http://127.0.0.1:4010/services/messaging/rest', 'http://127.0.0.1:4010/services/messaging/rest'],
    ['http://localhost:4010', 'http://localhost:4010'],
    ['http://[::1]:4010/x', 'http://[::1]:4010/x'],
  ])('accepts %s as %s', (input, expected) => {
    expect(parse(input)).toBe(expected);
  });

  it.each([
    { title: 'a relative address', value: 'services/messaging/rest', message: /absolute address such as https:\/\/<host>/ },
    { title: 'a key pasted by mistake (never repeated)', value: 'Csecret-key-123', message: /not a URL \(not shown\)/ },
    { title: 'another scheme', value: 'ftp://files.example/services/messaging/rest', message: /must use https:\/\/, not ftp:/ },
    { title: 'plain http to another machine', value: 'http://files.example/services/messaging/rest', message: /http:\/\/ only for a mock on this machine/ },
    { title: 'credentials', value: 'https://user:Csecret@files.example/services/messaging/rest', message: /must not carry credentials/ },
    { title: 'a query', value: 'https://files.example/services/messaging/rest?x=1', message: /query or fragment/ },
    { title: 'a fragment', value: 'https://files.example/services/messaging/rest#top', message: /query or fragment/ },
  ])('refuses $title', ({ value, message }) => {
    expect(() => parse(value)).toThrow(TypeError);
    expect(() => parse(value)).toThrow(message);
    expect(() => parse(value)).not.toThrow(/Csecret/);
  });
});
