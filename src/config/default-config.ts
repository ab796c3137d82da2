/**
 * The commented configuration `pipit start` writes when none exists. It must stay valid: a test
 * loads it.
 */
export const DEFAULT_CONFIG_YAML = `# Pipit configuration. Reference: README.md ("Configuration").
# Secrets can come from the environment instead of this file:  client_secret: !env SPOTIFY_SECRET

# device_id: kitchen            # this instance's name (default: the host name)
# workdir: ~/.local/share/pipit # database, JWT key and credentials
# scripts_dir: ./scripts        # .ts/.js/.mjs procedures, hooks and crons, relative to this file
# include: [other.yaml]         # more configuration, merged in

# The HTTP API (POST /execute, /auth, /hook/<name>), WebSockets and the web UI.
backend.http:
  port: 8008
  bind_address: 0.0.0.0

# music.spotify:
#   client_id: your-app-client-id
#   client_secret: !env SPOTIFY_CLIENT_SECRET   # optional: PKCE is used without it
#   redirect_uri: http://127.0.0.1:8008/spotify/auth_callback

# procedure.hello(name):
#   - action: utils.echo
#     args: {text: 'Hello, \${name}'}
`;
