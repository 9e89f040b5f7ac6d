/**
 * `balcao lojistas contatos …` (#37). People's logins act with their roles: adding and removing
 * a number need a supervisor; Balcão's own login may all, with BALCAO_OPERATOR in the audit.
 */
import { AppError } from '@shared/errors';
import { identify } from '../../people/session';
import { addContato, listContatos, removeContato, type Contato } from '../../whatsapp/contacts';
import type { CliContext } from '../context';
import { printResult } from '../output';

async function operadorSupervisor(c: CliContext): Promise<string> {
  const dbs = await c.databases();
  const id = await identify(dbs.app);
  if (!id.papeis.length) return c.settings.get().operator;
  if (!id.papeis.includes('supervisor')) {
    throw new AppError('acesso_negado', 'Seu papel não permite isto (precisa de: supervisor).');
  }
  return id.login;
}

const contatoJson = (x: Contato) => ({
  telefone: x.telefone,
  merchant_id: x.merchant_id,
  lojista: x.lojista,
  criado_em: x.criado_em,
  criado_por: x.criado_por,
});

export async function contatosAdicionar(
  c: CliContext,
  opts: { merchant: number; telefone: string; json?: boolean },
): Promise<void> {
  const operador = await operadorSupervisor(c);
  const dbs = await c.databases();
  const r = await addContato(dbs.app, opts.merchant, opts.telefone, operador);
  printResult(c, opts.json, { ...contatoJson(r.contato), criado: r.criado }, () =>
    r.criado
      ? `Telefone ${r.contato.telefone} cadastrado para o lojista #${r.contato.merchant_id} (${r.contato.lojista}).`
      : `O telefone ${r.contato.telefone} já era do lojista #${r.contato.merchant_id} (${r.contato.lojista}); nada mudou.`,
  );
}

export async function contatosRemover(
  c: CliContext,
  opts: { merchant: number; telefone: string; json?: boolean },
): Promise<void> {
  const operador = await operadorSupervisor(c);
  const dbs = await c.databases();
  const r = await removeContato(dbs.app, opts.merchant, opts.telefone, operador);
  printResult(
    c,
    opts.json,
    { ...r, removido: true },
    () => `Telefone ${r.telefone} removido do lojista #${r.merchant_id}.`,
  );
}

export async function contatosListar(
  c: CliContext,
  opts: { merchant?: number; json?: boolean },
): Promise<void> {
  const dbs = await c.databases();
  const rows = await listContatos(dbs.app, opts.merchant);
  printResult(c, opts.json, { contatos: rows.map(contatoJson) }, () =>
    rows.length
      ? rows
          .map((x) => `#${x.merchant_id}  ${x.lojista}  ${x.telefone}  (por ${x.criado_por})`)
          .join('\n')
      : opts.merchant !== undefined
        ? `O lojista #${opts.merchant} não tem número de WhatsApp cadastrado.`
        : 'Nenhum número de WhatsApp cadastrado.',
  );
}
