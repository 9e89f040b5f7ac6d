import type { Route } from '../router';
import { ItemView } from './ItemView';
import { QueueList } from './QueueList';
import './review.css';

/** `#/fila` is the list; `#/fila/42` the item (claimed while open). */
export function QueuePage({ route }: { route: Route }) {
  const id = Number(route.rest[0]);
  if (route.rest[0] && Number.isSafeInteger(id) && id > 0) return <ItemView key={id} id={id} />;
  return <QueueList />;
}
