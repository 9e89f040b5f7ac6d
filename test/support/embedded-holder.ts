/**
 * A process that holds the embedded server the way the app does (startEmbedded … stop()), for
 * tests with real processes. Prints `pronto <port>` once attached or started; leaves (stop())
 * when it reads `sair` on stdin, then prints `saiu` and exits.
 */
import { createInterface } from 'node:readline';
import { startEmbedded } from '../../src-main/db/embedded';

const dir = process.argv[2];
if (!dir) throw new Error('uso: embedded-holder <pasta>');
const server = await startEmbedded(dir);
process.stdout.write(`pronto ${server.port}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'sair') break;
}
await server.stop();
process.stdout.write('saiu\n');
process.exit(0);
