import type { Channel } from '@shared/contract';
import { maskDocumentsDeep } from '@shared/lgpd';
import type { ExtractionDetail, ItemLease } from '@shared/contract/review';
import type { DomainChannels } from '../channels';
import type { WindowRegistry } from '../windows';
import * as actions from './actions';
import type { QueueContext } from './actions';
import { listCharges } from './charges';
import { getExtraction } from './detail';
import { claim, claimNext, release, renew } from './lease';
import { filterOptions, listQueue } from './list';
import { failureReport } from './report';
import { reopen, takeOver } from './supervisor';
import { bulkAction, listAssignees } from './bulk';
import { teamPanel } from './team-panel';
import { itemThread, sendQuestion } from './thread';

export type ReviewChannel = Extract<Channel, `review/${string}`>;

/** Not held: the action ended the lease (charge created, discarded) or took none (reopen). */
const NOT_HELD: ItemLease = { held: false, expiraEm: null };

/** After an action done under the caller's token: held while the item is still open. */
const leaseAfter = (item: ExtractionDetail): ItemLease =>
  item.filaEstado === 'aberta' && item.leaseExpiraEm !== null
    ? { held: true, expiraEm: item.leaseExpiraEm }
    : NOT_HELD;

/**
 * The review queue's channels, each calling its queue function. The operator recorded in leases
 * and the audit log is the `operator` setting at call time. The leases a window holds are its
 * per-window state: when it closes they go back to the queue at once instead of expiring.
 */
export function reviewChannels(
  ctx: QueueContext,
  windows: WindowRegistry,
): DomainChannels<ReviewChannel> {
  const operador = () => ctx.settings.get().operator;
  const settings = () => ctx.settings.get();
  // Every text and field a screen shows leaves here with its CPFs/CNPJs masked (#38.2); a
  // supervisor reveals one through lgpd/revelar, audited.
  const detail = async (id: number): Promise<ExtractionDetail> =>
    maskDocumentsDeep(await getExtraction(ctx.pool, id, settings().prices));
  const leases = windows.perWindow(
    'review/leases',
    () => new Map<number, string>(),
    (held) => {
      for (const [id, token] of held)
        void release(ctx.pool, { id, token, operador: operador() }).catch(() => undefined);
    },
  );
  return {
    'review/list': async (input) => {
      const page = await listQueue(ctx.pool, input, settings().prazosMin);
      return { ...page, items: maskDocumentsDeep(page.items) };
    },
    'review/filterOptions': ({ view }) => filterOptions(ctx.pool, view),
    'review/get': ({ id }) => detail(id),
    'review/claim': async ({ id }, caller) => {
      const r = await claim(ctx.pool, { id, operador: operador(), ttlMs: actions.ttl(ctx) });
      if (r.claimed) leases.get(caller).set(id, r.token);
      return r;
    },
    'review/claimNext': async ({ exceto }, caller) => {
      const r = await claimNext(ctx.pool, {
        operador: operador(),
        ttlMs: actions.ttl(ctx),
        prazos: settings().prazosMin,
        ...(exceto !== undefined ? { exceto } : {}),
      });
      if (r.claimed) leases.get(caller).set(r.id, r.token);
      return r;
    },
    'review/renew': ({ id, token }) => renew(ctx.pool, { id, token, ttlMs: actions.ttl(ctx) }),
    'review/release': ({ id, token }, caller) => {
      leases.peek(caller)?.delete(id);
      return release(ctx.pool, { id, token, operador: operador() });
    },
    'review/validate': async ({ dados }) => actions.validateDados(ctx, dados),
    'review/save': async (input) => {
      const item = maskDocumentsDeep(await actions.saveDraft(ctx, input));
      return { ...item, lease: leaseAfter(item) };
    },
    // Each item action answers with the item as it now is and the caller's lease: one round trip.
    'review/confirm': async (input, caller) => {
      const r = await actions.confirmCharge(ctx, input);
      leases.peek(caller)?.delete(input.id);
      return { ...maskDocumentsDeep(r), item: await detail(input.id), lease: NOT_HELD };
    },
    'review/askMerchant': (input) => actions.askMerchant(ctx, input),
    'review/thread': async ({ id }) => maskDocumentsDeep(await itemThread(ctx.pool, id)),
    'review/sendQuestion': (input) => sendQuestion(ctx, input),
    'review/recordAnswer': async (input, caller) => {
      const r = maskDocumentsDeep(
        await actions.recordAnswer(ctx, { ...input, signal: caller.signal }),
      );
      return { ...r, lease: leaseAfter(r.detalhe) };
    },
    'review/reprocess': async (input, caller) => {
      const r = maskDocumentsDeep(
        await actions.reprocess(ctx, { ...input, signal: caller.signal }),
      );
      return { ...r, lease: leaseAfter(r.detalhe) };
    },
    'review/discard': async (input, caller) => {
      const item = maskDocumentsDeep(await actions.discard(ctx, input));
      leases.peek(caller)?.delete(input.id);
      return { ...item, lease: NOT_HELD };
    },
    'review/charges': async (input) => {
      const page = await listCharges(ctx.pool, input, {
        hoje: actions.today(ctx),
        zone: settings().timeZone,
      });
      return { ...page, items: maskDocumentsDeep(page.items) };
    },
    'review/failureReport': (input) =>
      failureReport(ctx.pool, input, settings().timeZone, settings().alertaFalhasValidacaoPct),
    'review/takeOver': async ({ id }, caller) => {
      const r = await takeOver(ctx.pool, { id, operador: operador(), ttlMs: actions.ttl(ctx) });
      leases.get(caller).set(id, r.token);
      return r;
    },
    'review/reopen': async ({ id, motivo }) => {
      await reopen(ctx.pool, { id, operador: operador(), motivo });
      return { ...(await detail(id)), lease: NOT_HELD };
    },
    // Bulk actions (#39.5): each item done or skipped with its reason, each audited.
    'review/bulk': (input) => bulkAction(ctx.pool, input, operador()),
    'review/assignees': async () => ({ pessoas: await listAssignees(ctx.pool) }),
    'review/teamPanel': () =>
      teamPanel(ctx.pool, {
        agora: ctx.clock.now(),
        timeZone: settings().timeZone,
        prazos: settings().prazosMin,
        alertaFalhasValidacaoPct: settings().alertaFalhasValidacaoPct,
      }),
  };
}
