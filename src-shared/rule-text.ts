/**
 * What an agent reads about a failed rule. The rule messages (`charge-schema.ts`, `charge.ts`)
 * are written for the model (field identifiers, centavos, "Lembre: 150 reais = 15000"): they stay
 * in the model's messages and in the database. Screens show these texts instead — field names as
 * on the form, money as money, no hints meant for the model — and a label in place of the rule
 * code.
 */
import type { RuleError } from './extraction-types';

const NBSP = '\u00a0';

/** The form's name of a charge field. */
const FIELD: Record<string, string> = {
  valor_centavos: 'Valor',
  parcelas: 'Parcelas',
  metodo: 'Forma de pagamento',
  cliente_nome: 'Cliente',
  vencimento: 'Vencimento',
  descricao: 'Descrição',
  cliente_documento: 'CPF/CNPJ do pagador',
  faltando: 'Faltando',
};

/** A short name for each rule (the report's "Regra" column, the timeline). */
export const RULE_LABEL: Record<string, string> = {
  objeto: 'Resposta sem os dados da cobrança',
  campo_desconhecido: 'Campo que não existe na cobrança',
  campo_obrigatorio: 'Campo não respondido',
  valor_inteiro: 'Valor ilegível',
  valor_faixa: 'Valor fora da faixa aceita',
  parcelas_inteiro: 'Parcelas ilegíveis',
  parcelas_faixa: 'Parcelas fora de 1 a 12',
  metodo_invalido: 'Forma de pagamento desconhecida',
  parcelas_pix_boleto: 'Parcelamento em Pix ou boleto',
  cliente_nome_texto: 'Cliente ilegível',
  cliente_nome_vazio: 'Cliente em branco',
  cliente_nome_tamanho: 'Cliente longo demais',
  descricao_texto: 'Descrição ilegível',
  descricao_vazio: 'Descrição em branco',
  descricao_tamanho: 'Descrição longa demais',
  cliente_documento_invalido: 'CPF/CNPJ inválido',
  cliente_documento_texto: 'CPF/CNPJ ilegível',
  faltando_documento_opcional: 'CPF/CNPJ marcado como faltando fora do boleto',
  vencimento_invalido: 'Vencimento ilegível',
  vencimento_passado: 'Vencimento no passado',
  faltando_lista: 'Lista de campos faltando malformada',
  faltando_desconhecido: 'Lista de campos faltando malformada',
  faltando_repetido: 'Lista de campos faltando malformada',
  faltando_sem_campo_nulo: 'Campo vazio não marcado como faltando',
  faltando_com_valor: 'Campo preenchido marcado como faltando',
  formato: 'Formato da resposta',
  obrigatorio_para_criar: 'Campo obrigatório para criar a cobrança',
  modelo: 'O modelo não respondeu',
};

export function ruleLabel(regra: string): string {
  return RULE_LABEL[regra] ?? regra.replace(/_/g, ' ');
}

/** Keeps "R$" with its number on one line. */
export function glueMoney(s: string): string {
  return s.replace(/R\$ (?=-?\d)/g, `R$${NBSP}`);
}

/** The form's name of a charge field ("Forma de pagamento"); an unknown field as it is. */
export function fieldLabel(campo: string): string {
  return FIELD[campo] ?? campo;
}

/** The first field identifier a model message names (for the faltando rules). */
function namedField(mensagem: string): string | null {
  const m = /^(valor_centavos|parcelas|metodo|cliente_nome|vencimento|descricao)\b/.exec(mensagem);
  return m ? (m[1] ?? null) : null;
}

/** The agent's text of one failed rule. */
export function agentText(e: Pick<RuleError, 'campo' | 'regra' | 'mensagem'>): string {
  const msg = e.mensagem;
  switch (e.regra) {
    case 'valor_faixa': {
      const got = /recebido (R\$\s[\d.,]+|-?\d+)/.exec(msg)?.[1];
      return glueMoney(
        `O valor deve ficar entre R$ 1,00 e R$ 100.000,00${got ? `; recebido ${got.startsWith('R$') ? got : `${got} centavos`}` : ''}.`,
      );
    }
    case 'valor_inteiro':
      return 'O modelo não devolveu um valor em reais e centavos que se possa ler.';
    case 'cliente_documento_invalido':
      return 'CPF ou CNPJ inválido: confira os dígitos (o CPF tem 11 números; o CNPJ, 14 caracteres, e pode ter letras nos 12 primeiros).';
    case 'cliente_documento_texto':
      return 'O CPF/CNPJ do pagador não veio como texto.';
    case 'faltando_documento_opcional':
      return 'O CPF/CNPJ só é obrigatório no boleto; nesta forma de pagamento ele pode ficar em branco.';
    case 'parcelas_inteiro':
    case 'parcelas_faixa': {
      const got = /recebido (.+)\.$/.exec(msg)?.[1];
      return `As parcelas precisam ser de 1 a 12${got ? `; veio ${got}` : ''}.`;
    }
    case 'parcelas_pix_boleto':
      return 'Pix e boleto aceitam só 1 parcela. Parcelamento só no cartão.';
    case 'metodo_invalido':
      return 'A forma de pagamento precisa ser Pix, boleto ou cartão.';
    case 'vencimento_passado': {
      const dates = msg.match(/\d{2}\/\d{2}\/\d{4}/g) ?? [];
      return dates[0]
        ? `O vencimento ${dates[0]} já passou${dates[1] ? ` (hoje é ${dates[1]})` : ''}.`
        : 'O vencimento já passou.';
    }
    case 'vencimento_invalido':
      return 'O vencimento não é uma data válida.';
    case 'campo_obrigatorio':
      return e.campo
        ? `O modelo não respondeu o campo ${fieldLabel(e.campo)}.`
        : 'O modelo deixou de responder um campo.';
    case 'campo_desconhecido':
    case 'objeto':
    case 'formato':
    case 'faltando_lista':
    case 'faltando_desconhecido':
    case 'faltando_repetido':
      return 'A resposta do modelo veio fora do formato esperado.';
    case 'faltando_sem_campo_nulo': {
      const f = namedField(msg);
      return `O campo ${f ? fieldLabel(f) : 'sem nome'} veio vazio sem estar marcado como faltando.`;
    }
    case 'faltando_com_valor': {
      const f = namedField(msg);
      return `O campo ${f ? fieldLabel(f) : 'sem nome'} veio preenchido e também marcado como faltando.`;
    }
    default:
      if (e.regra.endsWith('_vazio')) return `${fieldLabel(e.campo)} veio em branco.`;
      if (e.regra.endsWith('_tamanho')) {
        const max = /no máximo (\d+)/.exec(msg)?.[1];
        return `${fieldLabel(e.campo)} passou do tamanho máximo${max ? ` (${max} caracteres)` : ''}.`;
      }
      if (e.regra.endsWith('_texto')) return `${fieldLabel(e.campo)} não veio como texto.`;
      // Unknown rule: the message minus what is meant for the model.
      return glueMoney(msg.replace(/\s*Lembre:.*$/, ''));
  }
}
