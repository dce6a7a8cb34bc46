/** A query parameter value; undefined and null leave the parameter out. */
export type QueryValue = string | number | boolean | undefined | null;

/** `?a=1&b=x` from the defined values, or '' when there are none. */
export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
