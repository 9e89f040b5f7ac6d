import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

/**
 * The SCRAM-SHA-256 verifier PostgreSQL stores for a password (what `\password` in psql sends):
 * the password itself never travels to the server nor lands in its statement log. The password
 * is NFKC-normalised like PostgreSQL's SASLprep does for typical (printable) passwords.
 */
export function scramVerifier(
  password: string,
  opts: { salt?: Buffer; iterations?: number } = {},
): string {
  const salt = opts.salt ?? randomBytes(16);
  const iterations = opts.iterations ?? 4096;
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
