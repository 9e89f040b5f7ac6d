/**
 * #41.5 — a logged error carries what explains it and nothing live: pg-pool hangs the client
 * (with its `processID` and cancel key `secretKey`) on a lost connection's error.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, serializeError } from '../../src-main/util/logger';

function lostConnection(): Error {
  const e = Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
    severity: 'FATAL',
    routine: 'ProcessInterrupts',
    client: { processID: 4242, secretKey: 987654321, connection: { stream: {} } },
  });
  return new Error('conexão perdida', { cause: e });
}

describe('error serialization in logs', () => {
  it('keeps message, code and the cause chain; drops the client and its keys', () => {
    const s = serializeError(lostConnection());
    expect(s.message).toMatch(/^conexão perdida/);
    expect(s.cause).toMatchObject({
      code: '57P01',
      severity: 'FATAL',
      routine: 'ProcessInterrupts',
    });
    expect(JSON.stringify(s)).not.toMatch(/secretKey|processID|987654321|4242|client/);
  });

  it('a log line with { err } never prints the client object', () => {
    let written = '';
    const dest = new Writable({
      write(chunk: Buffer, _enc, cb) {
        written += chunk.toString();
        cb();
      },
    });
    const log = createLogger('warn', dest as never);
    const e = lostConnection().cause as Error;
    log.warn({ err: e }, 'conexão com o banco perdida');
    expect(written).toContain('"code":"57P01"');
    expect(written).not.toMatch(/secretKey|processID|987654321/);
  });
});
