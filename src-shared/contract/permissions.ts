import type { Permissao } from '../permissions';
import type { Channel } from './index';

/**
 * Who may call each channel — checked by the one IPC wrapper (src-main/ipc/invoke.ts):
 *   publico  — also before signing in (the session channels)
 *   sessao   — any signed-in person
 *   a Permissao — only a person whose role grants it (the database enforces the same).
 * A Record over every channel: a new channel does not compile without its entry.
 */
export type Acesso = 'publico' | 'sessao' | Permissao;

export const CHANNEL_ACCESS: Record<Channel, Acesso> = {
  'session/state': 'publico',
  'session/signIn': 'publico',
  'session/signOut': 'sessao',
  'app/info': 'sessao',
  'settings/get': 'sessao',
  // This computer's settings apply to everyone who signs in on it (model, zone, attempts, free
  // SQL, the API key that pays for every call): only a supervisor changes them. Testing the
  // configured key changes nothing.
  'settings/update': 'supervisao',
  'settings/setApiKey': 'supervisao',
  'settings/clearApiKey': 'supervisao',
  'settings/testApiKey': 'sessao',
  // The installation's WhatsApp settings (#37.5): everyone sees them (never the secrets, only
  // whether each is set); a supervisor changes them.
  'whatsapp/settings': 'sessao',
  'whatsapp/saveSettings': 'supervisao',
  // The PSP and payment-link settings (#36.6), the same way.
  'psp/settings': 'sessao',
  'psp/saveSettings': 'supervisao',
  'review/list': 'fila',
  'review/filterOptions': 'fila',
  'review/get': 'fila',
  'review/claim': 'fila',
  'review/claimNext': 'fila',
  'review/renew': 'fila',
  'review/release': 'fila',
  'review/validate': 'fila',
  'review/save': 'fila',
  'review/confirm': 'fila',
  'review/askMerchant': 'fila',
  // The item's conversation with the merchant (#37.4) and the agent's edited question.
  'review/thread': 'fila',
  'review/sendQuestion': 'fila',
  'review/recordAnswer': 'fila',
  'review/reprocess': 'fila',
  'review/discard': 'fila',
  'review/charges': 'fila',
  'review/failureReport': 'fila',
  'review/takeOver': 'supervisao',
  'review/reopen': 'supervisao',
  'review/teamPanel': 'supervisao',
  // Bulk actions (#39.5): assigning, discarding and reopening many items are a supervisor's.
  'review/bulk': 'supervisao',
  'review/assignees': 'supervisao',
  'sales/merchants': 'vendas',
  'sales/session': 'vendas',
  'sales/selectMerchant': 'vendas',
  'sales/ask': 'vendas',
  'sales/cancel': 'vendas',
  'sales/run': 'vendas',
  'sales/questionsReport': 'vendas',
  'sales/evalCaseDraft': 'vendas',
  'sales/addEvalCase': 'vendas',
  // A charge's dispatch (#36.7): people of the queue see it and send a failed one again;
  // cancelling a charge at the PSP is a supervisor's.
  'pix/status': 'fila',
  'pix/failures': 'fila',
  'pix/history': 'fila',
  'pix/resend': 'fila',
  'pix/cancel': 'supervisao',
  // Quality sampling (#39.4): judging samples and the accuracy they measure are a supervisor's.
  'quality/next': 'supervisao',
  'quality/judge': 'supervisao',
  'quality/report': 'supervisao',
  // A wrong automatic charge cancelled and its item sent back to the queue (#39.4).
  'quality/cancelCharge': 'supervisao',
  // LGPD (#38.2, #38.4): a data subject's export and anonymisation, and revealing a masked
  // CPF/CNPJ (audited), are a supervisor's.
  'lgpd/exportar': 'supervisao',
  'lgpd/anonimizar': 'supervisao',
  'lgpd/revelar': 'supervisao',
  // The merchant screen (#36.5, #37.1): a merchant's Pix key and WhatsApp numbers are a
  // supervisor's (the database grants the same: migrations 0970, 1100).
  'merchants/list': 'supervisao',
  'merchants/get': 'supervisao',
  'merchants/setPixKey': 'supervisao',
  'merchants/addContact': 'supervisao',
  'merchants/removeContact': 'supervisao',
};
