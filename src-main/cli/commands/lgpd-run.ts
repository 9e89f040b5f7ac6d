/**
 * `balcao lgpd …` (#38.3, #38.4). People's logins need the supervisor role; Balcão's own login
 * may all, with BALCAO_OPERATOR in the audit.
 */
import { AppError } from '@shared/errors';
import { identify } from '../../people/session';
import {
  formatRetention,
  retentionCutoff,
  retentionDays,
  runRetention,
  simulateRetention,
  totalOf,
} from '../../lgpd/retention';
import { anonymiseSubject, exportSubject, planAnonymise, titularOf } from '../../lgpd/subject';
import type { CliContext } from '../context';
import { CliError, confirmOrSim } from '../io';

export interface TitularOpts {
  documento?: string;
  telefone?: string;
  email?: string;
  json?: boolean;
}

async function operadorSupervisor(c: CliContext): Promise<string> {
  const dbs = await c.databases();
  const id = await identify(dbs.app);
  if (!id.papeis.length) return c.settings.get().operator;
  if (!id.papeis.includes('supervisor')) {
    throw new AppError('acesso_negado', 'Seu papel não permite isto (precisa de: supervisor).');
  }
  return id.login;
}

const titularInput = (o: TitularOpts) => ({
  ...(o.documento !== undefined ? { documento: o.documento } : {}),
  ...(o.telefone !== undefined ? { telefone: o.telefone } : {}),
  ...(o.email !== undefined ? { email: o.email } : {}),
});

/** The titular's options checked before any database is opened (usage error: exit 2). */
function checkedTitular(o: TitularOpts) {
  try {
    return titularOf(titularInput(o));
  } catch (e) {
    throw new CliError(e instanceof Error ? e.message : String(e), 2);
  }
}

export async function lgpdRetencao(
  c: CliContext,
  opts: { simular?: boolean; lote: number; json?: boolean },
): Promise<void> {
  let dias: number;
  try {
    dias = retentionDays(c.env);
  } catch (e) {
    throw new CliError(e instanceof Error ? e.message : String(e), 2);
  }
  await operadorSupervisor(c);
  const dbs = await c.databases();
  const antes = retentionCutoff(c.clock, dias);
  const tabelas = opts.simular
    ? await simulateRetention(dbs.app, antes)
    : await runRetention(dbs.app, { antes, lote: opts.lote });
  c.io.out(
    opts.json
      ? JSON.stringify({
          simulada: Boolean(opts.simular),
          dias,
          antes_de: antes.toISOString(),
          total: totalOf(tabelas),
          tabelas,
        })
      : formatRetention(tabelas, Boolean(opts.simular), dias),
  );
}

export async function lgpdExportar(c: CliContext, opts: TitularOpts): Promise<void> {
  checkedTitular(opts);
  const operador = await operadorSupervisor(c);
  const dbs = await c.databases();
  const out = await exportSubject(dbs.app, titularInput(opts), { operador, clock: c.clock });
  // The export is JSON whatever the flag: it is what the data subject receives.
  c.io.out(JSON.stringify(out, null, opts.json ? undefined : 2));
}

export async function lgpdAnonimizar(
  c: CliContext,
  opts: TitularOpts & { sim?: boolean },
): Promise<void> {
  const titular = checkedTitular(opts);
  const operador = await operadorSupervisor(c);
  const dbs = await c.databases();
  const plan = await planAnonymise(dbs.app, titularInput(opts));
  if (!plan.origens.length) {
    c.io.out(
      opts.json
        ? JSON.stringify({ ...plan, campos: 0 })
        : `Nada a anonimizar: o Balcão não guarda dados de ${titular.rotulo}.`,
    );
    return;
  }
  if (!opts.json) {
    c.io.out(
      [
        `Dados de ${titular.rotulo} que serão trocados por «[anonimizado: titular]»:`,
        ...plan.origens.map((o) => `  ${o.tabela} #${o.id} — ${o.campo}`),
      ].join('\n'),
    );
  }
  const n = plan.origens.length;
  const q = `Anonimizar ${n === 1 ? '1 campo' : `${n} campos`} de ${titular.rotulo}? Não há como desfazer.`;
  if (!(await confirmOrSim(c.io, q, opts.sim))) throw new CliError('Nada foi alterado.', 1);
  const r = await anonymiseSubject(dbs.app, titularInput(opts), { operador });
  c.io.out(
    opts.json
      ? JSON.stringify(r)
      : `${r.campos === 1 ? '1 campo anonimizado' : `${r.campos} campos anonimizados`} (auditado).`,
  );
}
