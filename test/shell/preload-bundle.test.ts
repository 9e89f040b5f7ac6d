/**
 * Runs the BUILT preload (out/preload/preload.cjs) the way a sandboxed renderer does: one
 * CommonJS file whose `require` offers only `electron` (here a recording fake), in a fresh V8
 * context. Checks what reaches the page: exactly `invoke` and `on`, contract-checked.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNELS, EVENTS } from '../../src-shared/contract';

const bundle = join(resolve(__dirname, '../..'), 'out/preload/preload.cjs');

interface Api {
  invoke(channel: string, input?: unknown): Promise<unknown>;
  on(event: string, listener: (p: unknown) => void): () => void;
}

const required: string[] = [];
const exposed = new Map<string, unknown>();
const ipcRenderer = {
  invoke: vi.fn(async (channel: string, input: unknown) => ({
    ok: true,
    data: { channel, input },
  })),
  on: vi.fn(),
  removeListener: vi.fn(),
  send: vi.fn(),
  sendSync: vi.fn(),
  postMessage: vi.fn(),
};
const contextBridge = {
  exposeInMainWorld: vi.fn((key: string, value: unknown) => exposed.set(key, value)),
};
let api: Api;

beforeAll(() => {
  const module = { exports: {} };
  const sandboxRequire = (name: string) => {
    required.push(name);
    if (name === 'electron') return { contextBridge, ipcRenderer };
    throw new Error(`module not available in a sandboxed preload: ${name}`);
  };
  // Only what a sandboxed preload has: JS builtins, timers, console, URL, encoders.
  const context = createContext({
    require: sandboxRequire,
    module,
    exports: module.exports,
    console,
    setTimeout,
    clearTimeout,
    queueMicrotask,
    URL,
    TextEncoder,
    TextDecoder,
  });
  runInContext(readFileSync(bundle, 'utf8'), context, { filename: bundle });
  api = exposed.get('balcao') as Api;
});

describe('sandboxed preload bundle', () => {
  it('is one self-contained file that requires nothing but electron', () => {
    expect([...new Set(required)]).toEqual(['electron']);
  });

  it('exposes exactly `balcao` with `invoke` and `on`, and no ipcRenderer', () => {
    expect(contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
    expect([...exposed.keys()]).toEqual(['balcao']);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
    expect(typeof api.invoke).toBe('function');
    expect(typeof api.on).toBe('function');
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.values(api)).not.toContain(ipcRenderer);
    expect(api.invoke).not.toBe(ipcRenderer.invoke);
  });

  it('forwards every contract channel with ipcRenderer.invoke only', async () => {
    for (const channel of CHANNELS) {
      await expect(api.invoke(channel, { a: 1 })).resolves.toEqual({
        ok: true,
        data: { channel, input: { a: 1 } },
      });
    }
    expect(ipcRenderer.invoke).toHaveBeenCalledTimes(CHANNELS.length);
    expect(ipcRenderer.send).not.toHaveBeenCalled();
    expect(ipcRenderer.sendSync).not.toHaveBeenCalled();
  });

  it('rejects channels outside the contract without sending anything', async () => {
    ipcRenderer.invoke.mockClear();
    for (const channel of [
      'settings/getApiKey',
      'electron-store-get-data',
      '__proto__',
      'constructor',
      'review/list ',
      '',
      42,
    ]) {
      await expect(api.invoke(channel as string, {})).rejects.toThrow(/fora do contrato/);
    }
    expect(ipcRenderer.invoke).not.toHaveBeenCalled();
  });

  it('subscribes to contract events, passes only the payload, and unsubscribes', () => {
    const [event] = EVENTS;
    const listener = vi.fn();
    const off = api.on(event!, listener);
    expect(ipcRenderer.on).toHaveBeenCalledTimes(1);
    const [channel, handler] = ipcRenderer.on.mock.calls[0] as [string, (...a: unknown[]) => void];
    expect(channel).toBe(`balcao:event:${event}`);
    handler({ sender: 'ipc-event-with-sender' }, { requestId: 'r1', etapa: 'x' });
    expect(listener).toHaveBeenCalledWith({ requestId: 'r1', etapa: 'x' });
    expect(listener.mock.calls[0]).toHaveLength(1);
    off();
    expect(ipcRenderer.removeListener).toHaveBeenCalledWith(channel, handler);
    handler({}, { requestId: 'r2', etapa: 'y' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(() => api.on('app/info', () => undefined)).toThrow(/fora do contrato/);
  });
});
