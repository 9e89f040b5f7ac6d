/** #38.3/#38.4: one customer's trail through every table that holds personal data. */
import type pg from 'pg';
import { dados, insertExtraction } from './queue-fixtures';

export interface Trail {
  extracao: number;
  mensagem: number;
  saida: number;
  cobranca: number;
  pergunta: number;
}

/**
 * A merchant's message about a customer (`texto`), its extraction (concluded, with a charge of
 * `valorCentavos`), the model's attempts, the question sent back and a sales question — every
 * row dated `diasAtras` days before `agora`.
 */
export async function insertTrail(
  admin: pg.Pool,
  o: {
    merchantId: number;
    texto: string;
    nome: string;
    documento?: string;
    diasAtras: number;
    agora: Date;
    valorCentavos: number;
  },
): Promise<Trail> {
  const em = new Date(o.agora.getTime() - o.diasAtras * 86_400_000).toISOString();
  const d = { ...dados({ cliente_nome: o.nome, valor_centavos: o.valorCentavos }) } as Record<
    string,
    unknown
  >;
  if (o.documento) d.cliente_documento = o.documento;
  const extracao = await insertExtraction(admin, {
    merchantId: o.merchantId,
    texto: o.texto,
    status: 'completo',
    dados: d as never,
    criadaEm: em,
    filaEstado: 'concluida',
  });
  await admin.query('UPDATE extracao_tentativas SET criada_em = $2 WHERE extracao_id = $1', [
    extracao,
    em,
  ]);
  const m = await admin.query<{ id: string }>(
    `INSERT INTO mensagens (canal, mensagem_id, merchant_id, texto, recebida_em, enfileirada_em,
                            estado, resultado, extracao_id, processada_em)
     VALUES ('teste', 'lgpd-' || gen_random_uuid(), $1, $2, $3, $3, 'concluida', 'fila', $4, $3)
     RETURNING id`,
    [o.merchantId, o.texto, em, extracao],
  );
  const mensagem = Number(m.rows[0]!.id);
  await admin.query(
    `INSERT INTO intake_tentativas (mensagem, numero, conteudo, entrada, criada_em)
     VALUES ($1, 1, $2, $3, $4)`,
    [
      mensagem,
      JSON.stringify([{ type: 'tool_use', name: 'registrar_cobranca', input: d }]),
      JSON.stringify(d),
      em,
    ],
  );
  const s = await admin.query<{ id: string }>(
    `INSERT INTO mensagens_saida (canal, merchant_id, extracao_id, origem, responde_a, texto,
                                  criada_em, enviada_em, estado)
     VALUES ('teste', $1, $2, $3, 'x', $4, $5, $5, 'enviada') RETURNING id`,
    [o.merchantId, extracao, mensagem, `Confirma a cobrança de ${o.nome}?`, em],
  );
  const b = await admin.query<{ id: string }>(
    `INSERT INTO cobrancas (extracao_id, merchant_id, valor_centavos, parcelas, metodo,
                            cliente_nome, vencimento, criada_por, criada_em, cliente_documento)
     VALUES ($1, $2, $3, 3, 'cartao', $4, '2026-12-04', 'teste', $5, $6) RETURNING id`,
    [extracao, o.merchantId, o.valorCentavos, o.nome, em, o.documento ?? null],
  );
  const q = await admin.query<{ id: string }>(
    `INSERT INTO consultas_vendas (merchant_id, operador, origem, pergunta, resultado, duracao_ms,
                                   criada_em)
     VALUES ($1, 'teste', 'pergunta', $2, 'respondida', 12, $3) RETURNING id`,
    [o.merchantId, `quanto o ${o.nome} pagou?`, em],
  );
  return {
    extracao,
    mensagem,
    saida: Number(s.rows[0]!.id),
    cobranca: Number(b.rows[0]!.id),
    pergunta: Number(q.rows[0]!.id),
  };
}
