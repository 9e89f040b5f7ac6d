/**
 * The data subject's rights (#38.4): everything Balcão holds about one person — found by their
 * CPF/CNPJ, phone or e-mail — with where each piece came from (table, id, field), and its
 * anonymisation on request. The database lists candidate fields (`balcao_lgpd_candidatos`,
 * migration 0990, service login or supervisors only); each is confirmed here with the same
 * detectors as the model's minimisation (src-shared/pii.ts), so "123" inside an order number
 * never counts. Anonymising replaces the identifier — and the person's name where Balcão knew
 * it — with a marker in those fields only, in one transaction with its audit row: the rest of
 * the merchant's messages, charges and money stay as they were.
 */
import type pg from 'pg';
import { AppError } from '@shared/errors';
import {
  MARCADOR_TITULAR,
  parseTitular,
  titularMatches,
  type LgpdCobranca,
  type LgpdExportacao,
  type LgpdOrigem,
  type LgpdRegistro,
  type Titular,
  type TitularInput,
} from '@shared/lgpd';
import type { Clock } from '../clock';

/** The titular named by the input, or an `entrada_invalida` AppError in pt-BR. */
export function titularOf(input: TitularInput): Titular {
  const t = parseTitular(input);
  if ('erro' in t) throw new AppError('entrada_invalida', t.erro);
  return t;
}

interface Candidato {
  tabela: string;
  id: string;
  coluna: string;
  merchant_id: string | null;
  extracao_id: string | null;
  criado_em: Date;
  valor: unknown;
}

function stringsOf(v: unknown, out: string[] = [], depth = 0): string[] {
  if (typeof v === 'string') out.push(v);
  else if (v && typeof v === 'object' && depth < 20) {
    for (const x of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      stringsOf(x, out, depth + 1);
    }
  }
  return out;
}

const holds = (v: unknown, t: Titular) => stringsOf(v).some((s) => titularMatches(s, t).length);

interface Found {
  titular: Titular;
  registros: (LgpdRegistro & { coluna: string })[];
  cobrancas: LgpdCobranca[];
}

async function find(pool: pg.Pool, titular: Titular): Promise<Found> {
  const r = await pool.query<Candidato>(
    'SELECT tabela, id, coluna, merchant_id, extracao_id, criado_em, valor FROM balcao_lgpd_candidatos($1)',
    [titular.chave],
  );
  const registros = r.rows
    .filter((c) => holds(c.valor, titular))
    .map((c) => ({
      origem: { tabela: c.tabela, id: c.id, campo: c.coluna },
      coluna: c.coluna,
      lojista: c.merchant_id === null ? null : Number(c.merchant_id),
      extracao: c.extracao_id === null ? null : Number(c.extracao_id),
      em: c.criado_em.toISOString(),
      valor: c.valor,
    }));
  const extracoes = [
    ...new Set(
      registros
        .filter((x) => ['extracoes', 'mensagens', 'cobrancas'].includes(x.origem.tabela))
        .map((x) => x.extracao)
        .filter((x): x is number => x !== null),
    ),
  ];
  const cr = extracoes.length
    ? await pool.query<{
        id: string;
        extracao_id: string;
        merchant_id: string;
        cliente_nome: string;
        cliente_documento: string | null;
        valor_centavos: string;
        parcelas: number;
        metodo: string;
        vencimento: string;
        descricao: string | null;
        criada_em: Date;
      }>(
        `SELECT id, extracao_id, merchant_id, cliente_nome, cliente_documento, valor_centavos,
                parcelas, metodo,
                to_char(vencimento, 'YYYY-MM-DD') AS vencimento, descricao, criada_em
           FROM balcao_lgpd_cobrancas($1::bigint[])`,
        [extracoes],
      )
    : { rows: [] };
  const cobrancas = cr.rows.map((b) => ({
    origem: { tabela: 'cobrancas', id: String(b.id), campo: 'cliente_nome' },
    lojista: Number(b.merchant_id),
    extracao: Number(b.extracao_id),
    cliente_nome: b.cliente_nome,
    cliente_documento: b.cliente_documento,
    valor_centavos: Number(b.valor_centavos),
    parcelas: b.parcelas,
    metodo: b.metodo,
    vencimento: b.vencimento,
    descricao: b.descricao,
    em: b.criada_em.toISOString(),
  }));
  const found: Found = { titular, registros, cobrancas };
  // The person's extractions' other messages (the merchant's replies, our questions) that name
  // them without the identifier: found by the names Balcão knows for this person.
  const re = namesRe(found);
  if (re && extracoes.length) {
    const seen = new Set(registros.map((x) => `${x.origem.tabela}#${x.origem.id}`));
    const linked = await pool.query<Candidato>(
      `SELECT 'mensagens' AS tabela, id::text AS id, 'texto' AS coluna, merchant_id::text AS merchant_id,
              extracao_id::text AS extracao_id, recebida_em AS criado_em, to_jsonb(texto) AS valor
         FROM mensagens WHERE extracao_id = ANY($1::bigint[])
       UNION ALL
       SELECT 'mensagens_saida', id::text, 'texto', merchant_id::text, extracao_id::text, criada_em,
              to_jsonb(texto)
         FROM mensagens_saida WHERE extracao_id = ANY($1::bigint[])
        ORDER BY 1, 6, 2`,
      [extracoes],
    );
    for (const c of linked.rows) {
      if (seen.has(`${c.tabela}#${c.id}`)) continue;
      re.lastIndex = 0;
      if (typeof c.valor !== 'string' || !re.test(c.valor)) continue;
      registros.push({
        origem: { tabela: c.tabela, id: c.id, campo: c.coluna },
        coluna: c.coluna,
        lojista: c.merchant_id === null ? null : Number(c.merchant_id),
        extracao: c.extracao_id === null ? null : Number(c.extracao_id),
        em: c.criado_em.toISOString(),
        valor: c.valor,
      });
    }
  }
  return found;
}

function exportOf(f: Found, clock: Clock): LgpdExportacao {
  const of = (...tabelas: string[]): LgpdRegistro[] =>
    f.registros
      .filter((x) => tabelas.includes(x.origem.tabela))
      .map(({ origem, lojista, extracao, em, valor }) => ({
        origem,
        lojista,
        extracao,
        em,
        valor,
      }));
  const out: LgpdExportacao = {
    titular: { tipo: f.titular.tipo, identificador: f.titular.rotulo },
    gerada_em: clock.now().toISOString(),
    mensagens: of('mensagens'),
    extracoes: of('extracoes'),
    tentativas: of('extracao_tentativas', 'intake_tentativas'),
    mensagens_saida: of('mensagens_saida'),
    perguntas: of('consultas_vendas', 'consultas_livres'),
    cobrancas: f.cobrancas,
    total: 0,
  };
  out.total =
    out.mensagens.length +
    out.extracoes.length +
    out.tentativas.length +
    out.mensagens_saida.length +
    out.perguntas.length +
    out.cobrancas.length;
  return out;
}

async function audit(pool: pg.Pool, operador: string, acao: string, detalhes: object) {
  await pool.query(`INSERT INTO auditoria (operador, acao, detalhes) VALUES ($1, $2, $3)`, [
    operador,
    acao,
    JSON.stringify(detalhes),
  ]);
}

/** Everything about the titular, with its origins; the export itself is audited. */
export async function exportSubject(
  pool: pg.Pool,
  input: TitularInput,
  opts: { operador: string; clock: Clock },
): Promise<LgpdExportacao> {
  const titular = titularOf(input);
  const f = await find(pool, titular);
  const out = exportOf(f, opts.clock);
  await audit(pool, opts.operador, 'lgpd_exportar', {
    tipo: titular.tipo,
    identificador: titular.rotulo,
    registros: out.total,
  });
  return out;
}

export interface AnonymisePlan {
  titular: { tipo: Titular['tipo']; identificador: string };
  /** The fields that change, by origin (never their content). */
  origens: LgpdOrigem[];
}

interface Change {
  tabela: string;
  id: string;
  coluna: string;
  valor: unknown;
}

/** The names Balcão knows for this person (their charges' and extractions' cliente_nome). */
function namesOf(f: Found): string[] {
  const names = new Set<string>();
  for (const b of f.cobrancas) names.add(b.cliente_nome);
  for (const x of f.registros) {
    if (x.origem.tabela !== 'extracoes' || !x.valor || typeof x.valor !== 'object') continue;
    const nome = (x.valor as Record<string, unknown>).cliente_nome;
    if (typeof nome === 'string') names.add(nome);
  }
  return [...names].map((n) => n.trim()).filter((n) => n.length >= 3 && n !== MARCADOR_TITULAR);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function scrub(v: unknown, t: Titular, names: RegExp | null, depth = 0): unknown {
  if (typeof v === 'string') {
    let s = v;
    const ms = titularMatches(s, t);
    for (let i = ms.length - 1; i >= 0; i--) {
      const m = ms[i]!;
      s = s.slice(0, m.start) + MARCADOR_TITULAR + s.slice(m.end);
    }
    return names ? s.replace(names, MARCADOR_TITULAR) : s;
  }
  if (v === null || typeof v !== 'object' || depth > 20) return v;
  if (Array.isArray(v)) return v.map((x: unknown) => scrub(x, t, names, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    Object.defineProperty(out, k, {
      value: scrub(x, t, names, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function namesRe(f: Found): RegExp | null {
  const names = namesOf(f);
  return names.length ? new RegExp(names.map(escapeRe).join('|'), 'giu') : null;
}

function changesOf(f: Found): Change[] {
  const re = namesRe(f);
  const changes: Change[] = [];
  for (const x of f.registros) {
    if (x.origem.tabela === 'cobrancas' && x.coluna === 'cliente_documento') {
      // The charge's document is the identifier itself (CHECK: a document or NULL): removed.
      changes.push({
        tabela: 'cobrancas',
        id: x.origem.id,
        coluna: 'cliente_documento',
        valor: null,
      });
      continue;
    }
    const valor = scrub(x.valor, f.titular, re);
    if (JSON.stringify(valor) === JSON.stringify(x.valor)) continue;
    changes.push({ tabela: x.origem.tabela, id: x.origem.id, coluna: x.coluna, valor });
  }
  for (const b of f.cobrancas) {
    if (b.cliente_nome !== MARCADOR_TITULAR) {
      changes.push({
        tabela: 'cobrancas',
        id: b.origem.id,
        coluna: 'cliente_nome',
        valor: MARCADOR_TITULAR,
      });
    }
    if (b.descricao !== null) {
      const d = scrub(b.descricao, f.titular, re);
      if (d !== b.descricao) {
        changes.push({ tabela: 'cobrancas', id: b.origem.id, coluna: 'descricao', valor: d });
      }
    }
  }
  const seen = new Set<string>();
  return changes.filter((c) => {
    const k = `${c.tabela}#${c.id}.${c.coluna}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const planOf = (f: Found, changes: Change[]): AnonymisePlan => ({
  titular: { tipo: f.titular.tipo, identificador: f.titular.rotulo },
  origens: changes.map((c) => ({ tabela: c.tabela, id: c.id, campo: c.coluna })),
});

/** What anonymising this titular would change (nothing changes, nothing is audited). */
export async function planAnonymise(pool: pg.Pool, input: TitularInput): Promise<AnonymisePlan> {
  const f = await find(pool, titularOf(input));
  return planOf(f, changesOf(f));
}

/**
 * Replaces the titular's data with the marker in every field that holds it, and writes the
 * audit row (who, when, which fields — never the data), in one transaction.
 */
export async function anonymiseSubject(
  pool: pg.Pool,
  input: TitularInput,
  opts: { operador: string },
): Promise<AnonymisePlan & { campos: number }> {
  const f = await find(pool, titularOf(input));
  const changes = changesOf(f);
  const plan = planOf(f, changes);
  const r = await pool.query<{ n: number }>(
    'SELECT balcao_lgpd_anonimizar($1::jsonb, $2, $3::jsonb) AS n',
    [
      JSON.stringify(changes),
      opts.operador,
      JSON.stringify({
        tipo: plan.titular.tipo,
        identificador: plan.titular.identificador,
        origens: plan.origens,
      }),
    ],
  );
  return { ...plan, campos: Number(r.rows[0]?.n ?? 0) };
}
