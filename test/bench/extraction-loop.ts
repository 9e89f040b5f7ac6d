/**
 * Benchmark: extraction loop overhead OUTSIDE the model (issue-8 target: < 5 ms per attempt).
 *
 *   npx tsx --tsconfig tsconfig.json test/bench/extraction-loop.ts [extractions=300]
 *
 * Runs the real engine (runChargeExtraction: prompt, forced tool loop, zod rules, feedback,
 * amount check, cost) through the real SDK against the local fake Messages API (0 ms model
 * time). Half of the extractions need a correction (2 attempts), half are valid at once.
 * Reports, per attempt:
 *   - engine overhead = (engine wall time − time inside the SDK call) / attempts
 *     — our code only: request building, validation, feedback turn, alerts, status;
 *   - SDK + local HTTP time (context; with a real model this is network + inference).
 * The fake API runs in a child process so its work does not land in our measurements.
 * No database: persistence is a separate, once-per-extraction cost.
 */
import { fork } from 'node:child_process';
import Anthropic from '@anthropic-ai/sdk';
import { fixedClock } from '../../src-main/clock';
import { runChargeExtraction } from '../../src-main/extraction';
import { createMemorySettings } from '../../src-main/settings/memory';
import { chargeData } from '../support/charges';
import { startFakeAnthropic, toolUseReply } from '../support/fake-anthropic';

const N = Number(process.argv[2] === '--servidor' ? 0 : (process.argv[2] ?? 300));
const valid = chargeData();
const invalid = { ...valid, metodo: 'pix', vencimento: '2026-03-13' };

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  const f = (v: number) => v.toFixed(3);
  return `mean ${f(mean)} ms · p50 ${f(q(0.5))} · p95 ${f(q(0.95))} · p99 ${f(q(0.99))} · max ${f(q(1))}`;
}

async function server() {
  const fake = await startFakeAnthropic();
  fake.handle((req) => {
    // a request with history (3 messages) is a correction turn → answer valid
    const turns = (req.body?.messages as unknown[] | undefined)?.length ?? 1;
    const wantsInvalid = turns === 1 && String(req.body.messages[0].content).includes('#par');
    fake.requests.length = 0; // keep memory flat
    return toolUseReply('registrar_cobranca', wantsInvalid ? invalid : valid);
  });
  process.send?.(fake.url);
  process.on('disconnect', () => void fake.close().then(() => process.exit(0)));
}

async function main() {
  const child = fork(new URL(import.meta.url).pathname, ['--servidor'], {
    execArgv: ['--import', 'tsx'],
  });
  const url = await new Promise<string>((ok) => child.once('message', (m) => ok(String(m))));
  const fake = { url, close: async () => child.disconnect() };
  const settings = createMemorySettings(
    // a model without the SDK's per-request deprecation warning (console I/O is not ours)
    { maxRetries: 0, model: 'claude-haiku-4-5' },
    { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: fake.url },
  );
  const client = new Anthropic({ apiKey: 'bench', baseURL: fake.url, maxRetries: 0 });
  const clock = fixedClock(new Date('2026-03-16T15:00:00Z'));
  const texto = (i: number) =>
    `manda um link de 150 reais pro João Silva no cartão em 3x, vence sexta ${i % 2 ? '#par' : ''}`;

  // warm-up (JIT, sockets, schema cache)
  for (let i = 0; i < 30; i++) await runChargeExtraction({ settings, clock, client }, texto(i), []);

  const overhead: number[] = [];
  const sdk: number[] = [];
  const loopOnly: number[] = [];
  let attempts = 0;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const s = performance.now();
    const r = await runChargeExtraction({ settings, clock, client }, texto(i), []);
    const wall = performance.now() - s;
    const inCall = r.attempts.reduce((a, x) => a + x.callMs, 0);
    attempts += r.attempts.length;
    for (const a of r.attempts) {
      overhead.push((wall - inCall) / r.attempts.length);
      sdk.push(a.callMs);
      loopOnly.push(a.overheadMs);
    }
  }
  const total = performance.now() - t0;
  await fake.close();
  console.log(
    `extrações: ${N} · tentativas: ${attempts} · ${(total / N).toFixed(2)} ms/extração no total`,
  );
  console.log(`overhead do motor por tentativa (fora do modelo/HTTP): ${stats(overhead)}`);
  console.log(`  só o laço (montar requisição + validar):              ${stats(loopOnly)}`);
  console.log(`SDK + HTTP local por tentativa (contexto):             ${stats(sdk)}`);
}

void (process.argv[2] === '--servidor' ? server() : main());
