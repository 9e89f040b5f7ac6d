import { useSyncExternalStore } from 'react';

/**
 * Hash routes (`#/fila`, `#/fila/42`, `#/vendas`): in-page navigation only, so the shell's
 * navigation lock never interferes and a reload keeps the current area.
 */
export interface Route {
  /** First segment ('fila', 'vendas', …), '' for the root. */
  area: string;
  /** The remaining segments, decoded. */
  rest: string[];
}

function subscribe(cb: () => void): () => void {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
}

const getHash = () => window.location.hash;

export function parseRoute(hash: string): Route {
  const segs = hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
  return { area: segs[0] ?? '', rest: segs.slice(1) };
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, getHash);
  return parseRoute(hash);
}

export function hrefFor(...segments: (string | number)[]): string {
  return '#/' + segments.map((s) => encodeURIComponent(String(s))).join('/');
}

export function navigate(...segments: (string | number)[]): void {
  window.location.hash = hrefFor(...segments);
}
