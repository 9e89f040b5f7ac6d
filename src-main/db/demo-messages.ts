import type { Alerta, DadosCobranca, ExtractionStatus, RuleError } from '@shared/extraction-types';

/**
 * Demo merchant messages with the result a model run produced for them, so a newcomer sees a
 * populated review queue without an API key. `vencimentoEmDias` is relative to the seed date.
 */
export interface DemoMessage {
  texto: string;
  status: ExtractionStatus;
  /** Each attempt's tool input (dates as day offsets, resolved at seed time) and errors. */
  tentativas: { dados: DemoDados; erros: RuleError[] }[];
  alertas?: Alerta[];
}
type DemoDados = Omit<DadosCobranca, 'vencimento'> & { vencimento: number | string | null };

const d = (
  valor_centavos: number | null,
  parcelas: number | null,
  metodo: DadosCobranca['metodo'],
  cliente_nome: string | null,
  vencimento: number | string | null,
  descricao: string | null,
): DemoDados => {
  const faltando = (
    [
      ['valor_centavos', valor_centavos],
      ['parcelas', parcelas],
      ['metodo', metodo],
      ['cliente_nome', cliente_nome],
      ['vencimento', vencimento],
    ] as const
  )
    .filter(([, v]) => v === null)
    .map(([k]) => k);
  return { valor_centavos, parcelas, metodo, cliente_nome, vencimento, descricao, faltando };
};

/** A run where the model repeated the same answer, refused by the same rule, on all three attempts. */
const thrice = (dados: DemoDados, erro: RuleError) =>
  [1, 2, 3].map(() => ({ dados, erros: [erro] }));

const PIX_PARCELAS: RuleError = {
  campo: 'parcelas',
  regra: 'parcelas_pix_boleto',
  mensagem: 'Pix e boleto aceitam só 1 parcela. Parcelamento só no cartão.',
};
const VENC_PASSADO: RuleError = {
  campo: 'vencimento',
  regra: 'vencimento_passado',
  mensagem: 'O vencimento não pode ser uma data passada. Use hoje ou uma data futura.',
};
const VALOR_MINIMO: RuleError = {
  campo: 'valor_centavos',
  regra: 'valor_faixa',
  mensagem: 'O valor deve ficar entre R$ 1,00 e R$ 100.000,00 (100 a 10.000.000 centavos).',
};
const PARCELAS_FAIXA: RuleError = {
  campo: 'parcelas',
  regra: 'parcelas_faixa',
  mensagem: 'O número de parcelas deve ficar entre 1 e 12.',
};

export const DEMO_MESSAGES: DemoMessage[] = [
  {
    texto: 'manda um link de 150 reais pro João Silva no cartão em 3x, vence sexta',
    status: 'completo',
    tentativas: [{ dados: d(15000, 3, 'cartao', 'João Silva', 4, 'Link de pagamento'), erros: [] }],
  },
  {
    texto: 'cobra 89,90 da Maria Aparecida no pix pra amanhã, é o bolo de aniversário',
    status: 'completo',
    tentativas: [
      { dados: d(8990, 1, 'pix', 'Maria Aparecida', 1, 'Bolo de aniversário'), erros: [] },
    ],
  },
  {
    texto: 'faz um pix de R$ 1.200 parcelado em 4x pra Ana Costa, vencimento dia 20',
    status: 'falhou',
    tentativas: [
      { dados: d(120000, 4, 'pix', 'Ana Costa', 20, null), erros: [PIX_PARCELAS] },
      { dados: d(120000, 4, 'pix', 'Ana Costa', 20, null), erros: [PIX_PARCELAS] },
      { dados: d(120000, 2, 'pix', 'Ana Costa', 20, null), erros: [PIX_PARCELAS] },
    ],
  },
  {
    texto: 'preciso cobrar o Pedro Henrique, boleto, vence semana que vem',
    status: 'incompleto',
    tentativas: [{ dados: d(null, 1, 'boleto', 'Pedro Henrique', 7, null), erros: [] }],
  },
  {
    texto: 'link de 35O reais pra dona Cida no cartao 2x vence dia 10',
    status: 'completo',
    tentativas: [{ dados: d(35000, 2, 'cartao', 'Cida', 10, null), erros: [] }],
  },
  {
    texto: 'manda cobrança pro Carlos Eduardo de 150 reais no boleto vence ontem',
    status: 'falhou',
    tentativas: thrice(d(15000, 1, 'boleto', 'Carlos Eduardo', -1, null), VENC_PASSADO),
  },
  {
    texto: 'cobra a Fernanda, 3 camisetas, no cartão',
    status: 'incompleto',
    tentativas: [{ dados: d(null, null, 'cartao', 'Fernanda', null, '3 camisetas'), erros: [] }],
  },
  {
    texto: 'gera um link pro Ricardo Alves de R$ 2.450,00 em 15x no cartão, vence dia 5',
    status: 'falhou',
    tentativas: thrice(d(245000, 15, 'cartao', 'Ricardo Alves', 5, null), PARCELAS_FAIXA),
  },
  {
    texto: 'pix de 150 reais pro Lucas Pereira, vence hoje, referente ao conserto',
    status: 'completo',
    tentativas: [{ dados: d(150, 1, 'pix', 'Lucas Pereira', 0, 'Conserto'), erros: [] }],
    alertas: [
      {
        codigo: 'valor_divergente',
        mensagem:
          'O valor extraído (R$ 1,50) não bate com nenhum valor escrito no texto (R$ 150,00).',
        valores_no_texto: [15000],
      },
    ],
  },
  {
    texto: 'cobrar 50 centavos do Zé no pix',
    status: 'falhou',
    tentativas: thrice(d(50, 1, 'pix', 'Zé', null, null), VALOR_MINIMO),
  },
  {
    texto: 'oi! manda pra Juliana Rocha um boleto de 780 reais, vence dia 15 do mês que vem',
    status: 'completo',
    tentativas: [{ dados: d(78000, 1, 'boleto', 'Juliana Rocha', 45, null), erros: [] }],
  },
  {
    texto: 'quero cobrar a Beatriz mas nao sei se no pix ou cartao, 200 conto',
    status: 'incompleto',
    tentativas: [{ dados: d(20000, 1, null, 'Beatriz', null, null), erros: [] }],
  },
  {
    texto: 'faz 2 boletos de 300 pro Marcos, um vence dia 10 e outro dia 10 do outro mês',
    status: 'falhou',
    tentativas: [
      { dados: d(60000, 2, 'boleto', 'Marcos', 10, null), erros: [PIX_PARCELAS] },
      { dados: d(30000, 2, 'boleto', 'Marcos', 10, null), erros: [PIX_PARCELAS] },
      { dados: d(30000, 2, 'boleto', 'Marcos', 10, null), erros: [PIX_PARCELAS] },
    ],
  },
  {
    texto: 'link no cartão 6x de R$ 1.800 pra clínica Sorriso Ltda, vence em 10 dias',
    status: 'completo',
    tentativas: [{ dados: d(180000, 6, 'cartao', 'Clínica Sorriso Ltda', 10, null), erros: [] }],
  },
  {
    texto: 'manda um pix pro seu Antônio',
    status: 'incompleto',
    tentativas: [{ dados: d(null, 1, 'pix', 'Antônio', null, null), erros: [] }],
  },
  {
    texto: 'cobra 1.500 do Gustavo no pix e 3x no cartão, vence sexta',
    status: 'falhou',
    tentativas: thrice(d(150000, 3, 'pix', 'Gustavo', 4, null), PIX_PARCELAS),
  },
];
