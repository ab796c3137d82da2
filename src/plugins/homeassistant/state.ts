import { didYouMean, PipitError } from '../api/index.ts';
import type { HomeAssistantLink } from './link.ts';

/** What the plugin's `init` returns: its link to Home Assistant. */
export interface HomeAssistantState {
  link: HomeAssistantLink;
}

/** Throws NOT_FOUND naming an entity Home Assistant does not have, with the closest one. */
export function unknownEntity(entityId: string, known: Iterable<string>): never {
  throw new PipitError(
    'NOT_FOUND',
    `Home Assistant has no entity "${entityId}" (homeassistant.get_states lists those it has)${didYouMean(entityId, known)}`,
  );
}

/** Checks an entity id's shape (`<domain>.<object_id>`) and returns its domain. */
export function domainOf(entityId: string): string {
  const dot = entityId.indexOf('.');
  if (dot <= 0 || dot === entityId.length - 1)
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `entity_id "${entityId}" is not an entity id: expected <domain>.<name>, e.g. light.kitchen`,
    );
  return entityId.slice(0, dot);
}
