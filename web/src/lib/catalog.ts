import { api } from './api.ts';
import type { ResponseMessage } from './api.ts';
import type { JsonSchema } from './json-schema.ts';
import { formFromProcedure, formFromSchema } from './schema-form.ts';
import type { FormModel } from './schema-form.ts';

/** Something the Execute view can run: a plugin action or a procedure. */
export interface CatalogEntry {
  name: string;
  kind: 'action' | 'procedure';
  summary: string;
  description?: string;
  form: FormModel;
  result?: JsonSchema;
}

interface PluginInfo {
  name: string;
  actions: {
    name: string;
    summary?: string;
    description?: string;
    extraArgs?: boolean;
    params?: JsonSchema;
    result?: JsonSchema;
  }[];
}

interface ProcedureInfo {
  name: string;
  params?: string[];
  /** Declared without a default: a call must pass them. */
  required?: string[];
  defaults?: Record<string, unknown>;
  summary?: string;
}

async function run<T>(action: string): Promise<T> {
  const res = await api<ResponseMessage>('POST', '/execute', { type: 'request', action });
  const errors = res.response?.errors ?? [];
  if (errors.length) throw new Error(`${action}: ${errors.join('; ')}`);
  return res.response?.output as T;
}

/**
 * Loads every action of every enabled plugin and every procedure, sorted by name.
 *
 * @example
 * const entries = await loadCatalog();
 */
export async function loadCatalog(): Promise<CatalogEntry[]> {
  const [plugins, procedures] = await Promise.all([
    run<PluginInfo[]>('inspect.get_all_plugins'),
    run<ProcedureInfo[]>('inspect.get_procedures'),
  ]);
  const entries: CatalogEntry[] = plugins.flatMap((p) =>
    p.actions.map((a) => ({
      name: a.name,
      kind: 'action' as const,
      summary: a.summary ?? '',
      description: a.description,
      form: formFromSchema(a.params, a.extraArgs),
      result: a.result,
    })),
  );
  for (const p of procedures) {
    entries.push({
      name: p.name,
      kind: 'procedure',
      summary: p.summary ?? 'User procedure',
      form: formFromProcedure(p.params ?? [], p.required, p.defaults),
    });
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}
