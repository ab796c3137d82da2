import { deviceGet } from './device-get.ts';
import { deviceRename } from './device-rename.ts';
import { deviceSet } from './device-set.ts';
import { devices, groups } from './list-actions.ts';
import { permitJoin } from './permit-join.ts';

/** Every action of the plugin, with Platypush's names. */
export const ZIGBEE_ACTIONS = [devices, groups, deviceGet, deviceSet, deviceRename, permitJoin];
