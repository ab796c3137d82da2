// `fields` selections (Spotify's `a,b(c,d)` filter syntax) for the reads that page through
// playlists: Spotify then sends only what the mappers read. A page of 50 full playlist entries is
// ~190 KB (markets, links, every image size, album artists, added_by...), ~60 KB with this
// selection: less to transfer, decode and parse for every page of a large playlist (the client's
// CPU was most of the time of a 5,000-item get_playlist). Kept next to mappers.ts: a field the
// mappers start reading must be added here too (the playlist tests compare full outputs).

// What toTrack/toEpisode read, for either kind of entry.
const PLAYABLE =
  'type,uri,id,name,duration_ms,popularity,track_number,release_date,description,' +
  'external_urls(spotify),images(url),album(name,release_date,images(url)),artists(name),' +
  'show(name,publisher,images(url))';

/**
 * A page of playlist entries: the total, and each entry's item (`item`, or the deprecated
 * `track` that older responses use).
 *
 * @example
 * client.request({ path: `/playlists/${id}/items`, query: { offset, limit, fields: PLAYLIST_ITEMS_FIELDS } });
 */
export const PLAYLIST_ITEMS_FIELDS = `total,items(item(${PLAYABLE}),track(${PLAYABLE}))`;

/**
 * A playlist with its first page of entries embedded: what toPlaylist reads, plus that page.
 *
 * @example
 * client.request({ path: `/playlists/${id}`, query: { fields: PLAYLIST_FIELDS } });
 */
export const PLAYLIST_FIELDS =
  'collaborative,description,id,name,owner(id,display_name,uri),public,snapshot_id,uri,' +
  `external_urls(spotify),items(${PLAYLIST_ITEMS_FIELDS}),tracks(${PLAYLIST_ITEMS_FIELDS})`;
