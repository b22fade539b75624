import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig (DESIGN.md Configuration)', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.dataDir.endsWith('/data')).toBe(true);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dicomPort).toBe(11112);
    expect(c.dicomAet).toBe('YYP');
    expect(c.demo).toBe(true);
  });
  it('seeds the demo only on the embedded store unless asked', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y' }).demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y', YYP_DEMO: 'on' }).demo).toBe(true);
    expect(loadConfig({ YYP_DEMO: 'off' }).demo).toBe(false);
  });
  it('refuses a malformed port', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});
