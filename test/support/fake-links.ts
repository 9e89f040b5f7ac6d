/**
 * A fake of the company's payment-link service (docs/payment-links.md) over real HTTP: checks the
 * bearer token, the `Idempotency-Key` (required on PUT, equal to the path's id) and the body field
 * by field (every field, type, enum; a boleto needs a CPF/CNPJ with valid check digits). A second
 * PUT with the same key and the same body answers the same link (200), never a second one; with
 * another body, 409. Scripted faults per method: an HTTP status (with Retry-After), a timeout
 * (never answers), a dropped connection after the link was stored. `PATCH /links/{id}` with
 * `{"estado": "cancelado"}` cancels an unpaid link.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tipoDocumento } from '../../src-shared/documento';

export type LinkFault =
  { status: number; retryAfter?: number; body?: unknown } | 'timeout' | 'drop_after_store';

export interface FakeLink {
  id: string;
  url: string;
  estado: 'ativo' | 'pago' | 'cancelado' | 'expirado';
  valor_centavos: number;
  pago_centavos: number | null;
  corpo: Record<string, unknown>;
}

export interface FakeLinkCall {
  method: string;
  path: string;
  status: number;
  idempotencyKey: string | undefined;
  body: unknown;
}

export interface FakeLinks {
  url: string;
  token: string;
  links: Map<string, FakeLink>;
  calls: FakeLinkCall[];
  /** The next request with this method gets this fault (in order). */
  fault(method: 'PUT' | 'GET' | 'PATCH', f: LinkFault): void;
  pay(id: string, centavos?: number): void;
  cancel(id: string): void;
  close(): Promise<void>;
}

const KEYS = [
  'valor_centavos',
  'forma_pagamento',
  'parcelas',
  'vencimento',
  'descricao',
  'cliente_nome',
  'cliente_documento',
];

/** The contract's body, field by field; [] when it is right. */
export function validateLinkBody(b: unknown): string[] {
  if (!b || typeof b !== 'object' || Array.isArray(b)) return ['o corpo deve ser um objeto JSON'];
  const o = b as Record<string, unknown>;
  const v: string[] = [];
  for (const k of Object.keys(o)) if (!KEYS.includes(k)) v.push(`${k}: campo desconhecido`);
  for (const k of KEYS) if (!(k in o)) v.push(`${k}: obrigatório`);
  const int = (k: string, min: number, max: number) => {
    const x = o[k];
    if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < min || x > max) {
      v.push(`${k}: inteiro de ${min} a ${max}`);
    }
  };
  int('valor_centavos', 100, 10_000_000);
  int('parcelas', 1, 12);
  if (o.forma_pagamento !== 'cartao' && o.forma_pagamento !== 'boleto') {
    v.push('forma_pagamento: cartao ou boleto');
  }
  if (o.forma_pagamento === 'boleto' && o.parcelas !== 1) v.push('parcelas: boleto só em 1');
  if (typeof o.vencimento !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(o.vencimento)) {
    v.push('vencimento: AAAA-MM-DD');
  }
  if (o.descricao !== null && (typeof o.descricao !== 'string' || o.descricao.length > 140)) {
    v.push('descricao: texto até 140 ou null');
  }
  if (typeof o.cliente_nome !== 'string' || !o.cliente_nome.trim()) {
    v.push('cliente_nome: texto');
  }
  const doc = o.cliente_documento;
  if (
    doc !== null &&
    (typeof doc !== 'string' || !/^[0-9A-Z]{11,14}$/.test(doc) || !tipoDocumento(doc))
  ) {
    v.push('cliente_documento: CPF ou CNPJ sem pontuação, dígitos verificadores válidos, ou null');
  }
  if (o.forma_pagamento === 'boleto' && doc === null) {
    v.push('cliente_documento: obrigatório no boleto');
  }
  return v;
}

export async function startFakeLinks(): Promise<FakeLinks> {
  const token = 'token-links-de-teste-0123456789';
  const links = new Map<string, FakeLink>();
  const calls: FakeLinkCall[] = [];
  const faults: { method: string; f: LinkFault }[] = [];
  let seq = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = undefined;
    try {
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      body = text;
    }
    const method = req.method ?? '';
    const path = (req.url ?? '').split('?')[0] ?? '';
    const key = req.headers['idempotency-key'];
    const idempotencyKey = Array.isArray(key) ? key[0] : key;
    const send = (status: number, b: unknown, headers: Record<string, string> = {}) => {
      calls.push({ method, path, status, idempotencyKey, body });
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(b));
    };
    if (req.headers.authorization !== `Bearer ${token}`) {
      return send(401, { erro: 'Token ausente ou inválido.' });
    }
    const i = faults.findIndex((f) => f.method === method);
    const fault = i >= 0 ? faults.splice(i, 1)[0]!.f : undefined;
    if (fault === 'timeout') {
      calls.push({ method, path, status: 0, idempotencyKey, body });
      return; // never answers
    }
    if (fault && typeof fault === 'object') {
      return send(
        fault.status,
        fault.body ?? { erro: `Falha simulada ${fault.status}.` },
        fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {},
      );
    }
    const m = /^\/links\/([^/]+)$/.exec(path);
    if (!m) return send(404, { erro: 'Rota desconhecida.' });
    const id = decodeURIComponent(m[1]!);
    if (method === 'GET') {
      const l = links.get(id);
      return l ? send(200, view(l)) : send(404, { erro: 'Link não encontrado.' });
    }
    if (method === 'PATCH') {
      const l = links.get(id);
      if (!l) return send(404, { erro: 'Link não encontrado.' });
      if (JSON.stringify(body) !== JSON.stringify({ estado: 'cancelado' })) {
        return send(422, { erro: 'Só {"estado": "cancelado"} é aceito.' });
      }
      if (l.estado === 'pago') return send(422, { erro: 'Link já pago não pode ser cancelado.' });
      l.estado = 'cancelado';
      return send(200, view(l));
    }
    if (method !== 'PUT') return send(405, { erro: 'Método não permitido.' });
    if (idempotencyKey !== id) {
      return send(400, { erro: 'Idempotency-Key ausente ou diferente do id do link.' });
    }
    const v = validateLinkBody(body);
    if (v.length) return send(422, { erro: `Corpo inválido: ${v.join('; ')}.` });
    const existing = links.get(id);
    if (existing) {
      return JSON.stringify(existing.corpo) === JSON.stringify(body)
        ? send(200, view(existing))
        : send(409, { erro: 'Esta Idempotency-Key já criou um link com outros dados.' });
    }
    const b = body as Record<string, unknown>;
    const l: FakeLink = {
      id,
      url: `https://pagar.exemplo.test/l/${++seq}-${id.slice(-8)}`,
      estado: 'ativo',
      valor_centavos: b.valor_centavos as number,
      pago_centavos: null,
      corpo: b,
    };
    links.set(id, l);
    if (fault === 'drop_after_store') {
      calls.push({ method, path, status: 0, idempotencyKey, body });
      req.socket.destroy();
      return;
    }
    return send(201, view(l));
  };
  const view = (l: FakeLink) => ({
    id: l.id,
    url: l.url,
    estado: l.estado,
    valor_centavos: l.valor_centavos,
    pago_centavos: l.pago_centavos,
  });

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    links,
    calls,
    fault: (method, f) => faults.push({ method, f }),
    pay(id, centavos) {
      const l = links.get(id);
      if (!l) throw new Error(`link ${id} desconhecido`);
      l.estado = 'pago';
      l.pago_centavos = centavos ?? l.valor_centavos;
    },
    cancel(id) {
      const l = links.get(id);
      if (l) l.estado = 'cancelado';
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
