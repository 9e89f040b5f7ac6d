/**
 * The one fake PSP (#36): the API Pix (Banco Central, v2) over real HTTPS with mutual TLS, used by
 * the tests (test/support/fake-psp.ts re-exports it) and by `balcao bench-cobrancas`.
 * Certificates are made when it starts with `openssl` (a CA, a server certificate for 127.0.0.1
 * and a client certificate). Endpoints: POST /oauth/token (client credentials, Basic),
 * PUT/GET/PATCH /cob/{txid}, PUT/GET /cobv/{txid}, PUT /webhook/{chave}. Every request body is
 * checked field by field against the spec's CobSolicitada / CobVSolicitada (required lists,
 * types, patterns, lengths, unknown fields) and refused with the spec's problem shape (400,
 * `violacoes`). A re-PUT of an existing txid is 409. Scripted faults per route: an HTTP status
 * (500, 429 with Retry-After, 409, 400), a timeout (never answers), a dropped connection after the
 * charge is stored, a held answer (stored, answered when released), an expired token. For the
 * bench: a latency per call, and the books it reports (tokens, PUTs, GETs, 409s, charges created
 * per txid — more than one would be a duplicate).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Violacao {
  razao: string;
  propriedade: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkString(
  v: Violacao[],
  prop: string,
  value: unknown,
  o: { max?: number; min?: number; pattern?: RegExp },
): void {
  if (typeof value !== 'string') {
    v.push({ propriedade: prop, razao: `${prop} deve ser uma string.` });
    return;
  }
  if (o.min !== undefined && value.length < o.min)
    v.push({ propriedade: prop, razao: `${prop} tem menos de ${o.min} caracteres.` });
  if (o.max !== undefined && [...value].length > o.max)
    v.push({ propriedade: prop, razao: `${prop} tem mais de ${o.max} caracteres.` });
  if (o.pattern && !o.pattern.test(value))
    v.push({ propriedade: prop, razao: `${prop} não respeita o padrão ${o.pattern.source}.` });
}

function checkInt(v: Violacao[], prop: string, value: unknown, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    v.push({ propriedade: prop, razao: `${prop} deve ser inteiro entre ${min} e ${max}.` });
  }
}

function checkKeys(v: Violacao[], prefix: string, o: Obj, allowed: readonly string[]): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) {
      v.push({
        propriedade: `${prefix}${k}`,
        razao: `Campo não previsto no schema: ${prefix}${k}.`,
      });
    }
  }
}

function checkRequired(v: Violacao[], prefix: string, o: Obj, required: readonly string[]): void {
  for (const k of required) {
    if (o[k] === undefined) {
      v.push({ propriedade: `${prefix}${k}`, razao: `Campo obrigatório ausente: ${prefix}${k}.` });
    }
  }
}

const VALOR = /^\d{1,10}\.\d{2}$/;
const CPF = /^\d{11}$/;
const CNPJ = /^\d{14}$/;
const DATA = /^\d{4}-\d{2}-\d{2}$/;

function checkDevedor(v: Violacao[], d: unknown, cobv: boolean): void {
  if (!isObj(d)) {
    v.push({ propriedade: 'devedor', razao: 'devedor deve ser um objeto.' });
    return;
  }
  const extra = cobv ? ['logradouro', 'cidade', 'uf', 'cep', 'email'] : [];
  checkKeys(v, 'devedor.', d, ['cpf', 'cnpj', 'nome', ...extra]);
  if ((d.cpf === undefined) === (d.cnpj === undefined)) {
    v.push({ propriedade: 'devedor', razao: 'devedor exige cpf ou cnpj (um dos dois).' });
  }
  if (d.cpf !== undefined) checkString(v, 'devedor.cpf', d.cpf, { pattern: CPF });
  if (d.cnpj !== undefined) checkString(v, 'devedor.cnpj', d.cnpj, { pattern: CNPJ });
  checkRequired(v, 'devedor.', d, ['nome']);
  if (d.nome !== undefined) checkString(v, 'devedor.nome', d.nome, { min: 1, max: 200 });
  if (cobv) {
    if (d.logradouro !== undefined)
      checkString(v, 'devedor.logradouro', d.logradouro, { max: 200 });
    if (d.cidade !== undefined) checkString(v, 'devedor.cidade', d.cidade, { max: 200 });
    if (d.uf !== undefined) checkString(v, 'devedor.uf', d.uf, { pattern: /^[A-Z]{2}$/ });
    if (d.cep !== undefined) checkString(v, 'devedor.cep', d.cep, { pattern: /^\d{8}$/ });
    if (d.email !== undefined) checkString(v, 'devedor.email', d.email, { max: 77 });
  }
}

/** The spec's CobSolicitada (`cobv` false) or CobVSolicitada (`cobv` true), field by field. */
export function validateCob(body: unknown, cobv: boolean): Violacao[] {
  const v: Violacao[] = [];
  if (!isObj(body)) return [{ propriedade: '', razao: 'O corpo deve ser um objeto JSON.' }];
  checkKeys(v, '', body, [
    'calendario',
    'devedor',
    'loc',
    'valor',
    'chave',
    'solicitacaoPagador',
    'infoAdicionais',
  ]);
  checkRequired(
    v,
    '',
    body,
    cobv ? ['calendario', 'devedor', 'valor', 'chave'] : ['valor', 'chave'],
  );
  const cal = body.calendario;
  if (cal !== undefined) {
    if (!isObj(cal)) v.push({ propriedade: 'calendario', razao: 'calendario deve ser um objeto.' });
    else if (cobv) {
      checkKeys(v, 'calendario.', cal, ['dataDeVencimento', 'validadeAposVencimento']);
      checkRequired(v, 'calendario.', cal, ['dataDeVencimento']);
      if (cal.dataDeVencimento !== undefined)
        checkString(v, 'calendario.dataDeVencimento', cal.dataDeVencimento, { pattern: DATA });
      if (cal.validadeAposVencimento !== undefined)
        checkInt(
          v,
          'calendario.validadeAposVencimento',
          cal.validadeAposVencimento,
          0,
          2 ** 31 - 1,
        );
    } else {
      checkKeys(v, 'calendario.', cal, ['expiracao']);
      if (cal.expiracao !== undefined)
        checkInt(v, 'calendario.expiracao', cal.expiracao, 1, 2 ** 31 - 1);
    }
  }
  if (body.devedor !== undefined) checkDevedor(v, body.devedor, cobv);
  if (body.loc !== undefined) {
    if (!isObj(body.loc)) v.push({ propriedade: 'loc', razao: 'loc deve ser um objeto.' });
    else {
      checkKeys(v, 'loc.', body.loc, ['id']);
      checkInt(v, 'loc.id', body.loc.id, 1, Number.MAX_SAFE_INTEGER);
    }
  }
  const valor = body.valor;
  if (valor !== undefined) {
    if (!isObj(valor)) v.push({ propriedade: 'valor', razao: 'valor deve ser um objeto.' });
    else {
      const allowed = cobv
        ? ['original', 'multa', 'juros', 'abatimento', 'desconto']
        : ['original', 'modalidadeAlteracao'];
      checkKeys(v, 'valor.', valor, allowed);
      checkRequired(v, 'valor.', valor, ['original']);
      if (valor.original !== undefined)
        checkString(v, 'valor.original', valor.original, { pattern: VALOR });
      if (!cobv && valor.modalidadeAlteracao !== undefined)
        checkInt(v, 'valor.modalidadeAlteracao', valor.modalidadeAlteracao, 0, 1);
    }
  }
  if (body.chave !== undefined) checkString(v, 'chave', body.chave, { min: 1, max: 77 });
  if (body.solicitacaoPagador !== undefined)
    checkString(v, 'solicitacaoPagador', body.solicitacaoPagador, { max: 140 });
  if (body.infoAdicionais !== undefined) {
    if (!Array.isArray(body.infoAdicionais) || body.infoAdicionais.length > 50) {
      v.push({ propriedade: 'infoAdicionais', razao: 'infoAdicionais: lista de até 50 itens.' });
    } else {
      body.infoAdicionais.forEach((i: unknown, n) => {
        const p = `infoAdicionais[${n}].`;
        if (!isObj(i)) return v.push({ propriedade: p, razao: 'item deve ser um objeto.' });
        checkKeys(v, p, i, ['nome', 'valor']);
        checkRequired(v, p, i, ['nome', 'valor']);
        if (i.nome !== undefined) checkString(v, `${p}nome`, i.nome, { max: 50 });
        if (i.valor !== undefined) checkString(v, `${p}valor`, i.valor, { max: 200 });
        return undefined;
      });
    }
  }
  return v;
}

export type Fault =
  | { status: number; retryAfter?: number; body?: unknown }
  | 'timeout'
  | 'drop_after_store'
  | 'expire_token';

export interface Cob {
  txid: string;
  revisao: number;
  tipo: 'cob' | 'cobv';
  status: string;
  calendario: Obj;
  valor: Obj;
  chave: string;
  solicitacaoPagador?: string;
  devedor?: Obj;
  location: string;
  pixCopiaECola: string;
  pix?: { endToEndId: string; txid: string; valor: string; horario: string }[];
}

export interface PspCall {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

export interface FakePsp {
  url: string;
  /** PEM file paths for the client (BALCAO_PSP_CERT / KEY / CA). */
  files: { cert: string; key: string; ca: string; caKey: string };
  clientId: string;
  clientSecret: string;
  cobs: Map<string, Cob>;
  webhooks: Map<string, string>;
  /** Every request and its answer, in order (off with `registrar: false`, for long benches). */
  calls: PspCall[];
  tokensIssued(): number;
  /** What the bench reports: tokens issued, PUTs, GETs, 409s to a re-PUT, anything else. */
  counts: { tokens: number; puts: number; gets: number; conflitos: number; outras: number };
  /** Charges created per txid (a value above 1 is a duplicate at the PSP). */
  created: Map<string, number>;
  /** The next request matching `method path-prefix` meets `fault` (in order). */
  fault(method: string, pathPrefix: string, f: Fault): void;
  /** The next matching PUT is stored, and answered only when `release` is called. */
  hold(method: string, pathPrefix: string): { arrived: Promise<void>; release(): void };
  /** The payer pays: CONCLUIDA with one Pix of `valor` (default the charge's); the webhook body. */
  pay(
    txid: string,
    valor?: string,
  ): { pix: { endToEndId: string; txid: string; valor: string; horario: string }[] };
  close(): Promise<void>;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A CA, a server certificate for 127.0.0.1 and a client certificate, in a new folder. */
export function makeCertificates(): {
  dir: string;
  files: FakePsp['files'] & { serverCert: string; serverKey: string };
} {
  const dir = mkdtempSync(join(tmpdir(), 'balcao-psp-'));
  const days = ['-days', '2'];
  const key = ['-newkey', 'rsa:2048', '-nodes'];
  openssl(
    ['req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.pem', '-subj', '/CN=PSP falso CA'],
    dir,
  );
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  for (const [name, cn, ext] of [
    ['server', '/CN=127.0.0.1', ['-extfile', 'san.ext']],
    ['client', '/CN=balcao', []],
  ] as const) {
    openssl(['req', ...key, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', cn], dir);
    openssl(
      [
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        `${name}.pem`,
        ...ext,
        ...days,
      ],
      dir,
    );
  }
  return {
    dir,
    files: {
      cert: join(dir, 'client.pem'),
      key: join(dir, 'client.key'),
      ca: join(dir, 'ca.pem'),
      caKey: join(dir, 'ca.key'),
      serverCert: join(dir, 'server.pem'),
      serverKey: join(dir, 'server.key'),
    },
  };
}

const problem = (status: number, title: string, detail: string, violacoes?: Violacao[]) => ({
  type: `https://pix.bcb.gov.br/api/v2/error/${status === 400 ? 'CobOperacaoInvalida' : 'Erro'}`,
  title,
  status,
  detail,
  ...(violacoes ? { violacoes } : {}),
});

export interface FakePspOptions {
  /** Wait this long before answering each call (the bench's PSP latency). */
  latenciaMs?: number;
  /** Keep `calls` (default true). */
  registrar?: boolean;
}

export async function startFakePsp(o: FakePspOptions = {}): Promise<FakePsp> {
  const { dir, files } = makeCertificates();
  const clientId = 'balcao-teste';
  const clientSecret = randomBytes(12).toString('hex');
  const tokens = new Set<string>();
  let issued = 0;
  const cobs = new Map<string, Cob>();
  const webhooks = new Map<string, string>();
  const calls: PspCall[] = [];
  const faults: { method: string; prefix: string; f: Fault }[] = [];
  const holds: { method: string; prefix: string; arrived: () => void; wait: Promise<void> }[] = [];
  const sockets = new Set<Socket>();
  const counts = { tokens: 0, puts: 0, gets: 0, conflitos: 0, outras: 0 };
  const created = new Map<string, number>();
  const latenciaMs = o.latenciaMs ?? 0;
  const registrar = o.registrar ?? true;
  const record = (c: PspCall) => {
    if (registrar) calls.push(c);
  };

  const takeFault = (method: string, path: string): Fault | undefined => {
    const i = faults.findIndex((x) => x.method === method && path.startsWith(x.prefix));
    return i >= 0 ? faults.splice(i, 1)[0]!.f : undefined;
  };

  const readBody = async (req: IncomingMessage): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '').split('?')[0] ?? '';
    const text = await readBody(req);
    if (latenciaMs > 0) await new Promise<void>((r) => setTimeout(r, latenciaMs));
    const send = (s: number, body: unknown, headers: Record<string, string> = {}) => {
      record({ method, path, status: s, body: text ? safeJson(text) : null });
      res.writeHead(s, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (method === 'POST' && path === '/oauth/token') {
      const want = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== want || !/grant_type=client_credentials/.test(text)) {
        return send(401, { error: 'invalid_client' });
      }
      const t = randomBytes(16).toString('hex');
      tokens.add(t);
      issued++;
      counts.tokens++;
      return send(200, {
        access_token: t,
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'cob.write cob.read',
      });
    }
    const fault = takeFault(method, path);
    if (fault === 'expire_token') tokens.clear();
    const auth = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    if (!auth?.[1] || !tokens.has(auth[1])) {
      return send(401, problem(401, 'Não autorizado.', 'Token ausente, inválido ou expirado.'));
    }
    if (fault === 'timeout') {
      record({ method, path, status: 0, body: safeJson(text) });
      return; // never answers
    }
    if (fault && typeof fault === 'object') {
      return send(
        fault.status,
        fault.body ?? problem(fault.status, 'Falha simulada.', `Erro ${fault.status} de teste.`),
        fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {},
      );
    }
    const m = /^\/(cob|cobv)\/([^/]+)$/.exec(path);
    if (m && method === 'PUT') counts.puts++;
    else if (m && method === 'GET') counts.gets++;
    else counts.outras++;
    if (m) {
      const tipo = m[1] as 'cob' | 'cobv';
      const txid = decodeURIComponent(m[2]!);
      if (!/^[a-zA-Z0-9]{26,35}$/.test(txid)) {
        return send(
          400,
          problem(400, 'Cobrança inválida.', 'txid inválido.', [
            { propriedade: 'txid', razao: 'txid deve ter de 26 a 35 caracteres [a-zA-Z0-9].' },
          ]),
        );
      }
      if (method === 'PUT') {
        const body = safeJson(text);
        const v = validateCob(body, tipo === 'cobv');
        if (v.length) {
          return send(
            400,
            problem(400, 'Cobrança inválida.', 'A requisição não respeita o schema.', v),
          );
        }
        if (cobs.has(txid)) {
          counts.conflitos++;
          return send(
            409,
            problem(409, 'Cobrança já existe.', `Já existe uma cobrança com o txid ${txid}.`),
          );
        }
        const b = body as Obj;
        const loc = `pix.psp.test/qr/v2/${randomUUID()}`;
        const cob: Cob = {
          txid,
          revisao: 0,
          tipo,
          status: 'ATIVA',
          calendario: { criacao: new Date().toISOString(), ...(b.calendario as Obj) },
          valor: b.valor as Obj,
          chave: b.chave as string,
          ...(typeof b.solicitacaoPagador === 'string'
            ? { solicitacaoPagador: b.solicitacaoPagador }
            : {}),
          ...(isObj(b.devedor) ? { devedor: b.devedor } : {}),
          location: loc,
          pixCopiaECola: `00020101021226830014BR.GOV.BCB.PIX2561${loc}520400005303986540${String((b.valor as Obj).original).length}${String((b.valor as Obj).original)}5802BR5913Fulano6008BRASILIA62070503***6304ABCD`,
        };
        cobs.set(txid, cob);
        created.set(txid, (created.get(txid) ?? 0) + 1);
        if (fault === 'drop_after_store') {
          record({ method, path, status: 0, body });
          req.socket.destroy();
          return;
        }
        const h = holds.findIndex((x) => x.method === method && path.startsWith(x.prefix));
        if (h >= 0) {
          const held = holds.splice(h, 1)[0]!;
          held.arrived();
          await held.wait;
        }
        return send(201, cob);
      }
      const cob = cobs.get(txid);
      if (!cob)
        return send(
          404,
          problem(404, 'Cobrança não encontrada.', `Nenhuma cobrança com o txid ${txid}.`),
        );
      if (method === 'GET') return send(200, cob);
      if (method === 'PATCH') {
        const b = safeJson(text);
        if (
          !isObj(b) ||
          b.status !== 'REMOVIDA_PELO_USUARIO_RECEBEDOR' ||
          Object.keys(b).length !== 1
        ) {
          return send(
            400,
            problem(400, 'Cobrança inválida.', 'Só a remoção é suportada neste teste.', [
              { propriedade: 'status', razao: 'status deve ser REMOVIDA_PELO_USUARIO_RECEBEDOR.' },
            ]),
          );
        }
        if (cob.status !== 'ATIVA') {
          return send(
            400,
            problem(
              400,
              'Cobrança inválida.',
              `A cobrança está ${cob.status} e não pode ser removida.`,
            ),
          );
        }
        cob.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
        cob.revisao++;
        return send(200, cob);
      }
      return send(405, problem(405, 'Método não permitido.', method));
    }
    const w = /^\/webhook\/([^/]+)$/.exec(path);
    if (w && method === 'PUT') {
      const b = safeJson(text);
      if (!isObj(b) || typeof b.webhookUrl !== 'string' || !/^https:\/\//.test(b.webhookUrl)) {
        return send(
          400,
          problem(400, 'Webhook inválido.', 'webhookUrl deve ser uma URL https.', [
            { propriedade: 'webhookUrl', razao: 'URL https obrigatória.' },
          ]),
        );
      }
      webhooks.set(decodeURIComponent(w[1]!), b.webhookUrl);
      return send(204, {});
    }
    return send(404, problem(404, 'Não encontrado.', path));
  };

  const server: Server = createServer(
    {
      key: readFileSync(files.serverKey),
      cert: readFileSync(files.serverCert),
      ca: readFileSync(files.ca),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      handle(req, res).catch(() => {
        res.writeHead(500);
        res.end();
      });
    },
  );
  server.on('secureConnection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    files: { cert: files.cert, key: files.key, ca: files.ca, caKey: files.caKey },
    clientId,
    clientSecret,
    cobs,
    webhooks,
    calls,
    tokensIssued: () => issued,
    counts,
    created,
    fault: (method, prefix, f) => void faults.push({ method, prefix, f }),
    hold(method, prefix) {
      let arrived!: () => void;
      let release!: () => void;
      const a = new Promise<void>((r) => (arrived = r));
      const wait = new Promise<void>((r) => (release = r));
      holds.push({ method, prefix, arrived, wait });
      return { arrived: a, release };
    },
    pay(txid, valor) {
      const cob = cobs.get(txid);
      if (!cob) throw new Error(`fake PSP: nenhuma cobrança ${txid}`);
      const pix = {
        endToEndId: `E${randomBytes(16).toString('hex').slice(0, 31)}`,
        txid,
        valor: valor ?? String(cob.valor.original),
        horario: new Date().toISOString(),
      };
      cob.status = 'CONCLUIDA';
      cob.pix = [...(cob.pix ?? []), pix];
      return { pix: [pix] };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
