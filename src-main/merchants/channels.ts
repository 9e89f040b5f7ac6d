import type { Channel } from '@shared/contract';
import type { DomainChannels } from '../channels';
import type { ServiceDeps } from '../deps';
import { setChavePix } from '../psp/admin';
import { addContato, removeContato } from '../whatsapp/contacts';
import { merchantDetail, searchMerchantsForScreen } from './screen';

export type MerchantsChannel = Extract<Channel, `merchants/${string}`>;

/**
 * The supervisor's merchant screen (#36.5, #37.1), supervisor-only by the contract's permissions
 * (and by the database's grants). The changes call the services the CLI's `balcao lojistas`
 * calls, audited with the `operator` setting at call time.
 */
export function merchantsChannels(deps: ServiceDeps): DomainChannels<MerchantsChannel> {
  const operador = () => deps.settings.get().operator;
  return {
    'merchants/list': (f) => searchMerchantsForScreen(deps.dbs.app, f),
    'merchants/get': ({ merchantId }) => merchantDetail(deps.dbs.app, merchantId),
    'merchants/setPixKey': async ({ merchantId, chave }) => {
      const r = await setChavePix(deps.dbs.app, merchantId, chave, operador());
      return { chavePix: r.lojista.chave_pix ?? '', tipo: r.tipo };
    },
    'merchants/addContact': async ({ merchantId, telefone }) => {
      const r = await addContato(deps.dbs.app, merchantId, telefone, operador());
      return { telefone: r.contato.telefone, criado: r.criado };
    },
    'merchants/removeContact': async ({ merchantId, telefone }) => {
      const r = await removeContato(deps.dbs.app, merchantId, telefone, operador());
      return { telefone: r.telefone };
    },
  };
}
