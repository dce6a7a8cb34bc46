/**
 * Reads an environment variable where one exists (Node, Bun, Deno) and returns undefined
 * elsewhere (browsers, edge runtimes without `process`). Blank values count as unset.
 */
export function readEnv(name: string): string | undefined {
  const runtime = globalThis as {
    process?: { env?: Record<string, string | undefined> };
    Deno?: { env?: { get?: (name: string) => string | undefined } };
  };
  let value: string | undefined;
  try {
    value = runtime.process?.env?.[name] ?? runtime.Deno?.env?.get?.(name);
  } catch {
    // Deno without --allow-env throws; that is the same as unset.
    value = undefined;
  }
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
