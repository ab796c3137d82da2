// fast-check generators of hostile inputs for POST /execute, /ws/requests, /ws/events and
// /hook/<name>: well-formed requests with wrong field types, unknown actions, random JSON values,
// malformed JSON text, deep nesting (up to 10,000 levels, built as text), huge strings, prototype
// keys, unicode, NUL bytes, odd content types and methods, binary and invalid UTF-8 frames.
//
// Every input carries a `label` (what kind of input it is: "request/utils.echo", "deep/echo",
// "malformed"...) so that failures can be grouped, and keeps its payload as text or bytes exactly
// as it goes on the wire.
//
// The generators live in generators/, one file per kind of input; this file gathers them.
export * from './generators/common.ts';
export * from './generators/values.ts';
export * from './generators/requests.ts';
export * from './generators/payloads.ts';
export * from './generators/http.ts';
export * from './generators/hooks.ts';
export * from './generators/ws.ts';
