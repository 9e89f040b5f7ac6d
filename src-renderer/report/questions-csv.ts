/**
 * CSV of the "Perguntas" report (pure: no DOM): one row per line of each table the screen
 * shows — outcomes, unanswered questions, chip edits — with a `secao` column to tell them apart.
 */
import { CAMPO_CHIP_LABELS, desfechoLabel, type QuestionsReport } from '@shared/contract/questions';
import { toCsv, type CsvColumn, type CsvFormat } from '../sales/csv';

interface Linha {
  secao: 'desfecho' | 'sem_resposta' | 'edicao_de_chip';
  item: string;
  detalhe: string;
  quantidade: number;
  percentual: number | null;
  lojistas: number | null;
  ultima_vez: string | null;
}

const COLUNAS: CsvColumn<Linha>[] = [
  { header: 'secao', kind: 'texto', value: (l) => l.secao },
  { header: 'item', kind: 'texto', value: (l) => l.item },
  { header: 'detalhe', kind: 'texto', value: (l) => l.detalhe },
  { header: 'quantidade', kind: 'numero', value: (l) => l.quantidade },
  { header: 'percentual', kind: 'numero', value: (l) => l.percentual },
  { header: 'lojistas', kind: 'numero', value: (l) => l.lojistas },
  { header: 'ultima_vez', kind: 'texto', value: (l) => l.ultima_vez },
];

const round1 = (f: number) => Math.round(f * 1000) / 10;

export function questionsCsv(r: QuestionsReport, format: CsvFormat): string {
  const linhas: Linha[] = [
    ...r.desfechos.map((d) => ({
      secao: 'desfecho' as const,
      item: desfechoLabel(d.desfecho),
      detalhe: d.desfecho,
      quantidade: d.quantidade,
      percentual: round1(d.fracao),
      lojistas: null,
      ultima_vez: null,
    })),
    ...r.naoRespondidas.map((g) => ({
      secao: 'sem_resposta' as const,
      item: g.chave,
      detalhe: g.exemplos.map((e) => e.pergunta).join(' | '),
      quantidade: g.quantidade,
      percentual: null,
      lojistas: g.lojistas,
      ultima_vez: g.ultimaVez,
    })),
    ...r.edicoes.flatMap((e) =>
      e.mudancas.map((m) => ({
        secao: 'edicao_de_chip' as const,
        item: CAMPO_CHIP_LABELS[e.campo],
        detalhe: `${m.antes} → ${m.depois}`,
        quantidade: m.quantidade,
        percentual: null,
        lojistas: null,
        ultima_vez: null,
      })),
    ),
  ];
  return toCsv(COLUNAS, linhas, format);
}

export function questionsCsvFileName(r: QuestionsReport): string {
  return `perguntas-${r.de}-a-${r.ate}.csv`;
}
