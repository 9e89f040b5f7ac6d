/**
 * #37 item 5 — the WhatsApp settings in Configurações, stored in the database (migration 1090):
 * a supervisor saves them through the channel; the secrets never come back (a person's login
 * cannot even SELECT them: only whether each is set); `serve` and `worker` (the service login)
 * read them over their environment — stored wins, a field not stored falls back to the
 * environment, then to the default; pt-BR validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WhatsAppSettingsPatch } from '../../src-shared/contract/whatsapp';
import { createPool } from '../../src-main/db/pool';
import { urlForRole } from '../../src-main/db/urls';
import { createPerson } from '../../src-main/people/admin';
import { whatsappSendConfig, whatsappWebhookConfig } from '../../src-main/whatsapp/config';
import {
  saveWhatsAppSettings,
  storedWhatsAppEnv,
  whatsappSettingsView,
  withStoredWhatsApp,
} from '../../src-main/whatsapp/stored-config';
import { createTestDatabase, type TestDatabase } from '../support/db';

let db: TestDatabase;
const SENHA = 'senha-de-teste-123';
const SUPERVISORA = `wa_cfg_${process.pid}_sup`;
const SUPORTE = `wa_cfg_${process.pid}_ana`;
const TOKEN = 'EAAGtoken-de-teste-0123456789abcdef';
const APP_SECRET = 'segredo-do-app-0123456789abcdef';
const VERIFY = 'verifica-123456';

beforeAll(async () => {
  db = await createTestDatabase();
  await createPerson(db.admin, { nome: SUPERVISORA, papel: 'supervisor', senha: SENHA });
  await createPerson(db.admin, { nome: SUPORTE, papel: 'suporte', senha: SENHA });
});
afterAll(async () => {
  await db.drop();
  for (const r of [SUPERVISORA, SUPORTE]) {
    await db.admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => undefined);
  }
});

const asPerson = (nome: string) => createPool(urlForRole(db.adminUrl, nome, SENHA), { max: 1 });

describe('WhatsApp settings stored in the database', () => {
  it('a supervisor saves them; the view says only whether each secret is set, and who changed it', async () => {
    const sup = asPerson(SUPERVISORA);
    try {
      const patch = WhatsAppSettingsPatch.parse({
        token: ` ${TOKEN} `,
        appSecret: APP_SECRET,
        verifyToken: VERIFY,
        phoneNumberId: '109876543210',
        modelo: 'aviso_balcao',
        apiUrl: 'https://graph.facebook.com/v23.0/',
      });
      const v = await saveWhatsAppSettings(sup, patch);
      expect(v).toMatchObject({
        apiUrl: 'https://graph.facebook.com/v23.0',
        phoneNumberId: '109876543210',
        modelo: 'aviso_balcao',
        modeloIdioma: null,
        tokenConfigurado: true,
        appSecretConfigurado: true,
        verifyTokenConfigurado: true,
        alteradaPor: SUPERVISORA,
      });
      const shown = JSON.stringify(await whatsappSettingsView(sup));
      for (const s of [TOKEN, APP_SECRET, VERIFY]) expect(shown).not.toContain(s);
      // A person's login cannot read a secret at all, only replace it.
      await expect(sup.query('SELECT token FROM whatsapp_configuracao')).rejects.toThrow(
        /permission denied/,
      );
      await expect(sup.query('SELECT * FROM whatsapp_configuracao')).rejects.toThrow(
        /permission denied/,
      );
      // A serve/worker started with a person's login says what to fix instead of a raw error.
      await expect(storedWhatsAppEnv(sup)).rejects.toThrow(/login do Balcão \(balcao_app\)/);
    } finally {
      await sup.end();
    }
  });

  it('a support login sees them but cannot change them', async () => {
    const ana = asPerson(SUPORTE);
    try {
      expect((await whatsappSettingsView(ana)).tokenConfigurado).toBe(true);
      await expect(saveWhatsAppSettings(ana, { phoneNumberId: '1' })).rejects.toThrow(
        'Operação não permitida para este usuário do banco.',
      );
      expect((await whatsappSettingsView(db.app)).phoneNumberId).toBe('109876543210');
    } finally {
      await ana.end();
    }
  });

  it('serve and worker read them over their environment: stored wins, else the environment, else the default', async () => {
    const env = {
      BALCAO_WHATSAPP_TOKEN: 'token-do-ambiente-0000000000',
      BALCAO_WHATSAPP_PHONE_NUMBER_ID: '555',
      BALCAO_WHATSAPP_TEMPLATE_IDIOMA: 'en_US',
      BALCAO_WHATSAPP_VERIFY_TOKEN: 'do-ambiente-123',
    };
    const merged = await withStoredWhatsApp(db.app, env);
    const send = whatsappSendConfig(merged);
    expect(send).toEqual({
      ok: true,
      config: {
        token: TOKEN,
        phoneNumberId: '109876543210',
        apiUrl: 'https://graph.facebook.com/v23.0',
        template: { nome: 'aviso_balcao', idioma: 'en_US' },
      },
    });
    expect(whatsappWebhookConfig(merged)).toEqual({
      appSecret: APP_SECRET,
      verifyToken: VERIFY,
      phoneNumberId: '109876543210',
    });
    // Removing a stored value (null) gives the field back to the environment / the default.
    await saveWhatsAppSettings(db.app, { token: null, apiUrl: null, modelo: null });
    const back = whatsappSendConfig(await withStoredWhatsApp(db.app, env));
    expect(back).toEqual({
      ok: true,
      config: {
        token: 'token-do-ambiente-0000000000',
        phoneNumberId: '109876543210',
        apiUrl: 'https://graph.facebook.com/v23.0',
        template: null,
      },
    });
    expect((await whatsappSettingsView(db.app)).tokenConfigurado).toBe(false);
  });

  it('refuses bad values with pt-BR reasons', () => {
    const errs = (p: unknown) => {
      const r = WhatsAppSettingsPatch.safeParse(p);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(errs({ apiUrl: 'graph.facebook.com' }).join()).toMatch(
      /apiUrl: Informe uma URL http\(s\)/,
    );
    expect(errs({ phoneNumberId: '+55 11 9999' }).join()).toMatch(/phoneNumberId: .*só dígitos/);
    expect(errs({ modelo: 'Aviso Balcão' }).join()).toMatch(
      /modelo: .*letras minúsculas, números e _/,
    );
    expect(errs({ modeloIdioma: 'portugues' }).join()).toMatch(/modeloIdioma: .*pt_BR/);
    expect(errs({ token: 'curto' }).join()).toMatch(/token: O token de acesso parece curto demais/);
    expect(errs({ appSecret: 'tem espaços no meio dele' }).join()).toMatch(/sem espaços/);
    expect(errs({ outro: 1 })).not.toEqual([]);
    expect(errs({ phoneNumberId: ' 123 ', modelo: null })).toEqual([]);
  });
});
