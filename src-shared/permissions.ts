/**
 * People and permissions (#18). A person's login is a member of one group role
 * (`balcao_<papel>`); what the role allows is decided by the database and mirrored here so the
 * IPC wrapper can refuse, and the UI can hide, what the person may not do.
 */
export const PAPEIS = ['suporte', 'financeiro', 'supervisor'] as const;
export type Papel = (typeof PAPEIS)[number];

/**
 * fila: the review queue and charges (suporte, supervisor)
 * vendas: the sales panel and its questions report (financeiro, supervisor)
 * supervisao: reopening, undo, taking over another person's item; changing this computer's
 *   settings and API key (supervisor)
 */
export const PERMISSOES = ['fila', 'vendas', 'supervisao'] as const;
export type Permissao = (typeof PERMISSOES)[number];

/** Each role: its name for people and what it may do. */
const PAPEL: Record<Papel, { label: string; permissoes: readonly Permissao[] }> = {
  suporte: { label: 'Suporte', permissoes: ['fila'] },
  financeiro: { label: 'Financeiro', permissoes: ['vendas'] },
  supervisor: { label: 'Supervisor', permissoes: ['fila', 'vendas', 'supervisao'] },
};

/** A person's roles as people read them ("Suporte, Supervisor"); '' for none. */
export function papeisLabel(papeis: readonly Papel[]): string {
  return papeis.map((p) => PAPEL[p].label).join(', ');
}

/** Every permission of a set of roles, in PERMISSOES order. */
export function permissoesDe(papeis: readonly Papel[]): Permissao[] {
  const s = new Set(papeis.flatMap((p) => PAPEL[p].permissoes));
  return PERMISSOES.filter((p) => s.has(p));
}

/** What a refused call says, per missing permission (pt-BR). */
export const NEGADO: Record<Permissao, string> = {
  fila: 'Seu papel não inclui a fila de revisão (suporte ou supervisor).',
  vendas: 'Seu papel não inclui o painel de vendas (financeiro ou supervisor).',
  supervisao: 'Só um supervisor pode fazer isso.',
};
