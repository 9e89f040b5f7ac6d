/**
 * TLS for `balcao serve` (#36.3), from the environment: BALCAO_SERVE_TLS_CERT / BALCAO_SERVE_TLS_KEY
 * (PEM paths: serve listens HTTPS with them) and BALCAO_PSP_WEBHOOK_CA (PEM path of the CA that
 * signs the PSP's client certificate: the Pix webhook then needs a client certificate signed by
 * it). Every file is read and parsed here, at start: a missing, unreadable or invalid file is a
 * pt-BR configuration error naming its variable, never a raw Node error when the server starts.
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { AppError } from '@shared/errors';

export interface ServeTls {
  cert: Buffer;
  key: Buffer;
  /** The CA of the PSP's client certificates: set, the Pix webhook requires mutual TLS. */
  webhookCa?: Buffer;
}

const configError = (m: string) => new AppError('configuracao', m);

function readPem(env: NodeJS.ProcessEnv, name: string): { path: string; pem: Buffer } | null {
  const path = env[name]?.trim();
  if (!path) return null;
  let pem: Buffer;
  try {
    pem = readFileSync(path);
  } catch {
    throw configError(`Não foi possível ler ${name} (${path}): o arquivo existe e é legível?`);
  }
  if (!pem.toString('utf8').includes('-----BEGIN ')) {
    throw configError(`${name} não aponta para um arquivo PEM: ${path}.`);
  }
  return { path, pem };
}

function certificate(name: string, f: { path: string; pem: Buffer }): X509Certificate {
  try {
    return new X509Certificate(f.pem);
  } catch {
    throw configError(`${name} (${f.path}) não contém um certificado PEM válido.`);
  }
}

/** The TLS of `balcao serve`, or null (plain HTTP) when none of the variables is set. */
export function serveTls(env: NodeJS.ProcessEnv = process.env): ServeTls | null {
  const certFile = readPem(env, 'BALCAO_SERVE_TLS_CERT');
  const keyFile = readPem(env, 'BALCAO_SERVE_TLS_KEY');
  const caFile = readPem(env, 'BALCAO_PSP_WEBHOOK_CA');
  if (!certFile && !keyFile) {
    if (caFile) {
      throw configError(
        'BALCAO_PSP_WEBHOOK_CA exige HTTPS: defina também BALCAO_SERVE_TLS_CERT e BALCAO_SERVE_TLS_KEY (certificado e chave do servidor).',
      );
    }
    return null;
  }
  if (!certFile || !keyFile) {
    throw configError(
      'BALCAO_SERVE_TLS_CERT e BALCAO_SERVE_TLS_KEY vão juntos (certificado e chave do servidor).',
    );
  }
  const x509 = certificate('BALCAO_SERVE_TLS_CERT', certFile);
  let key: KeyObject;
  try {
    key = createPrivateKey(keyFile.pem);
  } catch {
    throw configError(
      `BALCAO_SERVE_TLS_KEY (${keyFile.path}) não contém uma chave privada PEM válida (sem senha).`,
    );
  }
  if (!x509.checkPrivateKey(key)) {
    throw configError(
      'BALCAO_SERVE_TLS_KEY não é a chave do certificado de BALCAO_SERVE_TLS_CERT.',
    );
  }
  if (caFile) certificate('BALCAO_PSP_WEBHOOK_CA', caFile);
  const tls: ServeTls = {
    cert: certFile.pem,
    key: keyFile.pem,
    ...(caFile ? { webhookCa: caFile.pem } : {}),
  };
  try {
    // What the server will build: any remaining refusal is said here, in pt-BR.
    createSecureContext({
      cert: tls.cert,
      key: tls.key,
      ...(tls.webhookCa ? { ca: tls.webhookCa } : {}),
    });
  } catch {
    throw configError(
      'Não foi possível montar o TLS de serve com BALCAO_SERVE_TLS_CERT, BALCAO_SERVE_TLS_KEY e BALCAO_PSP_WEBHOOK_CA: confira os arquivos PEM.',
    );
  }
  return tls;
}
