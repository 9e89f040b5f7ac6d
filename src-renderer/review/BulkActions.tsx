import { useCallback, useId, useMemo, useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import type { QueueItem, QueueView } from '@shared/contract/review';
import type {
  BulkInput,
  BulkItemResult,
  BulkResult,
  BulkAction,
} from '@shared/contract/review-bulk';
import { BULK_MAX } from '@shared/contract/review-bulk';
import { ApiError, invoke } from '../api';
import { DialogFooter } from '../components/DialogFooter';
import { useToast } from '../components/Toast';
import { useChannel } from '../useChannel';
import { DiscardDialog, ReopenDialog } from './dialogs';
import './bulk.css';

/**
 * Bulk actions on the queue (#39.5), a supervisor's: a checkbox per row (Shift+click selects a
 * range, Space toggles the row under the keyboard), "select all" for the loaded page, and a
 * toolbar that appears with the count — "Atribuir a…" and "Descartar…" on the open items,
 * "Reabrir…" on the discarded ones. The answer says, per item, done or skipped and why.
 */

/** The views that have bulk actions, and which. */
export const BULK_ACTIONS_OF: Partial<Record<QueueView, readonly BulkAction[]>> = {
  aberta: ['atribuir', 'descartar'],
  descartada: ['reabrir'],
};

export interface BulkSelection {
  ids: ReadonlySet<number>;
  isChecked(id: number): boolean;
  /** Toggles row `index`; with `range`, every row from the last one toggled takes its new state. */
  toggle(index: number, range: boolean): void;
  /** 'all' / 'some' / 'none' of the loaded rows. */
  pageState: 'all' | 'some' | 'none';
  togglePage(): void;
  clear(): void;
}

/** The selection over the loaded rows; ids that left the list leave the selection. */
export function useBulkSelection(items: readonly QueueItem[], resetKey: string): BulkSelection {
  // Chosen ids and the last row toggled, for one set of rows (another view or other filters
  // start empty).
  const [raw, setRaw] = useState<{ key: string; ids: ReadonlySet<number>; anchor: number | null }>(
    () => ({ key: resetKey, ids: new Set(), anchor: null }),
  );
  const current =
    raw.key === resetKey ? raw : { key: resetKey, ids: new Set<number>(), anchor: null };
  // Items that left the view (discarded, reopened, changed by someone else) are not selected.
  const ids = useMemo<ReadonlySet<number>>(
    () => new Set(items.filter((it) => current.ids.has(it.id)).map((it) => it.id)),
    [items, current.ids],
  );

  const toggle = useCallback(
    (index: number, range: boolean) => {
      const it = items[index];
      if (!it) return;
      setRaw((prev) => {
        const base =
          prev.key === resetKey ? prev : { key: resetKey, ids: new Set<number>(), anchor: null };
        const next = new Set([...base.ids].filter((id) => items.some((x) => x.id === id)));
        const on = !next.has(it.id);
        const from = range && base.anchor !== null ? base.anchor : index;
        const [a, b] = from <= index ? [from, index] : [index, from];
        for (let i = a; i <= b; i++) {
          const row = items[i];
          if (!row) continue;
          if (on && next.size < BULK_MAX) next.add(row.id);
          else if (!on) next.delete(row.id);
        }
        return { key: resetKey, ids: next, anchor: index };
      });
    },
    [items, resetKey],
  );
  const checkedOnPage = ids.size;
  const pageState = checkedOnPage === 0 ? 'none' : checkedOnPage === items.length ? 'all' : 'some';
  const togglePage = useCallback(() => {
    setRaw((prev) => {
      const cur = prev.key === resetKey ? prev.ids : new Set<number>();
      const all = items.length > 0 && items.every((it) => cur.has(it.id));
      return {
        key: resetKey,
        ids: all ? new Set() : new Set(items.slice(0, BULK_MAX).map((it) => it.id)),
        anchor: null,
      };
    });
  }, [items, resetKey]);
  const clear = useCallback(
    () => setRaw({ key: resetKey, ids: new Set(), anchor: null }),
    [resetKey],
  );
  return {
    ids,
    isChecked: (id) => ids.has(id),
    toggle,
    pageState,
    togglePage,
    clear,
  };
}

const DONE_VERB: Record<BulkAction, [string, string]> = {
  atribuir: ['atribuído', 'atribuídos'],
  descartar: ['descartado', 'descartados'],
  reabrir: ['reaberto', 'reabertos'],
};

const pedidos = (n: number) => (n === 1 ? '1 pedido' : `${n} pedidos`);

/** The toast's sentence: how many done, how many skipped. */
export function bulkSummary(r: Pick<BulkResult, 'acao' | 'feitos' | 'ignorados'>): string {
  const [one, many] = DONE_VERB[r.acao];
  const done = `${pedidos(r.feitos)} ${r.feitos === 1 ? one : many}`;
  if (!r.ignorados) return `${done}.`;
  return `${done}; ${r.ignorados === 1 ? '1 ignorado' : `${r.ignorados} ignorados`} (veja os motivos).`;
}

/** The toolbar above the table while something is selected, its dialogs and the outcome. */
export function BulkToolbar({
  view,
  selection,
  onDone,
}: {
  view: QueueView;
  selection: BulkSelection;
  /** After an action: the list reloads. */
  onDone: () => void;
}) {
  const toast = useToast();
  const [dialog, setDialog] = useState<BulkAction | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [skipped, setSkipped] = useState<{ acao: BulkAction; itens: BulkItemResult[] } | null>(
    null,
  );
  const actions = BULK_ACTIONS_OF[view] ?? [];
  const n = selection.ids.size;
  const ids = useMemo(() => [...selection.ids], [selection.ids]);

  const run = async (input: BulkInput) => {
    setBusy(true);
    setError(null);
    const r = await invoke('review/bulk', input);
    setBusy(false);
    if (!r.ok) {
      setError(new ApiError(r.error));
      return;
    }
    setDialog(null);
    const ignored = r.data.itens.filter((i) => !i.feito);
    setSkipped(ignored.length ? { acao: r.data.acao, itens: ignored } : null);
    toast.show(ignored.length ? 'info' : 'success', bulkSummary(r.data));
    selection.clear();
    onDone();
  };
  const open = (a: BulkAction | null) => {
    setError(null);
    setDialog(a);
  };

  if (!actions.length) return null;
  return (
    <>
      {n > 0 ? (
        <div
          className="toolbar bulk-toolbar"
          role="toolbar"
          aria-label="Ações em lote"
          data-testid="bulk-toolbar"
        >
          <span className="bulk-count" role="status" data-testid="bulk-count">
            {n === 1 ? '1 selecionado' : `${n} selecionados`}
          </span>
          {actions.includes('atribuir') ? (
            <button type="button" className="btn" onClick={() => open('atribuir')}>
              Atribuir a…
            </button>
          ) : null}
          {actions.includes('descartar') ? (
            <button type="button" className="btn btn-danger" onClick={() => open('descartar')}>
              Descartar…
            </button>
          ) : null}
          {actions.includes('reabrir') ? (
            <button type="button" className="btn" onClick={() => open('reabrir')}>
              Reabrir…
            </button>
          ) : null}
          <span className="toolbar-spacer" />
          <button type="button" className="btn btn-ghost" onClick={selection.clear}>
            Limpar seleção
          </button>
        </div>
      ) : null}
      {skipped ? (
        <div className="notice notice-warn bulk-skipped" role="status" data-testid="bulk-skipped">
          <div className="bulk-skipped-head">
            <strong>
              {skipped.itens.length === 1
                ? '1 pedido não foi alterado:'
                : `${skipped.itens.length} pedidos não foram alterados:`}
            </strong>
            <button
              type="button"
              className="btn btn-ghost"
              onClick={() => setSkipped(null)}
              aria-label="Fechar os detalhes"
            >
              Fechar
            </button>
          </div>
          <ul>
            {skipped.itens.map((i) => (
              <li key={i.id}>
                <a href={`#/fila/${i.id}`}>Pedido #{i.id}</a>: {i.feito ? '' : i.motivo}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <AssignDialog
        open={dialog === 'atribuir'}
        onOpenChange={(o) => open(o ? 'atribuir' : null)}
        count={n}
        busy={busy}
        error={error?.message ?? null}
        onAssign={(para) => void run({ acao: 'atribuir', ids, para })}
      />
      {dialog === 'descartar' ? (
        <DiscardDialog
          open
          onOpenChange={(o) => open(o ? 'descartar' : null)}
          busy={busy}
          error={error}
          title={`Descartar ${pedidos(n)}?`}
          description="Saem da fila sem criar cobrança, todos com o mesmo motivo. Cada um fica registrado com quem descartou e por quê; um pedido que alguém está atendendo não é descartado."
          onDiscard={(motivo, detalhe) =>
            void run({
              acao: 'descartar',
              ids,
              motivo,
              ...(detalhe.trim() ? { detalhe: detalhe.trim() } : {}),
            })
          }
        />
      ) : null}
      {dialog === 'reabrir' ? (
        <ReopenDialog
          open
          onOpenChange={(o) => open(o ? 'reabrir' : null)}
          busy={busy}
          error={error?.message ?? null}
          title={`Reabrir ${pedidos(n)}?`}
          description="Voltam à fila aberta. O motivo fica no histórico de cada um, com o seu nome."
          submitLabel={n === 1 ? 'Reabrir pedido' : `Reabrir ${n} pedidos`}
          onReopen={(motivo) => void run({ acao: 'reabrir', ids, motivo })}
        />
      ) : null}
    </>
  );
}

/** "Atribuir a…": one person of the queue (suporte or supervisor) for every selected item. */
function AssignDialog({
  open,
  onOpenChange,
  count,
  busy,
  error,
  onAssign,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  count: number;
  busy: boolean;
  error: string | null;
  onAssign: (login: string) => void;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="review-overlay" />
        <Dialog.Content
          className="review-dialog"
          data-testid="assign-dialog"
          aria-describedby={undefined}
        >
          <Dialog.Title className="review-dialog-title">Atribuir {pedidos(count)} a…</Dialog.Title>
          <Dialog.Description className="muted">
            A pessoa vê os pedidos atribuídos a ela na fila. Quem estiver atendendo um deles
            continua com ele (esse pedido não muda).
          </Dialog.Description>
          {open ? <AssignForm busy={busy} error={error} onAssign={onAssign} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function AssignForm({
  busy,
  error,
  onAssign,
}: {
  busy: boolean;
  error: string | null;
  onAssign: (login: string) => void;
}) {
  const people = useChannel('review/assignees', {});
  const [para, setPara] = useState('');
  const id = useId();
  const list = people.data?.pessoas ?? [];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (para) onAssign(para);
      }}
    >
      <div className="field">
        <label className="field-label" htmlFor={id}>
          Pessoa
        </label>
        <select
          id={id}
          value={para}
          autoFocus
          onChange={(e) => setPara(e.target.value)}
          disabled={busy || !list.length}
          data-testid="assign-person"
        >
          <option value="">
            {people.status === 'loading' ? 'Carregando…' : 'Escolha uma pessoa'}
          </option>
          {list.map((p) => (
            <option key={p.login} value={p.login}>
              {p.login} ({p.papeis})
            </option>
          ))}
        </select>
        {people.status !== 'loading' && !list.length && !people.error ? (
          <p className="muted">
            Ninguém com login próprio trabalha na fila neste banco (suporte ou supervisor). Um
            administrador cadastra as pessoas.
          </p>
        ) : null}
        {people.error ? <p className="field-error">{people.error.message}</p> : null}
      </div>
      <DialogFooter error={error} busy={busy} closeLabel="Voltar">
        <button type="submit" className="btn btn-primary" disabled={busy || !para}>
          {busy ? 'Atribuindo…' : 'Atribuir'}
        </button>
      </DialogFooter>
    </form>
  );
}
