/** The operators LangGraph's stores take in a `search()` filter. */
const operators = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']);

function isOperators(condition: unknown): condition is Record<string, unknown> {
  return (
    typeof condition === 'object' &&
    condition !== null &&
    !Array.isArray(condition) &&
    Object.keys(condition).length > 0 &&
    Object.keys(condition).every((name) => operators.has(name))
  );
}

function matchesOne(actual: unknown, condition: unknown): boolean {
  if (!isOperators(condition)) return JSON.stringify(actual) === JSON.stringify(condition);
  return Object.entries(condition).every(([operator, wanted]) => {
    switch (operator) {
      case '$eq':
        return JSON.stringify(actual) === JSON.stringify(wanted);
      case '$ne':
        return JSON.stringify(actual) !== JSON.stringify(wanted);
      case '$gt':
        return Number(actual) > Number(wanted);
      case '$gte':
        return Number(actual) >= Number(wanted);
      case '$lt':
        return Number(actual) < Number(wanted);
      case '$lte':
        return Number(actual) <= Number(wanted);
      case '$in':
        return Array.isArray(wanted) && wanted.includes(actual);
      default: // $nin
        return !Array.isArray(wanted) || !wanted.includes(actual);
    }
  });
}

/**
 * Whether an item's value passes a LangGraph search filter: every field must equal the value
 * given, or pass its operators (`{ score: { $gte: 3 } }`), as LangGraph's own stores judge it.
 */
export function matchesFilter(value: Record<string, unknown>, filter: Record<string, unknown> | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([field, condition]) => matchesOne(value[field], condition));
}
