import {
  CAMPO_CHIP_LABELS,
  desfechoLabel,
  QuestionsReportInput,
  type QuestionsReport,
} from '@shared/contract/questions';
import { addDays, formatDateBR, localDate } from '@shared/time';
import { issueList } from '@shared/validation';
import { questionsReport } from '../../sales/questions-report';
import type { CliContext } from '../context';
import { CliError } from '../io';

export interface PerguntasOptions {
  desde?: string;
  ate?: string;
  json?: boolean;
}

const pct = (f: number) =>
  `${(f * 100).toLocaleString('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`;

const when = (iso: string, zone: string) =>
  new Date(iso).toLocaleString('pt-BR', {
    timeZone: zone,
    dateStyle: 'short',
    timeStyle: 'short',
  });

/** The report as people read it in a terminal. */
export function formatQuestionsReport(r: QuestionsReport): string {
  const out = [
    `Perguntas de ${formatDateBR(r.de)} a ${formatDateBR(r.ate)} (fuso ${r.timeZone}): ${r.total} pergunta(s), ${pct(r.fracaoRespondidas)} respondidas; período anterior de mesma duração: ${r.totalAnterior}.`,
    '',
    `${'Desfecho'.padEnd(48)} ${'Qtde'.padStart(6)} ${'%'.padStart(7)} ${'anterior'.padStart(9)}`,
  ];
  for (const d of r.desfechos) {
    out.push(
      `${desfechoLabel(d.desfecho).padEnd(48)} ${String(d.quantidade).padStart(6)} ${pct(d.fracao).padStart(7)} ${(d.fracaoAnterior === null ? '—' : pct(d.fracaoAnterior)).padStart(9)}`,
    );
  }
  const s = r.sqlLivre;
  out.push(
    '',
    `SQL livre escrito pelo modelo: ${s.aceitas} aceito(s), ${s.recusadas} recusado(s) pela guarda, ${s.falharam} com falha.`,
    '',
  );
  if (r.naoRespondidas.length === 0) {
    out.push('Nenhuma pergunta sem resposta no período.');
  } else {
    out.push('Perguntas sem resposta mais frequentes:');
    for (const g of r.naoRespondidas) {
      out.push(
        `  ${String(g.quantidade).padStart(4)}×  "${g.chave}" — ${g.lojistas} lojista(s), última em ${when(g.ultimaVez, r.timeZone)} — ${desfechoLabel(g.desfecho)}`,
      );
      for (const e of g.exemplos) {
        out.push(
          `         ex.: ${JSON.stringify(e.pergunta)} (#${e.id}, lojista ${e.merchantId}, ${formatDateBR(e.dia)})`,
        );
      }
    }
  }
  out.push('');
  if (r.edicoes.length === 0) {
    out.push('Nenhum chip editado depois de uma resposta no período.');
  } else {
    out.push(`Chips mais editados depois de uma resposta (${r.totalEdicoes} edição(ões)):`);
    for (const e of r.edicoes) {
      const mudancas = e.mudancas
        .map((m) => `${m.antes} → ${m.depois} (${m.quantidade})`)
        .join('; ');
      out.push(`  ${CAMPO_CHIP_LABELS[e.campo]} (${e.quantidade}): ${mudancas}`);
    }
  }
  return out.join('\n');
}

export async function perguntasAction(
  ctx: () => CliContext,
  opts: PerguntasOptions,
): Promise<void> {
  const c = ctx();
  const zone = c.settings.get().timeZone;
  const hoje = localDate(c.clock.now(), zone);
  const parsed = QuestionsReportInput.safeParse({
    de: opts.desde ?? addDays(opts.ate ?? hoje, -29),
    ate: opts.ate ?? hoje,
  });
  if (!parsed.success) {
    throw new CliError(issueList(parsed.error).join(' '), 2);
  }
  const dbs = await c.databases();
  const r = await questionsReport(dbs.app, parsed.data, zone);
  c.io.out(opts.json ? JSON.stringify(r) : formatQuestionsReport(r));
}
