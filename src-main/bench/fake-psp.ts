/**
 * The PSP of `balcao bench-cobrancas` (#36): a small API Pix over real HTTPS with mutual TLS
 * (a CA, a server certificate for 127.0.0.1 and a client certificate made with `openssl` in a
 * temporary folder), with a configurable latency per call. POST /oauth/token (client
 * credentials, Basic), PUT /cob/{txid} and /cobv/{txid} (a re-PUT of a stored txid is 409, as the
 * spec says), GET /cob|cobv/{txid}. It counts what the bench reports: tokens issued, PUTs, GETs,
 * charges created per txid (more than one would be a duplicate), 409s.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BenchPsp {
  url: string;
  files: { cert: string; key: string; ca: string };
  clientId: string;
  clientSecret: string;
  counts: { tokens: number; puts: number; gets: number; conflitos: number; outras: number };
  /** Charges created per txid (a value above 1 is a duplicate at the PSP). */
  created: Map<string, number>;
  close(): Promise<void>;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function certificates(dir: string): void {
  const days = ['-days', '2'];
  const key = ['-newkey', 'rsa:2048', '-nodes'];
  openssl(
    [
      'req',
      '-x509',
      ...key,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-subj',
      '/CN=PSP bench CA',
      ...days,
    ],
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
}

export async function startBenchPsp(o: { latenciaMs: number }): Promise<BenchPsp> {
  const dir = mkdtempSync(join(tmpdir(), 'balcao-bench-psp-'));
  certificates(dir);
  const clientId = 'bench';
  const clientSecret = randomBytes(12).toString('hex');
  const tokens = new Set<string>();
  const cobs = new Map<string, Record<string, unknown>>();
  const created = new Map<string, number>();
  const counts = { tokens: 0, puts: 0, gets: 0, conflitos: 0, outras: 0 };
  const wait = () =>
    o.latenciaMs > 0 ? new Promise<void>((r) => setTimeout(r, o.latenciaMs)) : Promise.resolve();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    await wait();
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method === 'POST' && path === '/oauth/token') {
      const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
      if (req.headers.authorization !== `Basic ${basic}`)
        return send(401, { title: 'Não autorizado.' });
      counts.tokens++;
      const t = randomUUID();
      tokens.add(t);
      return send(200, { access_token: t, token_type: 'Bearer', expires_in: 3600 });
    }
    const auth = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    if (!auth?.[1] || !tokens.has(auth[1])) return send(401, { title: 'Não autorizado.' });
    const m = /^\/(cob|cobv)\/([a-zA-Z0-9]{26,35})$/.exec(path);
    if (!m) {
      counts.outras++;
      return send(404, { title: 'Não encontrado.' });
    }
    const txid = m[2]!;
    if (req.method === 'PUT') {
      counts.puts++;
      if (cobs.has(txid)) {
        counts.conflitos++;
        return send(409, { title: 'Cobrança já existe.' });
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return send(400, { title: 'Corpo inválido.' });
      }
      const loc = `pix.bench.test/qr/v2/${randomUUID()}`;
      const cob = {
        ...body,
        txid,
        status: 'ATIVA',
        location: loc,
        pixCopiaECola: `00020101021226830014BR.GOV.BCB.PIX2561${loc}5204000053039865802BR6304BE9C`,
      };
      cobs.set(txid, cob);
      created.set(txid, (created.get(txid) ?? 0) + 1);
      return send(201, cob);
    }
    if (req.method === 'GET') {
      counts.gets++;
      const cob = cobs.get(txid);
      return cob ? send(200, cob) : send(404, { title: 'Cobrança não encontrada.' });
    }
    counts.outras++;
    return send(405, { title: 'Método não permitido.' });
  };

  const server = createServer(
    {
      key: readFileSync(join(dir, 'server.key')),
      cert: readFileSync(join(dir, 'server.pem')),
      ca: readFileSync(join(dir, 'ca.pem')),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      handle(req, res).catch(() => {
        res.statusCode = 500;
        res.end();
      });
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    files: {
      cert: join(dir, 'client.pem'),
      key: join(dir, 'client.key'),
      ca: join(dir, 'ca.pem'),
    },
    clientId,
    clientSecret,
    counts,
    created,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          r();
        });
      }),
  };
}
