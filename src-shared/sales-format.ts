/**
 * The answer and the interpretation of a sales question, written by code (never by the model)
 * in pt-BR. Pure: the renderer can use the same labels and templates.
 */
import { formatBRL } from './money';
import { periodoLabel } from './periods';
import {
  MODALIDADES,
  type Agrupamento,
  type Bandeira,
  type ConsultaVendas,
  type DiaDaSemana,
  type LinhaVenda,
  type Metrica,
  type Modalidade,
  type PartesResposta,
} from './sales-dsl';
import { formatDateBR, weekdayName } from './time';

export const METRICA_LABELS: Record<Metrica, string> = {
  total_bruto: 'total bruto',
  total_liquido: 'total líquido',
  quantidade: 'quantidade de vendas',
  ticket_medio: 'ticket médio',
};

const METRICA_DESCRICAO: Record<Metrica, string> = {
  total_bruto: 'total bruto (valor vendido, antes das taxas)',
  total_liquido: 'total líquido (valor a receber, depois das taxas)',
  quantidade: 'quantidade de vendas',
  ticket_medio: 'ticket médio (total bruto dividido pela quantidade de vendas)',
};

export const MODALIDADE_LABELS: Record<Modalidade, string> = {
  debito: 'débito',
  credito_avista: 'crédito à vista',
  credito_parcelado: 'crédito parcelado',
  pix: 'Pix',
};

export const BANDEIRA_LABELS: Record<Bandeira, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  elo: 'Elo',
  amex: 'American Express',
  hipercard: 'Hipercard',
};

export const DIA_DA_SEMANA_LABELS: Record<DiaDaSemana, string> = {
  segunda: 'segunda-feira',
  terca: 'terça-feira',
  quarta: 'quarta-feira',
  quinta: 'quinta-feira',
  sexta: 'sexta-feira',
  sabado: 'sábado',
  domingo: 'domingo',
};

export const AGRUPAMENTO_LABELS: Record<Agrupamento, string> = {
  nenhum: 'sem agrupamento',
  dia: 'dia',
  mes: 'mês',
  modalidade: 'modalidade',
  bandeira: 'bandeira',
  dia_da_semana: 'dia da semana',
  hora: 'hora do dia',
};

const MESES = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
];

/** Most group lines written into the answer text (every row stays in `linhas`). */
export const MAX_LINHAS_NO_TEXTO = 40;

const inteiro = new Intl.NumberFormat('pt-BR');
const percentual = new Intl.NumberFormat('pt-BR', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** A share as people read it, one decimal: 0.253 → "25,3%". */
export function formatPercentual(fracao: number): string {
  return percentual.format(fracao);
}

/** The text with its first letter in upper case (a label that opens a sentence or a header). */
export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function isModalidade(s: string): s is Modalidade {
  return (MODALIDADES as readonly string[]).includes(s);
}

/** A result value for people: money, a count, or "sem vendas". */
export function formatValor(metrica: Metrica, valor: number | null): string {
  if (valor === null) return 'sem vendas';
  if (metrica === 'quantidade')
    return `${inteiro.format(valor)} ${valor === 1 ? 'venda' : 'vendas'}`;
  return formatBRL(valor);
}

/** A group code for people ("2026-03-14" → "14/03/2026 (sábado)", "pix" → "Pix"). */
export function formatGrupo(agrupar: Agrupamento, grupo: string | null): string {
  switch (agrupar) {
    case 'nenhum':
      return 'total';
    case 'dia':
      return grupo ? `${formatDateBR(grupo)} (${weekdayName(grupo)})` : '';
    case 'mes': {
      if (!grupo) return '';
      const [y, m] = grupo.split('-');
      return `${MESES[Number(m) - 1] ?? m} de ${y}`;
    }
    case 'modalidade':
      return grupo && isModalidade(grupo) ? MODALIDADE_LABELS[grupo] : (grupo ?? '');
    case 'bandeira':
      return grupo === null ? 'sem bandeira (Pix)' : (BANDEIRA_LABELS[grupo as Bandeira] ?? grupo);
    case 'dia_da_semana':
      return DIA_DA_SEMANA_LABELS[grupo as DiaDaSemana] ?? grupo ?? '';
    case 'hora': {
      const h = Number(grupo);
      return `${h}h–${h + 1}h`;
    }
  }
}

/** "de 09/03/2026 a 15/03/2026" or "em 15/03/2026". */
export function formatPeriodo(q: Pick<ConsultaVendas, 'data_inicio' | 'data_fim'>): string {
  return q.data_inicio === q.data_fim
    ? `em ${formatDateBR(q.data_inicio)}`
    : `de ${formatDateBR(q.data_inicio)} a ${formatDateBR(q.data_fim)}`;
}

function formatModalidades(mods: Modalidade[]): string {
  if (mods.length === 0 || mods.length === MODALIDADES.length) return 'todas';
  return mods.map((m) => MODALIDADE_LABELS[m]).join(', ');
}

/**
 * What our code considered, for the user to check:
 * "Considerei vendas aprovadas de 10/03/2026 a 16/03/2026, modalidades: crédito à vista, crédito
 * parcelado. Métrica: total bruto (…), por dia."
 */
export function formatInterpretacao(q: ConsultaVendas): string {
  const periodo = q.periodo ? ` (${periodoLabel(q.periodo)})` : '';
  const first = `Considerei vendas aprovadas ${formatPeriodo(q)}${periodo}, modalidades: ${formatModalidades(q.modalidades)}.`;
  let second = `Métrica: ${METRICA_DESCRICAO[q.metrica]}`;
  if (q.agrupar_por !== 'nenhum') second += `, por ${AGRUPAMENTO_LABELS[q.agrupar_por]}`;
  if (q.ordem) {
    const maior = q.ordem === 'decrescente';
    if (q.limite === 1) second += maior ? ', só o maior' : ', só o menor';
    else if (q.limite !== null) second += `, os ${q.limite} ${maior ? 'maiores' : 'menores'}`;
    else second += maior ? ', do maior para o menor' : ', do menor para o maior';
  }
  return `${first} ${second}.`;
}

const DESTAQUE_NOME: Record<Exclude<Agrupamento, 'nenhum'>, string> = {
  dia: 'dia',
  mes: 'mês',
  modalidade: 'modalidade',
  bandeira: 'bandeira',
  dia_da_semana: 'dia da semana',
  hora: 'horário',
};

/** The answer text (the CLI's and the log's): the parts, one per line, groups as bullets. */
export function textoDaResposta(p: PartesResposta): string {
  return [
    ...(p.titulo !== null ? [p.titulo] : []),
    ...p.itens.map((i) => `• ${i}`),
    ...(p.maisItens > 0 ? [`… e mais ${p.maisItens} linhas.`] : []),
    ...p.frases,
  ].join('\n');
}

/** The answer, in pt-BR, from the rows our SQL computed. */
export function formatResposta(q: ConsultaVendas, linhas: LinhaVenda[]): string {
  return textoDaResposta(formatPartesResposta(q, linhas));
}

/** The answer's parts, in pt-BR, from the rows our SQL computed. */
export function formatPartesResposta(q: ConsultaVendas, linhas: LinhaVenda[]): PartesResposta {
  const periodo = formatPeriodo(q);
  const metrica = METRICA_LABELS[q.metrica];
  const frase = (f: string): PartesResposta => ({
    titulo: null,
    itens: [],
    maisItens: 0,
    frases: [f],
  });

  if (q.agrupar_por === 'nenhum') {
    const valor = linhas[0]?.valor ?? null;
    if (valor === null) {
      return frase(`Não houve vendas aprovadas ${periodo}, então não há ${metrica}.`);
    }
    if (q.metrica === 'quantidade' && valor === 0)
      return frase(`Não houve vendas aprovadas ${periodo}.`);
    return frase(`${capitalize(metrica)} ${periodo}: ${formatValor(q.metrica, valor)}.`);
  }
  const agrupar = q.agrupar_por;
  const comValor = linhas.filter((l) => l.valor !== null && l.valor !== 0);
  // Shares and the period total need every group: not when the rows were cut by a limit.
  const completa = q.limite === null;
  const semVendas =
    linhas.length === 0 ||
    (completa &&
      ((q.metrica === 'quantidade' && comValor.length === 0) ||
        (q.metrica === 'ticket_medio' && linhas.every((l) => l.valor === null))));
  if (semVendas) return frase(`Não houve vendas aprovadas ${periodo}.`);

  const aditiva = q.metrica !== 'ticket_medio';
  const total = aditiva && completa ? linhas.reduce((s, l) => s + (l.valor ?? 0), 0) : null;
  const mostraParticipacao =
    total !== null && total > 0 && (agrupar === 'modalidade' || agrupar === 'bandeira');

  const itens = linhas.slice(0, MAX_LINHAS_NO_TEXTO).map((l) => {
    const share =
      mostraParticipacao && l.valor !== null ? ` (${formatPercentual(l.valor / total)})` : '';
    return `${formatGrupo(agrupar, l.grupo)}: ${formatValor(q.metrica, l.valor)}${share}`;
  });
  const out: string[] = [];
  if (total !== null) out.push(`Total ${periodo}: ${formatValor(q.metrica, total)}.`);

  // Highlight: the best (or, when asked in ascending order, the worst) group.
  const menor = q.ordem === 'crescente';
  let destaque: LinhaVenda | undefined;
  for (const l of menor ? linhas.filter((x) => x.valor !== null) : comValor) {
    if (
      !destaque ||
      (menor ? (l.valor ?? 0) < (destaque.valor ?? 0) : (l.valor ?? 0) > (destaque.valor ?? 0))
    ) {
      destaque = l;
    }
  }
  if (destaque) {
    const nome = DESTAQUE_NOME[agrupar];
    const rotulo = formatGrupo(agrupar, destaque.grupo);
    const valor = formatValor(q.metrica, destaque.valor);
    if (mostraParticipacao && !menor) {
      out.push(
        `Maior participação: ${rotulo}, com ${formatPercentual((destaque.valor ?? 0) / total)} do total.`,
      );
    } else {
      out.push(`${menor ? 'Pior' : 'Melhor'} ${nome}: ${rotulo}, com ${valor}.`);
    }
  }
  return {
    titulo: `${capitalize(metrica)} por ${AGRUPAMENTO_LABELS[agrupar]} ${periodo}:`,
    itens,
    maisItens: Math.max(0, linhas.length - MAX_LINHAS_NO_TEXTO),
    frases: out,
  };
}
