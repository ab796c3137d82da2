/** Said when a `homeassistant.*` action is called without a `homeassistant:` section. */
export const HOMEASSISTANT_DISABLED_HINT =
  'add a "homeassistant:" section with url (e.g. http://homeassistant.local:8123) and token (a long-lived access token from your Home Assistant profile)';
