/**
 * Precision and recall of the LGPD masking (src-shared/pii.ts) on the corpus
 * test/fixtures/pii-corpus.jsonl (#38; regenerate it with scripts/pii-corpus-gen.ts):
 *
 *   npx tsx scripts/pii-corpus.ts [--json]
 *
 * Per kind: found as labelled (kind and exact span), missed, and found where nothing was
 * labelled; plus every near-miss (amount, date, time, CEP, order number) altered by the masking.
 * Exit code 1 when recall is under 99% for CPF/CNPJ/card/e-mail/phone or a near-miss changed.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findPii, minimizePii, PII_KINDS, type PiiKind } from '../src-shared/pii';

export interface CorpusLine {
  texto: string;
  dados: { tipo: PiiKind; valor: string }[];
  preservar: string[];
}

export interface KindScore {
  rotulados: number;
  acertos: number;
  encontrados: number;
  precisao: number;
  recall: number;
}

export interface CorpusScore {
  mensagens: number;
  porTipo: Record<PiiKind, KindScore>;
  perdidos: { linha: number; tipo: PiiKind; valor: string }[];
  aMais: { linha: number; tipo: PiiKind; valor: string }[];
  alterados: { linha: number; valor: string }[];
}

/** Kinds whose recall the issue bounds (≥ 99%). */
export const RECALL_BOUNDED: readonly PiiKind[] = ['CPF', 'CNPJ', 'CARTAO', 'EMAIL', 'TELEFONE'];

export function readCorpus(
  file = resolve(import.meta.dirname, '../test/fixtures/pii-corpus.jsonl'),
): CorpusLine[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as CorpusLine);
}

export function scoreCorpus(lines: readonly CorpusLine[]): CorpusScore {
  const count = Object.fromEntries(
    PII_KINDS.map((k) => [k, { rotulados: 0, acertos: 0, encontrados: 0 }]),
  ) as Record<PiiKind, { rotulados: number; acertos: number; encontrados: number }>;
  const perdidos: CorpusScore['perdidos'] = [];
  const aMais: CorpusScore['aMais'] = [];
  const alterados: CorpusScore['alterados'] = [];
  for (const [i, l] of lines.entries()) {
    const found = findPii(l.texto);
    const left = [...found];
    for (const d of l.dados) {
      count[d.tipo].rotulados++;
      const j = left.findIndex((f) => f.kind === d.tipo && f.value === d.valor);
      if (j >= 0) {
        count[d.tipo].acertos++;
        left.splice(j, 1);
      } else {
        perdidos.push({ linha: i + 1, tipo: d.tipo, valor: d.valor });
      }
    }
    for (const f of found) count[f.kind].encontrados++;
    for (const f of left) aMais.push({ linha: i + 1, tipo: f.kind, valor: f.value });
    const masked = minimizePii(l.texto).texto;
    for (const p of l.preservar)
      if (!masked.includes(p)) alterados.push({ linha: i + 1, valor: p });
  }
  const porTipo = Object.fromEntries(
    PII_KINDS.map((k) => {
      const c = count[k];
      return [
        k,
        {
          ...c,
          precisao: c.encontrados ? c.acertos / c.encontrados : 1,
          recall: c.rotulados ? c.acertos / c.rotulados : 1,
        },
      ];
    }),
  ) as Record<PiiKind, KindScore>;
  return { mensagens: lines.length, porTipo, perdidos, aMais, alterados };
}

function pct(x: number): string {
  return `${(x * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;
}

function main(): void {
  const s = scoreCorpus(readCorpus());
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(s));
  } else {
    console.log(`${s.mensagens} mensagens`);
    for (const k of PII_KINDS) {
      const c = s.porTipo[k];
      console.log(
        `${k.padEnd(10)} rotulados ${String(c.rotulados).padStart(4)}  acertos ${String(c.acertos).padStart(4)}  encontrados ${String(c.encontrados).padStart(4)}  precisão ${pct(c.precisao)}  recall ${pct(c.recall)}`,
      );
    }
    for (const p of s.perdidos) console.log(`perdido (linha ${p.linha}): ${p.tipo} ${p.valor}`);
    for (const p of s.aMais) console.log(`a mais (linha ${p.linha}): ${p.tipo} ${p.valor}`);
    for (const p of s.alterados) console.log(`alterado (linha ${p.linha}): ${p.valor}`);
    console.log(`quase-dados alterados: ${s.alterados.length}`);
  }
  const low = RECALL_BOUNDED.some((k) => s.porTipo[k].recall < 0.99);
  process.exitCode = low || s.alterados.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
