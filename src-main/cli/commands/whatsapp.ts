/**
 * WhatsApp in `balcao serve` and `balcao worker` (#37), kept apart from the intake commands so
 * each side adds one line there. Modules load only when the command runs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { CliContext } from '../context';

/** `startIntakeServer`'s WhatsApp hook when the webhook is configured (else nothing). */
export async function whatsappServeHook(
  c: CliContext,
  pool: pg.Pool,
  boss: PgBoss,
): Promise<{
  whatsappWebhook?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
}> {
  const { whatsappWebhookConfig } = await import('../../whatsapp/config');
  // Configurações (stored in the database) win over the environment (#37.5).
  const { withStoredWhatsApp } = await import('../../whatsapp/stored-config');
  const config = whatsappWebhookConfig(await withStoredWhatsApp(pool, c.env));
  if (!config) return {};
  const { handleWhatsAppWebhook } = await import('../../whatsapp/webhook');
  if (!config.appSecret) {
    c.io.err(
      'WhatsApp: sem a chave secreta do app (Configurações ou BALCAO_WHATSAPP_APP_SECRET), as notificações (POST /whatsapp/webhook) são recusadas.',
    );
  }
  c.io.err('Notificações do WhatsApp em GET/POST /whatsapp/webhook.');
  return {
    whatsappWebhook: (req, res, path) =>
      handleWhatsAppWebhook(
        { pool, boss, config, clock: c.clock, logger: c.logger },
        req,
        res,
        path,
      ),
  };
}

/** The WhatsApp sender of a worker; says so when it is off (no token or phone number id). */
export async function startWhatsAppSenderFor(
  c: CliContext,
  pool: pg.Pool,
  boss: PgBoss,
): Promise<{ stop(): Promise<void> }> {
  const { startWhatsAppSender, whatsappSweepSeconds } = await import('../../whatsapp/sender');
  const { withStoredWhatsApp } = await import('../../whatsapp/stored-config');
  const sender = await startWhatsAppSender({
    pool,
    boss,
    env: await withStoredWhatsApp(pool, c.env),
    logger: c.logger,
    sweepS: whatsappSweepSeconds(c.env),
  });
  c.io.err(
    sender.ativo
      ? 'WhatsApp: enviando as mensagens da caixa de saída.'
      : 'WhatsApp: envio desligado (defina o token e o Phone Number ID em Configurações ou BALCAO_WHATSAPP_TOKEN e BALCAO_WHATSAPP_PHONE_NUMBER_ID); as mensagens ficam pendentes.',
  );
  return sender;
}
