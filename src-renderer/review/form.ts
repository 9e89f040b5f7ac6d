import { chargeRules, normalizeDados } from '@shared/charge';
import { formatDocumento } from '@shared/documento';
import { agentText } from '@shared/rule-text';
import type { DadosCobranca, Metodo } from '@shared/extraction-types';
import { parseReaisToCentavos } from '@shared/money';

/** What the agent types: money in reais, everything as text until validated. */
export interface FormState {
  valor: string;
  parcelas: string;
  metodo: '' | Metodo;
  cliente_nome: string;
  vencimento: string;
  descricao: string;
  /** The payer's CPF/CNPJ, typed with or without punctuation (required for a boleto). */
  cliente_documento: string;
}

export function centavosToReaisText(c: number): string {
  return (c / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function formFromDados(d: DadosCobranca | null): FormState {
  return {
    valor: d?.valor_centavos != null ? centavosToReaisText(d.valor_centavos) : '',
    parcelas: d?.parcelas != null ? String(d.parcelas) : '',
    metodo: d?.metodo ?? '',
    cliente_nome: d?.cliente_nome ?? '',
    vencimento: d?.vencimento ?? '',
    descricao: d?.descricao ?? '',
    cliente_documento: d?.cliente_documento ? formatDocumento(d.cliente_documento) : '',
  };
}

/** The same text in every field (what the agent typed is what is saved). */
export function sameForm(a: FormState, b: FormState): boolean {
  return (Object.keys(a) as (keyof FormState)[]).every((k) => a[k].trim() === b[k].trim());
}

export interface FormCheck {
  dados: DadosCobranca;
  /** pt-BR messages per field: typing problems first, then the engine's rules. */
  errors: Record<string, string[]>;
  /** Fields still empty (a charge needs all five). */
  faltando: DadosCobranca['faltando'];
  /** No errors and nothing missing: a charge can be created. */
  ready: boolean;
}

/**
 * Turns the form into the seven tool fields (centavos from reais) and checks them with the
 * exact rules the extraction engine feeds back to the model (`chargeRules`), for `today`.
 */
export function checkForm(f: FormState, today: string): FormCheck {
  const errors: Record<string, string[]> = {};
  const add = (campo: string, msg: string) => (errors[campo] ??= []).push(msg);
  let valor: number | null = null;
  if (f.valor.trim()) {
    valor = parseReaisToCentavos(f.valor);
    if (valor === null) add('valor_centavos', 'Digite o valor em reais, como 150 ou 1.500,50.');
  }
  let parcelas: number | null = null;
  if (f.parcelas.trim()) {
    const t = f.parcelas.trim().replace(/x$/i, '');
    if (/^\d{1,3}$/.test(t)) parcelas = Number(t);
    else add('parcelas', 'Digite o número de parcelas, de 1 a 12.');
  }
  const dados = normalizeDados({
    valor_centavos: valor,
    parcelas,
    metodo: f.metodo || null,
    cliente_nome: f.cliente_nome,
    vencimento: f.vencimento,
    descricao: f.descricao,
    // Absent when blank (optional but on a boleto, where normalizeDados marks it missing).
    ...(f.cliente_documento.trim() ? { cliente_documento: f.cliente_documento } : {}),
  });
  for (const e of chargeRules(dados, { today })) {
    if (e.campo === 'faltando') continue; // derived by normalizeDados, never typed by the agent
    // Shown masked (#38.2): the server keeps the stored document for its own mask.
    if (e.campo === 'cliente_documento' && f.cliente_documento.includes('*')) continue;
    if (!errors[e.campo]?.length) add(e.campo || '', agentText(e));
  }
  return {
    dados,
    errors,
    faltando: dados.faltando,
    ready: Object.keys(errors).length === 0 && dados.faltando.length === 0,
  };
}
