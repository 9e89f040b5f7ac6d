/**
 * `balcao fila listar|mostrar|confirmar|descartar|perguntar|reabrir` (#41.1): the review queue
 * from a terminal, through the window's own path — the contract's channels, parsed with their
 * zod inputs by the one IPC wrapper, the same handlers (leases, validation, audit) — and the same
 * permissions: the login's roles as the database says (a person's login), or every permission
 * for Balcão's service login with BALCAO_OPERATOR as the label in the audit.
 */
import { randomUUID } from 'node:crypto';
import { contract, type Channel, type ChannelResult } from '@shared/contract';
import { issuesByField } from '@shared/validation';
import { CHANNEL_ACCESS } from '@shared/contract/permissions';
import { AppError } from '@shared/errors';
import { describeCharge } from '@shared/charge-text';
import { dateToConfirm, dateToConfirmMessage } from '@shared/due-dates';
import { DISCARD_REASONS, DISCARD_REASON_LABELS } from '@shared/contract/review-items';
import type {
  ExtractionDetail,
  QueueItem,
  QueueSort,
  QueueView,
} from '@shared/contract/review-items';
import { deadlineMark } from '@shared/deadline';
import { NEGADO, PERMISSOES, permissoesDe, type Permissao } from '@shared/permissions';
import type { DadosCobranca } from '@shared/extraction-types';
import type { Caller } from '../../caller';
import type { ServiceDeps } from '../../deps';
import { identify, settingsFor } from '../../people/session';
import { createQueueContext } from '../../queue/context';
import { reviewChannels } from '../../queue/channels';
import { WindowRegistry } from '../../windows';
import type { CliContext } from '../context';
import { CliError, confirmOrSim } from '../io';
import { CARD_REMOVED_NOTICE, hasRemovedCard } from '@shared/pii';

type Call = <C extends Channel>(channel: C, input: unknown) => Promise<ChannelResult<C>>;

interface Session {
  call: Call;
  /** The login's label in the audit (a person's login, or BALCAO_OPERATOR). */
  operador: string;
  close(): Promise<void>;
}

const SITUACAO_LABEL: Record<string, string> = {
  falhou: 'Falhou',
  incompleto: 'Incompleto',
  com_alerta: 'Com alerta',
  aguardando_lojista: 'Aguardando lojista',
  completo: 'Completo',
};

/** Opens the databases and the queue's handlers as the login configured for this terminal. */
const isPermissao = (a: string): a is Permissao => (PERMISSOES as readonly string[]).includes(a);

async function openSession(c: CliContext): Promise<Session> {
  const dbs = await c.databases();
  const id = await identify(dbs.app);
  const service = id.papeis.length === 0;
  const permissoes: Permissao[] = service ? [...PERMISSOES] : permissoesDe(id.papeis);
  const settings = service ? c.settings : settingsFor(c.settings, id.login);
  const deps: ServiceDeps = {
    settings,
    clock: c.clock,
    dbs,
    logger: c.logger,
    databaseMode: dbs.mode,
    appVersion: 'cli',
  };
  const windows = new WindowRegistry();
  const handlers = reviewChannels(createQueueContext(deps), windows);
  const abort = new AbortController();
  const caller: Caller = {
    sessionId: `cli-${randomUUID()}`,
    emit: () => undefined,
    signal: abort.signal,
  };
  // The window's boundary, as the one IPC wrapper applies it: the channel's permission, then its
  // zod input, then the handler (whose failures are already pt-BR AppErrors).
  const call: Call = async (channel, input) => {
    const need: string = CHANNEL_ACCESS[channel];
    if (isPermissao(need) && !permissoes.includes(need)) {
      throw new AppError('acesso_negado', NEGADO[need]);
    }
    const parsed = contract[channel].input.safeParse(input);
    if (!parsed.success) {
      const fields = issuesByField(parsed.error);
      const first = parsed.error.issues[0]?.message ?? 'Dados inválidos.';
      throw new AppError('entrada_invalida', first, fields);
    }
    const handler = handlers[channel as keyof typeof handlers] as unknown as (
      input: unknown,
      caller: Caller,
    ) => Promise<ChannelResult<typeof channel>>;
    return handler(parsed.data, caller);
  };
  return {
    call,
    operador: settings.get().operator,
    close: async () => abort.abort(),
  };
}

/** Runs `work` holding the item's lease; the lease goes back to the queue whatever happens. */
async function withLease<T>(
  s: Session,
  id: number,
  work: (token: string, item: ExtractionDetail) => Promise<T>,
): Promise<T> {
  const lease = await s.call('review/claim', { id });
  if (!lease.claimed) throw new AppError('conflito', lease.mensagem);
  try {
    const item = await s.call('review/get', { id });
    return await work(lease.token, item);
  } finally {
    // An action that closed the item ended the lease itself; releasing again is harmless.
    await s.call('review/release', { id, token: lease.token }).catch(() => undefined);
  }
}

const age = (iso: string, now: Date): string => {
  const min = Math.max(0, Math.round((now.getTime() - new Date(iso).getTime()) / 60_000));
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  return h < 48 ? `${h} h` : `${Math.floor(h / 24)} d`;
};

const clip = (t: string, n: number) => {
  const one = t.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

function itemJson(i: QueueItem) {
  return {
    id: i.id,
    merchant_id: i.merchantId,
    lojista: i.merchantNome,
    situacao: i.situacao,
    status: i.status,
    fila_estado: i.filaEstado,
    motivo: i.motivo,
    em_analise_por: i.emAnalisePor,
    criada_em: i.criadaEm,
    texto: i.texto,
    cobranca_id: i.cobrancaId,
  };
}

function table(items: QueueItem[], now: Date): string {
  if (items.length === 0) return 'Nenhum pedido nesta visão.';
  const rows = items.map((i) => [
    `#${i.id}`,
    SITUACAO_LABEL[i.situacao] ?? i.situacao,
    age(i.criadaEm, now),
    clip(`${i.merchantNome} (#${i.merchantId})`, 28),
    clip(i.motivo, 40),
    i.emAnalisePor ? `em análise: ${i.emAnalisePor}` : '',
    // The deadline's mark (#39.2): near (under 25% left) or past it.
    deadlineMark(i.prazo, now.getTime())?.text ?? '',
  ]);
  const head = ['Pedido', 'Situação', 'Idade', 'Lojista', 'Motivo', 'Com quem', 'Prazo'];
  const width = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const fmt = (r: string[]) =>
    r
      .map((v, c) => v.padEnd(width[c]!))
      .join('  ')
      .trimEnd();
  return [fmt(head), ...rows.map(fmt)].join('\n');
}

function current(item: ExtractionDetail): DadosCobranca | null {
  return item.dadosRevisados ?? item.dados;
}

function detailText(i: ExtractionDetail): string {
  const dados = current(i);
  const lines = [
    `Pedido #${i.id} · ${SITUACAO_LABEL[i.situacao] ?? i.situacao} · lojista ${i.merchantNome} (#${i.merchantId})`,
    `Mensagem: ${i.texto}`,
    // A card number was taken out before the text was stored (#38.1).
    ...(hasRemovedCard(i.texto, ...i.respostas.map((r) => r.resposta))
      ? [CARD_REMOVED_NOTICE]
      : []),
    `Cobrança: ${dados ? describeCharge(dados) : 'nenhum dado extraído'}`,
    `Motivo na fila: ${i.motivo}`,
  ];
  if (i.pergunta) lines.push(`Pergunta ao lojista: ${i.pergunta}`);
  if (i.emAnalisePor) lines.push(`Em análise por ${i.emAnalisePor}`);
  if (i.cobranca) lines.push(`Cobrança criada: #${i.cobranca.id}`);
  if (i.descarte) {
    lines.push(
      `Descartado: ${DISCARD_REASON_LABELS[i.descarte.motivo]}${i.descarte.detalhe ? ` — ${i.descarte.detalhe}` : ''}`,
    );
  }
  return lines.join('\n');
}

async function run<T>(c: CliContext, work: (s: Session) => Promise<T>): Promise<T> {
  const s = await openSession(c);
  try {
    return await work(s);
  } finally {
    await s.close();
  }
}

export async function filaListar(
  c: CliContext,
  opts: { visao: QueueView; ordem: QueueSort; limite: number; json?: boolean },
): Promise<void> {
  await run(c, async (s) => {
    const page = await s.call('review/list', {
      view: opts.visao,
      sort: opts.ordem,
      limit: opts.limite,
    });
    const now = c.clock.now().getTime();
    c.io.out(
      opts.json
        ? JSON.stringify({
            pedidos: page.items.map((i) => ({
              ...itemJson(i),
              // Open items: the deadline and its mark now ('atrasado', 'vencendo' or null).
              prazo: i.prazo ?? null,
              prazo_marca: deadlineMark(i.prazo, now)?.kind ?? null,
            })),
            ...(page.counts ? { contagens: page.counts } : {}),
            mais: page.nextCursor !== null,
          })
        : `${table(page.items, c.clock.now())}${page.nextCursor ? `\n(há mais pedidos: use --limite maior)` : ''}`,
    );
  });
}

export async function filaMostrar(c: CliContext, id: number, opts: { json?: boolean }) {
  await run(c, async (s) => {
    const item = await s.call('review/get', { id });
    c.io.out(
      opts.json
        ? JSON.stringify({
            ...itemJson(item),
            dados: current(item),
            pergunta: item.pergunta,
            cobranca: item.cobranca,
            descarte: item.descarte,
          })
        : detailText(item),
    );
  });
}

export async function filaConfirmar(
  c: CliContext,
  id: number,
  opts: { sim?: boolean; json?: boolean },
): Promise<void> {
  await run(c, (s) =>
    withLease(s, id, async (token, item) => {
      const dados = current(item);
      if (!dados)
        throw new AppError(
          'entrada_invalida',
          'O pedido não tem dados de cobrança para confirmar.',
        );
      // The same validators as the form: refused here before anyone is asked.
      const v = await s.call('review/validate', { dados });
      if (!v.ok) {
        const msgs = Object.entries(v.fields).flatMap(([campo, m]) =>
          m.map((x) => (campo ? `${campo}: ${x}` : x)),
        );
        throw new AppError(
          'entrada_invalida',
          `A cobrança não passa nas regras: ${msgs.join('; ')}`,
        );
      }
      // The text names another due date (#42.1): the answer confirms this one explicitly.
      const dateAlert = dateToConfirm(item.alertas, dados.vencimento);
      const question = `${dateAlert ? `Atenção: ${dateToConfirmMessage(dateAlert, dados.vencimento)}\n` : ''}Criar a cobrança de ${describeCharge(dados)} — lojista ${item.merchantNome} (#${item.merchantId})?`;
      if (!(await confirmOrSim(c.io, question, opts.sim))) {
        throw new CliError('Nada foi criado.', 1);
      }
      const r = await s.call('review/confirm', {
        id,
        token,
        dados,
        ...(dateAlert && dados.vencimento ? { vencimentoConfirmado: dados.vencimento } : {}),
      });
      c.io.out(
        opts.json
          ? JSON.stringify({ pedido: id, criada: r.criada, cobranca: r.cobranca })
          : r.criada
            ? `Cobrança #${r.cobranca.id} criada (lojista ${item.merchantNome}): ${describeCharge(dados)}.`
            : `A cobrança #${r.cobranca.id} já existia para este pedido; nada foi criado de novo.`,
      );
    }),
  );
}

export async function filaDescartar(
  c: CliContext,
  id: number,
  opts: { motivo: string; detalhe?: string; sim?: boolean; json?: boolean },
): Promise<void> {
  await run(c, (s) =>
    withLease(s, id, async (token, item) => {
      if (!(DISCARD_REASONS as readonly string[]).includes(opts.motivo)) {
        throw new CliError(
          `Motivo inválido: ${opts.motivo}. Use um de: ${DISCARD_REASONS.join(', ')}.`,
          2,
        );
      }
      const question = `Descartar o pedido #${id} do lojista ${item.merchantNome} (${DISCARD_REASON_LABELS[opts.motivo as (typeof DISCARD_REASONS)[number]]})?`;
      if (!(await confirmOrSim(c.io, question, opts.sim)))
        throw new CliError('Nada foi alterado.', 1);
      const after = await s.call('review/discard', {
        id,
        token,
        motivo: opts.motivo,
        ...(opts.detalhe !== undefined ? { detalhe: opts.detalhe } : {}),
      });
      c.io.out(
        opts.json
          ? JSON.stringify({ pedido: id, fila_estado: after.filaEstado, descarte: after.descarte })
          : `Pedido #${id} descartado: ${DISCARD_REASON_LABELS[opts.motivo as (typeof DISCARD_REASONS)[number]]}.`,
      );
    }),
  );
}

export async function filaPerguntar(c: CliContext, id: number, opts: { json?: boolean }) {
  await run(c, (s) =>
    withLease(s, id, async (token) => {
      const r = await s.call('review/askMerchant', { id, token });
      c.io.out(
        opts.json
          ? JSON.stringify({ pedido: id, pergunta: r.pergunta })
          : `Pergunta enviada ao lojista (pedido #${id}): ${r.pergunta}`,
      );
    }),
  );
}

export async function filaReabrir(
  c: CliContext,
  id: number,
  opts: { motivo?: string; json?: boolean },
): Promise<void> {
  await run(c, async (s) => {
    const after = await s.call('review/reopen', {
      id,
      ...(opts.motivo !== undefined ? { motivo: opts.motivo } : {}),
    });
    c.io.out(
      opts.json
        ? JSON.stringify({ pedido: id, fila_estado: after.filaEstado, situacao: after.situacao })
        : `Pedido #${id} de volta à fila (${SITUACAO_LABEL[after.situacao] ?? after.situacao}).`,
    );
  });
}
