/**
 * Agreement of the deterministic due-date reader (src-shared/due-dates.ts) with the hand-checked
 * corpus test/fixtures/due-dates.jsonl (issue #42.1):
 *
 *   npx tsx scripts/due-date-corpus.ts [--json]
 *
 * Each line: {texto, recebida_em (ISO instant), vencimento: "AAAA-MM-DD" | "AAAA-MM-DD..AAAA-MM-DD"
 * (a range, e.g. "semana que vem") | "sem data"}. Prints the agreement rate and every line that
 * disagrees. Exit code 1 when any line disagrees.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readDueDate } from '../src-shared/due-dates';

const file = resolve(import.meta.dirname, '../test/fixtures/due-dates.jsonl');
const lines = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim());
let ok = 0;
const erradas: { linha: number; texto: string; esperado: string; lido: string }[] = [];
for (const [i, l] of lines.entries()) {
  const c = JSON.parse(l) as { texto: string; recebida_em: string; vencimento: string };
  const r = readDueDate(c.texto, new Date(c.recebida_em));
  const lido = r === null ? 'sem data' : r.de === r.ate ? r.de : `${r.de}..${r.ate}`;
  if (lido === c.vencimento) ok++;
  else erradas.push({ linha: i + 1, texto: c.texto, esperado: c.vencimento, lido });
}
const taxa = lines.length ? ok / lines.length : 0;
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ linhas: lines.length, acertos: ok, taxa, erradas }));
} else {
  for (const e of erradas) {
    console.log(`linha ${e.linha}: «${e.texto}» esperado ${e.esperado}, lido ${e.lido}`);
  }
  console.log(
    `Concordância: ${ok}/${lines.length} (${(taxa * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%)`,
  );
}
process.exitCode = erradas.length ? 1 : 0;
