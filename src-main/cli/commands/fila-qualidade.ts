/**
 * `balcao fila qualidade [--json]` (#39.4): the measured accuracy of the extraction per field and
 * per (model, prompt version), each with its Wilson 95% interval — the very figures of the
 * report's "Qualidade" tab, from the same service function. Supervisors only: a person's login
 * without the role is refused as the window refuses the channel; Balcão's service login may.
 */
import type { QualityReport } from '@shared/contract/quality';
import { AppError } from '@shared/errors';
import { NEGADO, permissoesDe } from '@shared/permissions';
import { ROTULO_CAMPO_QUALIDADE } from '@shared/quality';
import { identify } from '../../people/session';
import { qualityReport } from '../../quality/review';
import type { CliContext } from '../context';
import { printResult } from '../output';

const pctTexto = (x: number) => `${x.toLocaleString('pt-BR', { maximumFractionDigits: 2 })}%`;

function table(head: string[], rows: string[][]): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => '  ' + r.map((c, i) => c.padEnd(w[i]!)).join('  ');
  return [line(head), ...rows.map(line)];
}

/** The human (pt-BR) rendering of the report. */
export function formatQualityReport(r: QualityReport): string {
  const lines = [
    'Qualidade da extração (amostras julgadas por supervisores)',
    `Amostragem: ${pctTexto(r.percentual)} das cobranças; as primeiras ${r.inicial} de cada modelo e versão do prompt, todas. Amostras esperando julgamento: ${r.pendentes}.`,
  ];
  if (r.versoes.length === 0) {
    lines.push('', 'Nenhuma cobrança foi sorteada ainda.');
    return lines.join('\n');
  }
  for (const v of r.versoes) {
    lines.push(
      '',
      `Modelo ${v.modelo || '(desconhecido)'} · prompt ${v.versaoPrompt || '(anterior)'} — ${v.julgadas} de ${v.amostras} amostras julgadas`,
      ...table(
        ['Campo', 'Acerto (IC 95%)'],
        [
          ...v.campos.map((c) => [ROTULO_CAMPO_QUALIDADE[c.campo], c.texto]),
          ['Todos os campos', v.todosCampos.texto],
          ['Cobrança inteira certa', v.cobrancasCorretas.texto],
        ],
      ),
      `  Erro das cobranças automáticas: ${v.errosAutomaticas.texto}`,
    );
  }
  return lines.join('\n');
}

export async function filaQualidade(c: CliContext, opts: { json?: boolean }): Promise<void> {
  const dbs = await c.databases();
  const id = await identify(dbs.app);
  if (id.papeis.length > 0 && !permissoesDe(id.papeis).includes('supervisao')) {
    throw new AppError('acesso_negado', NEGADO.supervisao);
  }
  const r = await qualityReport(dbs.app, c.settings.get().amostraQualidade);
  printResult(c, opts.json, r, () => formatQualityReport(r));
}
