import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { firstClosedAncestor } from '../../src-main/db/embedded';

const base = mkdtempSync(join(tmpdir(), 'balcao-acc-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('firstClosedAncestor (embedded PostgreSQL as root runs as the postgres user)', () => {
  it('finds the first folder other users cannot enter', () => {
    const open = join(base, 'aberta');
    const closed = join(open, 'fechada');
    const inner = join(closed, 'dentro');
    mkdirSync(inner, { recursive: true });
    chmodSync(base, 0o755);
    chmodSync(open, 0o755);
    chmodSync(closed, 0o700);
    chmodSync(inner, 0o755);
    expect(firstClosedAncestor(inner)).toBe(closed);
    chmodSync(closed, 0o711);
    expect(firstClosedAncestor(inner)).toBeUndefined();
    // Folders that do not exist yet are created by us with open modes.
    expect(firstClosedAncestor(join(inner, 'nova', 'pasta'))).toBeUndefined();
  });
});
