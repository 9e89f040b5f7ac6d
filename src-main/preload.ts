// Sandboxed preload (bundled to out/preload/preload.cjs): exposes exactly `invoke` and `on`
// as `window.balcao`. Never exposes ipcRenderer or channel names outside the contract.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CHANNELS, EVENTS } from '@shared/contract';
import { createBalcaoApi } from './shell/api-factory';
import { eventChannel } from './shell/channels';

const api = createBalcaoApi(
  {
    invoke: (channel, input) => ipcRenderer.invoke(channel, input),
    subscribe(event, listener) {
      const name = eventChannel(event);
      // The IpcRendererEvent (with its sender) never reaches the page: only the payload.
      const handler = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(name, handler);
      return () => ipcRenderer.removeListener(name, handler);
    },
  },
  CHANNELS,
  EVENTS,
);

contextBridge.exposeInMainWorld('balcao', api);
