/**
 * `balcao cobrancas …` and `balcao lojistas …` (#36). People's logins act with their roles:
 * cancelling and setting a Pix key need a supervisor, sending again a person of the queue
 * (suporte or supervisor); Balcão's own login may all, with BALCAO_OPERATOR in the audit.
 */
import { AppError } from '@shared/errors';
import { formatBRL } from '@shared/money';
import type { Papel } from '@shared/permissions';
import { identify } from '../../people/session';
import { pixClientFromEnv } from '../../psp';
import { linkClientFromEnv } from '../../psp/links';
import {
  cancel,
  listEnvios,
  listMerchants,
  registerWebhooks,
  resend,
  setChavePix,
  showEnvio,
  type EnvioItem,
  type Lojista,
} from '../../psp/admin';
import { pspWebhookToken } from '../../psp/config';
import { withStoredPsp } from '../../psp/stored-config';
import {
  reconcile,
  type DispatchDeps,
  type EstadoEnvio,
  type StepResult,
} from '../../psp/dispatch';
import { jobExpireSeconds, leaseMsFor } from '../../intake/jobs';
import type { CliContext } from '../context';
import { CliError, confirmOrSim } from '../io';

const ESTADO_LABEL: Record<EstadoEnvio, string> = {
  pendente: 'pendente',
  registrada: 'registrada no PSP',
  enviada_ao_lojista: 'enviada ao lojista',
  paga: 'paga',
  expirada: 'expirada',
  cancelada: 'cancelada',
  falhou: 'falhou',
};

const RESULT_LABEL: Record<StepResult, string> = {
  registrada: 'registrada no PSP',
  paga: 'paga',
  falhou: 'falhou',
  adiada: 'o PSP não respondeu; nova tentativa agendada',
  sem_psp: 'continua pendente (nada foi enviado)',
  ocupada: 'outro worker está enviando agora',
  nada: 'nada mudou',
  aguarda_pagamento: 'aguarda o pagamento',
  valor_divergente: 'valor recebido diverge; precisa de uma pessoa',
  cancelada: 'cancelada no PSP',
  expirada: 'expirada',
};

async function open(c: CliContext, need?: readonly Papel[]) {
  const dbs = await c.databases();
  const id = await identify(dbs.app);
  let operador = c.settings.get().operator;
  if (id.papeis.length) {
    operador = id.login;
    if (need && !need.some((p) => id.papeis.includes(p))) {
      throw new AppError(
        'acesso_negado',
        `Seu papel não permite isto (precisa de: ${need.join(' ou ')}).`,
      );
    }
  }
  // Configurações (stored in the database) win over the environment (#36.6); only the service
  // login reads the stored secrets, so a person's login uses its environment.
  const env = id.papeis.length ? c.env : await withStoredPsp(dbs.app, c.env);
  const client = pixClientFromEnv(env, c.clock);
  const deps: DispatchDeps = {
    pool: dbs.app,
    client,
    links: linkClientFromEnv(env, c.clock),
    clock: c.clock,
    zone: c.settings.get().timeZone,
    leaseMs: leaseMsFor(jobExpireSeconds(c.env)),
    logger: c.logger,
    operador,
  };
  return { deps, env, operador, close: () => client?.close() };
}

const itemJson = (i: EnvioItem) => ({
  id: i.id,
  estado: i.estado,
  txid: i.txid,
  copia_e_cola: i.copia_e_cola,
  motivo: i.motivo,
  merchant_id: i.merchant_id,
  lojista: i.lojista,
  metodo: i.metodo,
  valor_centavos: i.valor_centavos,
  vencimento: i.vencimento,
  cliente_nome: i.cliente_nome,
  location: i.location,
  link: i.link,
  tentativas: i.tentativas,
  criada_em: i.criada_em,
  atualizada_em: i.atualizada_em,
  registrada_em: i.registrada_em,
  paga_em: i.paga_em,
});

const line = (i: EnvioItem) =>
  `#${i.id}  ${ESTADO_LABEL[i.estado].padEnd(18)} ${formatBRL(i.valor_centavos).padStart(13)}  ${i.metodo.padEnd(6)} ${i.lojista} → ${i.cliente_nome}${i.motivo ? `\n      ${i.motivo}` : ''}`;

export async function cobrancasListar(
  c: CliContext,
  opts: { estado?: string; merchant?: number; limite: number; json?: boolean },
): Promise<void> {
  const s = await open(c);
  try {
    const items = await listEnvios(s.deps.pool, {
      estado: opts.estado as EstadoEnvio | undefined,
      merchantId: opts.merchant,
      limite: opts.limite,
    });
    c.io.out(
      opts.json
        ? JSON.stringify({ cobrancas: items.map(itemJson), psp_configurado: !!s.deps.client })
        : [
            ...(s.deps.client
              ? []
              : ['Nenhum PSP configurado (Configurações ou BALCAO_PSP_URL): nada é enviado.']),
            ...(items.length ? items.map(line) : ['Nenhuma cobrança.']),
          ].join('\n'),
    );
  } finally {
    s.close();
  }
}

export async function cobrancasMostrar(
  c: CliContext,
  id: number,
  opts: { json?: boolean },
): Promise<void> {
  const s = await open(c);
  try {
    const item = await showEnvio(s.deps.pool, id);
    c.io.out(
      opts.json
        ? JSON.stringify({ ...itemJson(item), eventos: item.eventos })
        : [
            line(item),
            `  txid: ${item.txid}`,
            `  vencimento: ${item.vencimento}`,
            ...(item.copia_e_cola ? [`  copia e cola: ${item.copia_e_cola}`] : []),
            '  histórico:',
            ...item.eventos.map(
              (e) =>
                `    ${e.ocorrido_em}  ${e.evento}${e.para && e.para !== e.de ? ` → ${e.para}` : ''} (${e.operador})${
                  typeof e.detalhes.motivo === 'string'
                    ? ` — ${e.detalhes.motivo}`
                    : typeof e.detalhes.erro === 'string'
                      ? ` — ${e.detalhes.erro}`
                      : ''
                }`,
            ),
          ].join('\n'),
    );
  } finally {
    s.close();
  }
}

export async function cobrancasReenviar(
  c: CliContext,
  id: number,
  opts: { json?: boolean },
): Promise<void> {
  const s = await open(c, ['suporte', 'supervisor']);
  try {
    const r = await resend(s.deps, id, s.operador);
    const item = await showEnvio(s.deps.pool, id);
    c.io.out(
      opts.json
        ? JSON.stringify({ resultado: r, cobranca: itemJson(item) })
        : `Cobrança #${id}: ${RESULT_LABEL[r]}.${item.motivo ? ` ${item.motivo}` : ''}`,
    );
    if (r === 'falhou' || r === 'sem_psp') c.exitCode = 1;
  } finally {
    s.close();
  }
}

export async function cobrancasCancelar(
  c: CliContext,
  id: number,
  opts: { sim?: boolean; json?: boolean },
): Promise<void> {
  const s = await open(c, ['supervisor']);
  try {
    const item = await showEnvio(s.deps.pool, id);
    const q = `Cancelar a cobrança #${id} de ${formatBRL(item.valor_centavos)} (${item.lojista} → ${item.cliente_nome}, ${ESTADO_LABEL[item.estado]})${s.deps.client ? ' e removê-la no PSP' : ''}?`;
    if (!(await confirmOrSim(c.io, q, opts.sim))) throw new CliError('Nada foi alterado.', 1);
    const after = await cancel(s.deps, id, s.operador);
    c.io.out(
      opts.json
        ? JSON.stringify(itemJson(after))
        : `Cobrança #${id} cancelada${s.deps.client ? ' (removida no PSP)' : ''}.`,
    );
  } finally {
    s.close();
  }
}

export async function cobrancasReconciliar(c: CliContext, opts: { json?: boolean }) {
  const s = await open(c);
  try {
    if (!s.deps.client) {
      throw new AppError(
        'configuracao',
        'Nenhum PSP configurado (Configurações ou BALCAO_PSP_URL): nada a consultar.',
      );
    }
    const r = await reconcile(s.deps, { olderThanS: 0, force: true });
    const total = Object.values(r).reduce((a, b) => a + (b ?? 0), 0);
    c.io.out(
      opts.json
        ? JSON.stringify({ consultadas: total, resultados: r })
        : total
          ? `${total} ${total === 1 ? 'cobrança consultada' : 'cobranças consultadas'}: ${Object.entries(
              r,
            )
              .map(([k, n]) => `${n} ${RESULT_LABEL[k as StepResult]}`)
              .join(', ')}.`
          : 'Nenhuma cobrança aberta para consultar.',
    );
  } finally {
    s.close();
  }
}

export async function cobrancasWebhook(c: CliContext, opts: { url: string; json?: boolean }) {
  let base: URL;
  try {
    base = new URL(opts.url);
  } catch {
    throw new CliError(`--url não é uma URL válida: ${opts.url}.`, 2);
  }
  if (base.protocol !== 'https:')
    throw new CliError('--url precisa ser https:// (o PSP exige).', 2);
  const s = await open(c, ['supervisor']);
  try {
    const token = pspWebhookToken(s.env);
    if (!token) {
      throw new AppError(
        'configuracao',
        'Defina o token do caminho das notificações em Configurações ou BALCAO_PSP_WEBHOOK_TOKEN.',
      );
    }
    if (!s.deps.client) {
      throw new AppError(
        'configuracao',
        'Nenhum PSP configurado (Configurações ou BALCAO_PSP_URL).',
      );
    }
    const r = await registerWebhooks(s.deps.pool, s.deps.client, opts.url, token);
    c.io.out(
      opts.json
        ? JSON.stringify({ chaves: r })
        : r.length
          ? r
              .map((x) => `lojista ${x.merchant_id} (${x.chave}): ${x.ok ? 'registrado' : x.erro}`)
              .join('\n')
          : 'Nenhum lojista tem chave Pix cadastrada.',
    );
    if (r.some((x) => !x.ok)) c.exitCode = 1;
  } finally {
    s.close();
  }
}

const lojistaLine = (l: Lojista) =>
  `#${l.id}  ${l.nome}  chave Pix: ${l.chave_pix ?? '(nenhuma)'}  abertas: ${l.cobrancas_abertas}  falhas: ${l.cobrancas_falhas}`;

export async function lojistasListar(c: CliContext, opts: { json?: boolean }) {
  const dbs = await c.databases();
  const rows = await listMerchants(dbs.app);
  c.io.out(
    opts.json
      ? JSON.stringify({ lojistas: rows })
      : rows.length
        ? rows.map(lojistaLine).join('\n')
        : 'Nenhum lojista.',
  );
}

export async function lojistasMostrar(c: CliContext, id: number, opts: { json?: boolean }) {
  const dbs = await c.databases();
  const [row] = await listMerchants(dbs.app, id);
  if (!row) throw new AppError('nao_encontrado', `Lojista ${id} não encontrado.`);
  c.io.out(opts.json ? JSON.stringify(row) : lojistaLine(row));
}

export async function lojistasChavePix(
  c: CliContext,
  opts: { merchant: number; chave: string; json?: boolean },
) {
  const s = await open(c, ['supervisor']);
  try {
    const r = await setChavePix(s.deps.pool, opts.merchant, opts.chave, s.operador);
    c.io.out(
      opts.json
        ? JSON.stringify({ ...r.lojista, tipo: r.tipo })
        : `Chave Pix do lojista #${r.lojista.id} (${r.lojista.nome}): ${r.lojista.chave_pix} (${r.tipo}).`,
    );
  } finally {
    s.close();
  }
}
