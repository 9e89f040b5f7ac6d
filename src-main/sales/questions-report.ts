/**
 * The "Perguntas" report: reads the sales-question log (view `perguntas_registradas`, app role)
 * and says which questions the DSL answers, which it misses (grouped by their normalised text),
 * and which chips people change right after an answer — the sign an interpretation was wrong.
 * Periods are local days in the business zone; at most 366 days.
 */
import type pg from 'pg';
import {
  CAMPOS_CHIP,
  DESFECHOS,
  DESFECHOS_RESPONDIDOS,
  type CampoChip,
  type Desfecho,
  type EdicaoChip,
  type GrupoNaoRespondido,
  type PerguntaRegistrada,
  type QuestionsReport,
} from '@shared/contract/questions';
import { datesInRange, periodoLabel } from '@shared/periods';
import type { ConsultaVendas } from '@shared/sales-dsl';
import {
  AGRUPAMENTO_LABELS,
  METRICA_LABELS,
  MODALIDADE_LABELS,
  formatPeriodo,
} from '@shared/sales-format';
import { addDays, daysBetween, localDate, startOfLocalDay } from '@shared/time';

/** Chip edits read per report (the latest ones); enough for the ranking, bounded in memory. */
const MAX_EDICOES = 5000;
const MAX_GRUPOS = 20;
const MAX_RECENTES = 100;

interface Range {
  inicio: Date;
  fim: Date;
}

function localRange(de: string, ate: string, zone: string): Range {
  return { inicio: startOfLocalDay(de, zone), fim: startOfLocalDay(addDays(ate, 1), zone) };
}

/** One chip's value, as a person reads it. */
export function describeChip(campo: CampoChip, q: ConsultaVendas): string {
  switch (campo) {
    case 'periodo':
      return q.periodo ? periodoLabel(q.periodo) : formatPeriodo(q);
    case 'metrica':
      return METRICA_LABELS[q.metrica];
    case 'modalidades':
      return q.modalidades.length === 0
        ? 'todas'
        : q.modalidades.map((m) => MODALIDADE_LABELS[m]).join(', ');
    case 'agrupar_por':
      return AGRUPAMENTO_LABELS[q.agrupar_por];
    case 'ordem':
      if (!q.ordem) return 'sem ordenação';
      return `${q.ordem === 'decrescente' ? 'maior primeiro' : 'menor primeiro'}${
        q.limite ? `, ${q.limite} primeiro(s)` : ''
      }`;
  }
}

/** Which chips differ between the answer on screen and the edited query. */
export function chipChanges(
  antes: ConsultaVendas,
  depois: ConsultaVendas,
): { campo: CampoChip; antes: string; depois: string }[] {
  return CAMPOS_CHIP.flatMap((campo) => {
    const a = describeChip(campo, antes);
    const d = describeChip(campo, depois);
    // The same preset can resolve to other dates on another day: compare the real range too.
    const mesmoPeriodo =
      campo !== 'periodo' ||
      (antes.data_inicio === depois.data_inicio && antes.data_fim === depois.data_fim);
    return a === d && mesmoPeriodo ? [] : [{ campo, antes: a, depois: d }];
  });
}

/**
 * Counts chip edits by chip and the most frequent changes of each; `total` counts the edits
 * that changed anything (one edit can change several chips).
 */
export function rankEdits(pares: { antes: ConsultaVendas; depois: ConsultaVendas }[]): {
  edicoes: EdicaoChip[];
  total: number;
} {
  const porCampo = new Map<CampoChip, Map<string, { antes: string; depois: string; n: number }>>();
  const total = new Map<CampoChip, number>();
  let editadas = 0;
  for (const p of pares) {
    const changes = chipChanges(p.antes, p.depois);
    if (changes.length) editadas += 1;
    for (const m of changes) {
      total.set(m.campo, (total.get(m.campo) ?? 0) + 1);
      const mudancas = porCampo.get(m.campo) ?? new Map();
      porCampo.set(m.campo, mudancas);
      const key = `${m.antes}\u0000${m.depois}`;
      const cur = mudancas.get(key) ?? { antes: m.antes, depois: m.depois, n: 0 };
      cur.n += 1;
      mudancas.set(key, cur);
    }
  }
  const edicoes = [...total.entries()]
    .sort((a, b) => b[1] - a[1] || CAMPOS_CHIP.indexOf(a[0]) - CAMPOS_CHIP.indexOf(b[0]))
    .map(([campo, quantidade]) => ({
      campo,
      quantidade,
      mudancas: [...(porCampo.get(campo)?.values() ?? [])]
        .sort((a, b) => b.n - a.n || a.depois.localeCompare(b.depois, 'pt-BR'))
        .slice(0, 5)
        .map(({ antes, depois, n }) => ({ antes, depois, quantidade: n })),
    }));
  return { edicoes, total: editadas };
}

interface RegistroRow {
  id: string;
  pergunta: string;
  merchant_id: string;
  /** The merchant's name (merchants.nome): people read names, not ids. */
  merchant_nome: string | null;
  desfecho: Desfecho;
  criada_em: Date;
}

function toRegistrada(r: RegistroRow, zone: string): PerguntaRegistrada {
  return {
    id: Number(r.id),
    pergunta: r.pergunta,
    merchantId: Number(r.merchant_id),
    merchantNome: r.merchant_nome ?? `Lojista ${r.merchant_id}`,
    desfecho: r.desfecho,
    criadaEm: r.criada_em.toISOString(),
    dia: localDate(r.criada_em, zone),
  };
}

export async function questionsReport(
  app: pg.Pool,
  input: { de: string; ate: string },
  timeZone: string,
): Promise<QuestionsReport> {
  const atual = localRange(input.de, input.ate, timeZone);
  const dias = daysBetween(input.de, input.ate) + 1;
  const anterior = localRange(addDays(input.de, -dias), addDays(input.de, -1), timeZone);
  const respondidos = [...DESFECHOS_RESPONDIDOS];
  const periodo = [atual.inicio, atual.fim];

  const [contagens, porDia, grupos, edicoes, livres, recentes] = await Promise.all([
    app.query<{ atual: boolean; desfecho: Desfecho; n: number }>(
      `SELECT criada_em >= $2 AS atual, desfecho, count(*)::int AS n
         FROM perguntas_registradas
        WHERE origem = 'pergunta' AND criada_em >= $1 AND criada_em < $3
        GROUP BY 1, 2`,
      [anterior.inicio, atual.inicio, atual.fim],
    ),
    app.query<{ dia: string; total: number; respondidas: number }>(
      `SELECT to_char(criada_em AT TIME ZONE $3, 'YYYY-MM-DD') AS dia, count(*)::int AS total,
              count(*) FILTER (WHERE desfecho = ANY($4))::int AS respondidas
         FROM perguntas_registradas
        WHERE origem = 'pergunta' AND criada_em >= $1 AND criada_em < $2
        GROUP BY 1 ORDER BY 1`,
      [...periodo, timeZone, respondidos],
    ),
    app.query<{
      chave: string;
      quantidade: number;
      lojistas: number;
      ultima: Date;
      desfecho: Desfecho;
      exemplos: RegistroRow[];
    }>(
      `SELECT balcao_normalizar_pergunta(pergunta) AS chave, count(*)::int AS quantidade,
              count(DISTINCT merchant_id)::int AS lojistas, max(criada_em) AS ultima,
              mode() WITHIN GROUP (ORDER BY desfecho) AS desfecho,
              (array_agg(json_build_object('id', id, 'pergunta', pergunta,
                 'merchant_id', merchant_id,
                 'merchant_nome', (SELECT m.nome FROM merchants m WHERE m.id = merchant_id),
                 'desfecho', desfecho, 'criada_em', criada_em)
                 ORDER BY criada_em DESC, id DESC))[1:20] AS exemplos
         FROM perguntas_registradas
        WHERE origem = 'pergunta' AND pergunta IS NOT NULL AND NOT desfecho = ANY($3)
          AND criada_em >= $1 AND criada_em < $2
        GROUP BY 1
        ORDER BY quantidade DESC, ultima DESC, chave
        LIMIT ${MAX_GRUPOS}`,
      [...periodo, respondidos],
    ),
    // Each chip edit (origem 'dsl' from a panel session) with the answer shown before it.
    app.query<{ antes: ConsultaVendas; depois: ConsultaVendas }>(
      `SELECT antes, depois FROM (
         SELECT origem, criada_em, consulta AS depois,
                lag(consulta) OVER (PARTITION BY sessao ORDER BY id) AS antes
           FROM perguntas_registradas
          WHERE sessao IS NOT NULL AND criada_em >= $1::timestamptz - interval '1 day' AND criada_em < $2
       ) s
        WHERE origem = 'dsl' AND antes IS NOT NULL AND depois IS NOT NULL AND criada_em >= $1
        ORDER BY criada_em DESC
        LIMIT ${MAX_EDICOES}`,
      periodo,
    ),
    app.query<{ veredito: string; n: number }>(
      `SELECT veredito, count(*)::int AS n FROM consultas_livres
        WHERE origem = 'modelo' AND criada_em >= $1 AND criada_em < $2
        GROUP BY 1`,
      periodo,
    ),
    app.query<RegistroRow>(
      `SELECT p.id, p.pergunta, p.merchant_id, m.nome AS merchant_nome, p.desfecho, p.criada_em
         FROM perguntas_registradas p LEFT JOIN merchants m ON m.id = p.merchant_id
        WHERE p.origem = 'pergunta' AND p.pergunta IS NOT NULL
          AND p.criada_em >= $1 AND p.criada_em < $2
        ORDER BY p.criada_em DESC, p.id DESC
        LIMIT ${MAX_RECENTES}`,
      periodo,
    ),
  ]);

  const count = (atualRow: boolean, d: Desfecho) =>
    contagens.rows.find((r) => r.atual === atualRow && r.desfecho === d)?.n ?? 0;
  const total = DESFECHOS.reduce((s, d) => s + count(true, d), 0);
  const totalAnterior = DESFECHOS.reduce((s, d) => s + count(false, d), 0);
  const frac = (n: number, t: number) => (t === 0 ? 0 : n / t);

  const naoRespondidas: GrupoNaoRespondido[] = grupos.rows.map((g) => {
    const seen = new Set<string>();
    const exemplos = g.exemplos
      .map((e) => ({ ...e, criada_em: new Date(e.criada_em) }))
      .filter((e) => {
        const k = e.pergunta.trim();
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      })
      .slice(0, 3)
      .map((e) => toRegistrada(e, timeZone));
    return {
      chave: g.chave,
      quantidade: g.quantidade,
      lojistas: g.lojistas,
      ultimaVez: g.ultima.toISOString(),
      desfecho: g.desfecho,
      exemplos,
    };
  });

  const ranked = rankEdits(edicoes.rows);
  const veredito = (v: string) => livres.rows.find((r) => r.veredito === v)?.n ?? 0;
  return {
    de: input.de,
    ate: input.ate,
    timeZone,
    total,
    totalAnterior,
    desfechos: DESFECHOS.map((d) => ({
      desfecho: d,
      quantidade: count(true, d),
      fracao: frac(count(true, d), total),
      fracaoAnterior: totalAnterior === 0 ? null : frac(count(false, d), totalAnterior),
    })),
    fracaoRespondidas: frac(
      DESFECHOS_RESPONDIDOS.reduce((s, d) => s + count(true, d), 0),
      total,
    ),
    // Every day of the period, zero when nobody asked.
    porDia: datesInRange({ data_inicio: input.de, data_fim: input.ate }).map(
      (dia) => porDia.rows.find((r) => r.dia === dia) ?? { dia, total: 0, respondidas: 0 },
    ),
    naoRespondidas,
    edicoes: ranked.edicoes,
    totalEdicoes: ranked.total,
    sqlLivre: {
      aceitas: veredito('aceita'),
      recusadas: veredito('recusada'),
      falharam: veredito('falhou'),
    },
    recentes: recentes.rows.map((r) => toRegistrada(r, timeZone)),
  };
}
