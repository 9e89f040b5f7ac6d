/**
 * The Messages API as `balcao bench-intake` sees it: a local HTTP server (real HTTP, the real SDK
 * through `ANTHROPIC_BASE_URL`) with a real API's manners — ~900 ms ± jitter per answer, some
 * 429s with `retry-after`, some 5xx — that answers the `registrar_cobranca` tool call for the
 * bench's messages and keeps the books: every request, which message and attempt it was for,
 * and whether its answer was delivered ("paid") or cut off because the worker died.
 *
 * A message is recognised by the tag `[bench:K]` in its text; its kind (decided by the bench)
 * says what the "model" answers on each attempt.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mulberry32 } from '../db/prng';

/** What the "model" does with a message: the outcome the bench expects from it. */
export type BenchKind = 'limpa' | 'corrigida' | 'incompleta' | 'alerta' | 'falha';

/** What one bench message says (the tool input the model would fill in). */
export interface BenchCharge {
  kind: BenchKind;
  valor_centavos: number;
  parcelas: number;
  metodo: 'pix' | 'boleto' | 'cartao';
  cliente_nome: string;
  vencimento: string;
  /** The payer's CPF a boleto needs (#36.4), written in the text; null otherwise. */
  cliente_documento: string | null;
}

export interface FakeApiOptions {
  /** The charge each tag K stands for. */
  charges: ReadonlyMap<number, BenchCharge>;
  /** Mean latency of an answer (ms) and its jitter (± ms, uniform). */
  latenciaMs: number;
  jitterMs: number;
  /** Share of requests answered 429 (with retry-after) and 5xx. */
  taxa429: number;
  taxa5xx: number;
  /** retry-after of a 429, in seconds (as the API sends it). */
  retryAfterS: number;
  seed: number;
}

export interface ApiCall {
  k: number | null;
  tentativa: number;
  status: number;
  /** The answer reached the client (a 200 delivered is an attempt paid for). */
  entregue: boolean;
  /** The client went away before the answer (a worker killed mid-request). */
  abandonada: boolean;
  message_id: string | null;
  chegada: number;
  fim: number | null;
}

export interface FakeApi {
  url: string;
  calls: ApiCall[];
  /** Most requests open at the same time. */
  pico(): number;
  close(): Promise<void>;
}

const TAG = /\[bench:(\d+)\]/;

function input(c: BenchCharge, tentativa: number): Record<string, unknown> {
  const ok = {
    valor_centavos: c.valor_centavos,
    parcelas: c.parcelas,
    metodo: c.metodo,
    cliente_nome: c.cliente_nome,
    vencimento: c.vencimento,
    // The model sees the CPF as a placeholder (#38.1) and copies it; Balcão restores it.
    cliente_documento: c.cliente_documento === null ? null : '[CPF_1]',
    descricao: null,
    faltando: [] as string[],
  };
  switch (c.kind) {
    case 'limpa':
      return ok;
    case 'corrigida':
      // The first answer breaks a rule (installments out of range); the correction is right.
      return tentativa === 1 ? { ...ok, parcelas: 0 } : ok;
    case 'falha':
      return { ...ok, parcelas: 0 };
    case 'incompleta':
      return { ...ok, cliente_nome: null, faltando: ['cliente_nome'] };
    case 'alerta':
      // An amount that is not the one written: the amount alert sends it to the queue.
      return { ...ok, valor_centavos: c.valor_centavos + 1_000 };
  }
}

export async function startFakeApi(opts: FakeApiOptions): Promise<FakeApi> {
  const rand = mulberry32(opts.seed);
  const calls: ApiCall[] = [];
  let open = 0;
  let peak = 0;
  let seq = 0;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call: ApiCall = {
        k: null,
        tentativa: 0,
        status: 0,
        entregue: false,
        abandonada: false,
        message_id: null,
        chegada: Date.now(),
        fim: null,
      };
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"type":"error","error":{"type":"not_found_error","message":"rota"}}');
        return;
      }
      calls.push(call);
      open++;
      peak = Math.max(peak, open);
      let finished = false;
      res.on('close', () => {
        open--;
        if (!finished) {
          call.abandonada = true;
          call.fim = Date.now();
        }
      });
      let body: {
        model?: string;
        messages?: { role: string; content: unknown }[];
      } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        // answered below as a 400
      }
      const msgs = body.messages ?? [];
      const k = Number(TAG.exec(JSON.stringify(msgs[0]?.content ?? ''))?.[1] ?? NaN);
      call.k = Number.isInteger(k) ? k : null;
      call.tentativa = msgs.filter((m) => m.role === 'assistant').length + 1;
      const charge = call.k === null ? undefined : opts.charges.get(call.k);

      const r = rand();
      let status = 200;
      let delay = opts.latenciaMs + (rand() * 2 - 1) * opts.jitterMs;
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'request-id': `req_bench_${++seq}`,
      };
      let payload: unknown;
      if (!charge) {
        status = 400;
        delay = 5;
        payload = {
          type: 'error',
          error: { type: 'invalid_request_error', message: 'bench: mensagem sem [bench:K]' },
        };
      } else if (r < opts.taxa429) {
        status = 429;
        delay = 20 + rand() * 60;
        headers['retry-after'] = String(opts.retryAfterS);
        payload = {
          type: 'error',
          error: { type: 'rate_limit_error', message: 'bench: limite de requisições' },
        };
      } else if (r < opts.taxa429 + opts.taxa5xx) {
        status = rand() < 0.5 ? 500 : 529;
        delay = 100 + rand() * 800;
        payload = {
          type: 'error',
          error: {
            type: status === 500 ? 'api_error' : 'overloaded_error',
            message: 'bench: erro do servidor',
          },
        };
      } else {
        call.message_id = `msg_bench_${seq + 1}`;
        payload = {
          id: call.message_id,
          type: 'message',
          role: 'assistant',
          model: body.model ?? 'bench',
          content: [
            {
              type: 'tool_use',
              id: `toolu_bench_${seq + 1}`,
              name: 'registrar_cobranca',
              input: input(charge, call.tentativa),
            },
          ],
          stop_reason: 'tool_use',
          stop_sequence: null,
          usage: {
            input_tokens: 1500,
            output_tokens: 90,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 1400,
          },
        };
      }
      call.status = status;
      const timer = setTimeout(
        () => {
          if (res.destroyed) return;
          finished = true;
          call.fim = Date.now();
          call.entregue = true;
          res.writeHead(status, headers);
          res.end(JSON.stringify(payload));
        },
        Math.max(0, delay),
      );
      res.on('close', () => clearTimeout(timer));
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    pico: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
