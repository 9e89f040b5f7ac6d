/** #12 point 5: secrets never leave the main process — URL passwords in every form and API keys. */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { fixedClock } from '../../src-main/clock';
import type { ServiceDeps } from '../../src-main/deps';
import { createHandlers } from '../../src-main/ipc/handlers';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext, Handlers } from '../../src-main/ipc/types';
import { main } from '../../src-main/cli/main';
import { createMemorySettings } from '../../src-main/settings/memory';
import { settingsFromEnv } from '../../src-main/settings/defaults';
import { createLogger, silentLogger } from '../../src-main/util/logger';
import {
  clearRegisteredSecrets,
  redactDeep,
  redactText,
  redactUrl,
  registerSecret,
} from '../../src-main/util/redact';

afterEach(() => clearRegisteredSecrets());

const URL_FORMS: [string, string][] = [
  ['user-info', 'postgres://balcao:SEGREDO@db.local:5432/balcao'],
  ['user-info encoded', 'postgres://balcao:SEG%40REDO@db.local/balcao'],
  ['password param', 'postgres://balcao@db.local/balcao?password=SEGREDO'],
  ['PASSWORD param', 'postgresql://balcao@db.local/balcao?sslmode=require&PASSWORD=SEGREDO'],
  ['sslpassword param', 'postgres://db.local/balcao?sslpassword=SEGREDO&sslmode=verify-full'],
  ['SslPassword param', 'postgres://db.local/balcao?SslPassword=SEGREDO'],
  ['encoded name', 'postgres://db.local/balcao?pass%77ord=SEGREDO'],
  ['encoded value', 'postgres://db.local/balcao?password=SEG%52EDO%21'],
  ['both', 'postgres://u:SEGREDO@db.local/balcao?password=SEGREDO2&application_name=x'],
];

describe('redactUrl', () => {
  it.each(URL_FORMS)('%s', (_n, url) => {
    const r = redactUrl(url);
    expect(r).not.toMatch(/SEG/);
    expect(r).toContain('***');
    expect(r).toContain('db.local');
  });

  it('keeps everything else of the URL', () => {
    expect(redactUrl('postgres://balcao@db.local:6432/balcao?sslmode=require&password=x')).toBe(
      'postgres://balcao@db.local:6432/balcao?sslmode=require&password=***',
    );
    expect(redactUrl('não é url')).toBe('(URL inválida)');
  });
});

describe('redactText', () => {
  it.each(URL_FORMS)('a URL inside a message: %s', (_n, url) => {
    expect(redactText(`falhou ao conectar em ${url}: recusado`)).not.toMatch(/SEG/);
  });

  it('API keys (sk-ant-…) and the configured key value, libpq keywords, registered passwords', () => {
    expect(redactText('chave sk-ant-api03-AbC_d-123 inválida')).toBe('chave sk-ant-*** inválida');
    registerSecret('minha-chave-de-proxy-42');
    expect(redactText('x minha-chave-de-proxy-42 y')).toBe('x *** y');
    expect(redactText('x minha-chave-de-proxy-42!')).toBe('x ***!');
    expect(redactText(`host=db password=SEGREDO sslpassword='a b' user=x`)).toBe(
      'host=db password=*** sslpassword=*** user=x',
    );
    registerSecret('senha com espaço');
    expect(redactText('senha%20com%20espa%C3%A7o e senha com espaço')).toBe('*** e ***');
  });

  it('PGPASSWORD (libpq source of the password) is masked like a URL password', () => {
    settingsFromEnv({ PGPASSWORD: 'Senha-Do-Ambiente-7' });
    expect(redactText('autenticação falhou para Senha-Do-Ambiente-7')).toBe(
      'autenticação falhou para ***',
    );
  });

  it('redactDeep keeps shapes (__proto__ included) and redacts every string', () => {
    const v = JSON.parse(
      '{"__proto__": "sk-ant-abc", "a": ["postgres://u:SEGREDO@h/d"], "n": 1, "b": null}',
    ) as Record<string, unknown>;
    const r = redactDeep(v);
    expect(Object.keys(r)).toEqual(['__proto__', 'a', 'n', 'b']);
    expect(JSON.stringify(r)).toBe(
      '{"__proto__":"sk-ant-***","a":["postgres://u:***@h/d"],"n":1,"b":null}',
    );
  });
});

function ipc(env: NodeJS.ProcessEnv, extra?: Partial<Handlers>) {
  const deps: ServiceDeps = {
    settings: createMemorySettings({}, env),
    clock: fixedClock(new Date('2026-11-30T15:00:00Z')),
    dbs: {} as ServiceDeps['dbs'],
    logger: silentLogger,
    databaseMode: 'external',
    appVersion: 'teste',
  };
  const handlers = { ...createHandlers(deps), ...extra } as Handlers;
  const ctx: CallContext = {
    sessionId: 'w',
    signal: new AbortController().signal,
    emit: () => undefined,
  };
  return (channel: string, input: unknown) => invokeChannel(handlers, channel, input, ctx);
}

describe('IPC results and errors', () => {
  it.each(URL_FORMS)('settings/get never returns the password: %s', async (_n, url) => {
    const call = ipc({ DATABASE_URL: url });
    const r = await call('settings/get', {});
    expect(r.ok).toBe(true);
    expect(JSON.stringify(r)).not.toMatch(/SEG/);
    expect(JSON.stringify(r)).toContain('db.local');
  });

  it('the API key (env or set in the app) never comes back, not even inside an error', async () => {
    const call = ipc(
      { ANTHROPIC_API_KEY: 'sk-ant-env-999999' },
      {
        'settings/get': async () => {
          throw new AppError(
            'configuracao',
            'chave sk-ant-env-999999 recusada; proxy chave-de-proxy-xyz-123456',
          );
        },
      },
    );
    const set = await call('settings/setApiKey', { apiKey: 'chave-de-proxy-xyz-123456' });
    expect(set.ok).toBe(true);
    expect(JSON.stringify(set)).not.toContain('chave-de-proxy-xyz-123456');
    const r = await call('settings/get', {});
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).not.toMatch(/999999|chave-de-proxy-xyz-123456/);
  });
});

describe('log lines', () => {
  it('message, fields and errors are redacted', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    registerSecret('chave-configurada-77');
    const log = createLogger('info', sink);
    const url = 'postgres://u@h/d?password=SEGREDO';
    log.info({ url, nested: { k: 'sk-ant-abc123' } }, `conectando em ${url}`);
    log.error({ err: new Error(`falhou: ${url} chave-configurada-77`) }, 'erro');
    log.warn(`sslpassword=SEGREDO sk-ant-zzz`);
    const all = lines.join('');
    expect(lines).toHaveLength(3);
    expect(all).not.toMatch(/SEGREDO|abc123|chave-configurada-77|sk-ant-zzz/);
    expect(all).toContain('password=***');
  });
});

describe('CLI output', () => {
  it('an error about the database never prints its password', async () => {
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t), isTTY: false };
    await main(['sql', '--merchant', '1', 'select 1', '--json'], io, {
      DATABASE_URL: 'postgres://u:SEGREDO@127.0.0.1:1/x?password=SEGREDO2&sslpassword=SEGREDO3',
      BALCAO_DB_CONNECT_TIMEOUT_MS: '500',
      BALCAO_LOG_LEVEL: 'silent',
    });
    expect(out.join('\n')).not.toMatch(/SEGREDO/);
  });
});
