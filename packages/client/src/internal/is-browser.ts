/** True in a web page, where a key sent with a request can be read by anyone using it. */
export function isBrowser(): boolean {
  const runtime = globalThis as { window?: { document?: unknown }; navigator?: unknown };
  return (
    typeof runtime.window !== 'undefined' && typeof runtime.window?.document !== 'undefined' && typeof runtime.navigator !== 'undefined'
  );
}
