/** One device as the emulator keeps it: Zigbee2MQTT's bridge/devices entry and its state. */
export interface EmulatedDevice {
  info: Record<string, unknown> & { ieee_address: string; friendly_name: string };
  state: Record<string, unknown>;
}

// access bits, as in Zigbee2MQTT's exposes: 1 published, 2 settable, 4 readable with /get.
const ALL = 7;
const PUBLISHED = 1;

/**
 * The network the emulator starts with: the coordinator, a dimmable bulb, a plug and a
 * temperature/humidity sensor, in the shape of Zigbee2MQTT's `bridge/devices` payload.
 *
 * @example
 * const devices = defaultDevices(); // [coordinator, bulb, plug, sensor]
 */
export function defaultDevices(): EmulatedDevice[] {
  return [
    {
      info: {
        ieee_address: '0x00124b00120144ae',
        type: 'Coordinator',
        network_address: 0,
        supported: false,
        friendly_name: 'Coordinator',
        definition: null,
        power_source: null,
        interviewing: false,
        interview_completed: true,
      },
      state: {},
    },
    {
      info: {
        ieee_address: '0x90fd9ffffe6494fc',
        type: 'Router',
        network_address: 57440,
        supported: true,
        friendly_name: 'living_room_bulb',
        definition: {
          model: 'LED1624G9',
          vendor: 'IKEA',
          description: 'TRADFRI LED bulb E14/E26/E27 600 lumen, dimmable, color, opal white',
          exposes: [
            {
              type: 'light',
              features: [
                {
                  type: 'binary',
                  name: 'state',
                  property: 'state',
                  access: ALL,
                  value_on: 'ON',
                  value_off: 'OFF',
                  value_toggle: 'TOGGLE',
                },
                {
                  type: 'numeric',
                  name: 'brightness',
                  property: 'brightness',
                  access: ALL,
                  value_min: 0,
                  value_max: 254,
                },
              ],
            },
            { type: 'numeric', name: 'linkquality', property: 'linkquality', access: PUBLISHED },
          ],
          options: [],
        },
        power_source: 'Mains (single phase)',
        interviewing: false,
        interview_completed: true,
      },
      state: { state: 'OFF', brightness: 120, linkquality: 110 },
    },
    {
      info: {
        ieee_address: '0x00158d00018255df',
        type: 'Router',
        network_address: 29159,
        supported: true,
        friendly_name: 'kitchen/plug',
        definition: {
          model: 'ZNCZ02LM',
          vendor: 'Xiaomi',
          description: 'Mi power plug ZigBee',
          exposes: [
            {
              type: 'switch',
              features: [
                {
                  type: 'binary',
                  name: 'state',
                  property: 'state',
                  access: ALL,
                  value_on: 'ON',
                  value_off: 'OFF',
                },
              ],
            },
            { type: 'numeric', name: 'power', property: 'power', access: 5, unit: 'W' },
          ],
          options: [],
        },
        power_source: 'Mains (single phase)',
        interviewing: false,
        interview_completed: true,
      },
      state: { state: 'ON', power: 12.5 },
    },
    {
      info: {
        ieee_address: '0x00158d0001b79111',
        type: 'EndDevice',
        network_address: 22160,
        supported: true,
        friendly_name: 'hall_sensor',
        definition: {
          model: 'WSDCGQ01LM',
          vendor: 'Xiaomi',
          description: 'MiJia temperature & humidity sensor',
          exposes: [
            {
              type: 'numeric',
              name: 'temperature',
              property: 'temperature',
              access: PUBLISHED,
              unit: '°C',
            },
            {
              type: 'numeric',
              name: 'humidity',
              property: 'humidity',
              access: PUBLISHED,
              unit: '%',
            },
            { type: 'numeric', name: 'battery', property: 'battery', access: PUBLISHED, unit: '%' },
          ],
          options: [],
        },
        power_source: 'Battery',
        interviewing: false,
        interview_completed: true,
      },
      state: { temperature: 21.5, humidity: 44.7, battery: 90 },
    },
  ];
}

/** The groups the emulator starts with, in the shape of `bridge/groups`. */
export function defaultGroups(): Record<string, unknown>[] {
  return [
    {
      id: 1,
      friendly_name: 'living_room',
      scenes: [],
      members: [{ ieee_address: '0x90fd9ffffe6494fc', endpoint: 1 }],
    },
  ];
}
