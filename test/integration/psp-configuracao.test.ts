/**
 * #36 item 6 — the PSP and payment-link settings in Configurações, stored in the database
 * (migration 1120), as the WhatsApp ones: a supervisor saves them through the channel; the
 * secrets never come back (a person's login cannot even SELECT them: only whether each is set);
 * `serve` and `worker` (the service login) read them over their environment — stored wins, a
 * field not stored falls back to the environment, then to the default (`{URL}/oauth/token`);
 * certificate, key and CA are absolute file paths read by serve/worker only; pt-BR validation;
 * the screens' "nenhum PSP configurado" follows the stored URL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PspSettingsPatch } from '../../src-shared/contract/psp-settings';
import { createPool } from '../../src-main/db/pool';
import { urlForRole } from '../../src-main/db/urls';
import type { ServiceDeps } from '../../src-main/deps';
import type { CallContext } from '../../src-main/ipc/types';
import { createPerson } from '../../src-main/people/admin';
import { pixChannels } from '../../src-main/psp/channels';
import { pspConfig, pspWebhookToken } from '../../src-main/psp/config';
import { linkConfig } from '../../src-main/psp/links';
import {
  pspSettingsView,
  savePspSettings,
  storedPspEnv,
  withStoredPsp,
} from '../../src-main/psp/stored-config';
import { createTestDatabase, type TestDatabase } from '../support/db';

let db: TestDatabase;
let dir: string;
const SENHA = 'senha-de-teste-123';
const SUPERVISORA = `psp_cfg_${process.pid}_sup`;
const SUPORTE = `psp_cfg_${process.pid}_ana`;
const CLIENT_SECRET = 'segredo-do-cliente-0123456789';
const WEBHOOK_TOKEN = 'caminho-secreto-0123456789';
const LINK_TOKEN = 'token-dos-links-0123456789';
const pem = (nome: string) =>
  `-----BEGIN CERTIFICATE-----\n${Buffer.from(nome).toString('base64')}\n-----END CERTIFICATE-----\n`;

beforeAll(async () => {
  db = await createTestDatabase();
  await createPerson(db.admin, { nome: SUPERVISORA, papel: 'supervisor', senha: SENHA });
  await createPerson(db.admin, { nome: SUPORTE, papel: 'suporte', senha: SENHA });
  dir = mkdtempSync(join(tmpdir(), 'psp-cfg-'));
  for (const f of ['salvo-cert', 'salvo-key', 'env-cert', 'env-key', 'env-ca']) {
    writeFileSync(join(dir, `${f}.pem`), pem(f));
  }
});
afterAll(async () => {
  await db.drop();
  for (const r of [SUPERVISORA, SUPORTE]) {
    await db.admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => undefined);
  }
  rmSync(dir, { recursive: true, force: true });
});

const ctx: CallContext = { sessionId: 'janela-psp', emit: () => undefined };
const asPerson = (nome: string) => createPool(urlForRole(db.adminUrl, nome, SENHA), { max: 1 });
const pixStatus = async (pool: pg.Pool) =>
  pixChannels({ dbs: { app: pool }, psp: { client: null, links: null } } as unknown as ServiceDeps)[
    'pix/status'
  ]({}, ctx);

describe('PSP settings stored in the database', () => {
  it('a supervisor saves them; the view says only whether each secret is set, and who changed it', async () => {
    const sup = asPerson(SUPERVISORA);
    try {
      // Nothing stored, nothing in this process: the screens say no PSP is configured.
      expect(await pixStatus(sup)).toEqual({ pspConfigurado: false });
      const patch = PspSettingsPatch.parse({
        url: ' https://pix.psp.exemplo.com.br/api/v2/ ',
        clientId: 'balcao-cliente',
        clientSecret: CLIENT_SECRET,
        certPath: join(dir, 'salvo-cert.pem'),
        keyPath: join(dir, 'salvo-key.pem'),
        webhookToken: WEBHOOK_TOKEN,
        linkUrl: 'https://links.exemplo.com.br/',
        linkToken: LINK_TOKEN,
      });
      const v = await savePspSettings(sup, patch);
      expect(v).toMatchObject({
        url: 'https://pix.psp.exemplo.com.br/api/v2',
        tokenUrl: null,
        clientId: 'balcao-cliente',
        certPath: join(dir, 'salvo-cert.pem'),
        keyPath: join(dir, 'salvo-key.pem'),
        caPath: null,
        linkUrl: 'https://links.exemplo.com.br',
        clientSecretConfigurado: true,
        webhookTokenConfigurado: true,
        linkTokenConfigurado: true,
        alteradaPor: SUPERVISORA,
      });
      const shown = JSON.stringify(await pspSettingsView(sup));
      for (const s of [CLIENT_SECRET, WEBHOOK_TOKEN, LINK_TOKEN]) expect(shown).not.toContain(s);
      // A person's login cannot read a secret at all, only replace it.
      for (const col of ['client_secret', 'webhook_token', 'link_token', '*']) {
        await expect(sup.query(`SELECT ${col} FROM psp_configuracao`)).rejects.toThrow(
          /permission denied/,
        );
      }
      // A serve/worker started with a person's login says what to fix instead of a raw error.
      await expect(storedPspEnv(sup)).rejects.toThrow(/login do Balcão \(balcao_app\)/);
      // The stored URL is what serve and worker use: the screens no longer say "nenhum PSP".
      expect(await pixStatus(sup)).toEqual({ pspConfigurado: true });
    } finally {
      await sup.end();
    }
  });

  it('a support login sees them but cannot change them', async () => {
    const ana = asPerson(SUPORTE);
    try {
      expect((await pspSettingsView(ana)).clientSecretConfigurado).toBe(true);
      await expect(savePspSettings(ana, { clientId: 'outro' })).rejects.toThrow(
        'Operação não permitida para este usuário do banco.',
      );
      expect((await pspSettingsView(db.app)).clientId).toBe('balcao-cliente');
    } finally {
      await ana.end();
    }
  });

  it('serve and worker read them over their environment: stored wins, else the environment, else the default', async () => {
    const env = {
      BALCAO_PSP_URL: 'https://pix.ambiente.exemplo.com.br',
      BALCAO_PSP_TOKEN_URL: 'https://auth.ambiente.exemplo.com.br/token',
      BALCAO_PSP_CLIENT_ID: 'cliente-do-ambiente',
      BALCAO_PSP_CLIENT_SECRET: 'segredo-do-ambiente',
      BALCAO_PSP_CERT: join(dir, 'env-cert.pem'),
      BALCAO_PSP_KEY: join(dir, 'env-key.pem'),
      BALCAO_PSP_CA: join(dir, 'env-ca.pem'),
      BALCAO_PSP_WEBHOOK_TOKEN: 'token-do-ambiente-000000',
      BALCAO_LINK_TOKEN: 'links-do-ambiente',
    };
    const merged = await withStoredPsp(db.app, env);
    const cfg = pspConfig(merged);
    expect(cfg).toMatchObject({
      url: 'https://pix.psp.exemplo.com.br/api/v2',
      // The stored URL's token URL, not the environment's (meant for the environment's PSP).
      tokenUrl: 'https://pix.psp.exemplo.com.br/api/v2/oauth/token',
      clientId: 'balcao-cliente',
      clientSecret: CLIENT_SECRET,
    });
    expect(cfg?.cert?.toString()).toBe(pem('salvo-cert'));
    expect(cfg?.key?.toString()).toBe(pem('salvo-key'));
    expect(cfg?.ca?.toString()).toBe(pem('env-ca')); // not stored: the environment's
    expect(pspWebhookToken(merged)).toBe(WEBHOOK_TOKEN);
    expect(linkConfig(merged)).toMatchObject({
      url: 'https://links.exemplo.com.br',
      token: LINK_TOKEN,
    });

    // A stored token URL wins over the default.
    await savePspSettings(db.app, { tokenUrl: 'https://auth.psp.exemplo.com.br/oauth2/token' });
    expect(pspConfig(await withStoredPsp(db.app, env))?.tokenUrl).toBe(
      'https://auth.psp.exemplo.com.br/oauth2/token',
    );

    // Removing stored values (null) gives each field back to the environment, then the default.
    await savePspSettings(db.app, {
      url: null,
      tokenUrl: null,
      clientSecret: null,
      certPath: null,
      keyPath: null,
      webhookToken: null,
      linkUrl: null,
    });
    const back = await withStoredPsp(db.app, env);
    expect(pspConfig(back)).toMatchObject({
      url: 'https://pix.ambiente.exemplo.com.br',
      tokenUrl: 'https://auth.ambiente.exemplo.com.br/token',
      clientId: 'balcao-cliente',
      clientSecret: 'segredo-do-ambiente',
    });
    expect(pspConfig(back)?.cert?.toString()).toBe(pem('env-cert'));
    expect(pspWebhookToken(back)).toBe('token-do-ambiente-000000');
    expect(linkConfig(back)).toBeNull(); // no link URL anywhere
    const { BALCAO_PSP_TOKEN_URL: _t, ...semTokenUrl } = env;
    expect(pspConfig(await withStoredPsp(db.app, semTokenUrl))?.tokenUrl).toBe(
      'https://pix.ambiente.exemplo.com.br/oauth/token',
    );
    expect((await pspSettingsView(db.app)).clientSecretConfigurado).toBe(false);
    // Nothing stored and nothing in this process: "nenhum PSP configurado" again.
    expect(await pixStatus(db.app)).toEqual({ pspConfigurado: false });
  });

  it('the database refuses what the screen refuses (a relative path, http:// for the PSP)', async () => {
    await expect(
      db.app.query(`UPDATE psp_configuracao SET cert_path = 'certs/cliente.pem'`),
    ).rejects.toThrow(/check constraint/);
    await expect(
      db.app.query(`UPDATE psp_configuracao SET url = 'http://pix.exemplo.com.br'`),
    ).rejects.toThrow(/check constraint/);
  });

  it('refuses bad values with pt-BR reasons', () => {
    const errs = (p: unknown) => {
      const r = PspSettingsPatch.safeParse(p);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(errs({ url: 'http://pix.exemplo.com.br' }).join()).toMatch(
      /url: Informe uma URL https:\/\/… \(o PSP exige TLS\)/,
    );
    expect(errs({ tokenUrl: 'pix.exemplo.com.br/oauth/token' }).join()).toMatch(
      /tokenUrl: Informe uma URL https:\/\//,
    );
    expect(errs({ linkUrl: 'links' }).join()).toMatch(/linkUrl: Informe uma URL http\(s\)/);
    expect(errs({ certPath: 'certs/cliente.pem' }).join()).toMatch(
      /certPath: Informe o caminho absoluto do certificado \(começa com \/,/,
    );
    expect(errs({ keyPath: '-----BEGIN PRIVATE KEY-----' }).join()).toMatch(
      /keyPath: Informe o caminho absoluto da chave/,
    );
    expect(errs({ caPath: '/x/-----BEGIN CERTIFICATE-----' }).join()).toMatch(
      /caPath: Informe o caminho da CA, não o conteúdo do arquivo PEM/,
    );
    expect(errs({ clientSecret: 'curto' }).join()).toMatch(
      /clientSecret: O client secret parece curto demais/,
    );
    expect(errs({ webhookToken: 'tem espaço e é curto' }).join()).toMatch(
      /webhookToken: O token do caminho das notificações tem de 16 a 128 caracteres/,
    );
    expect(errs({ linkToken: 'tem espaços no meio dele' }).join()).toMatch(/sem espaços/);
    expect(errs({ clientId: ' ' }).join()).toMatch(/clientId: Informe o client id/);
    expect(errs({ outro: 1 })).not.toEqual([]);
    expect(errs({ certPath: ' /etc/balcao/psp/cliente.pem ', url: null })).toEqual([]);
  });
});
