/**
 * Once a fact has named its one person, a later "<name>'s" reads as "their": "Omar lost
 * Omar's keys" → "Omar lost their keys". The learner cannot know anyone's pronouns, so it uses
 * the singular "their", and only when the fact names no one else (with two people, "their"
 * could mean either, and the name is kept).
 */
export function tidyRepeatedPossessives(text: string, names: readonly string[]): string {
  const mentioned = [
    ...new Set(names.filter((name) => name !== '' && new RegExp(`(?:^|[^\\p{L}])${escape(name)}(?![\\p{L}])`, 'iu').test(text))),
  ];
  const [only] = mentioned;
  if (only === undefined || mentioned.length !== 1) return text;
  const name = escape(only);
  const first = new RegExp(`(?:^|[^\\p{L}])${name}(?![\\p{L}])`, 'iu').exec(text);
  if (!first) return text;
  const cut = first.index + first[0].length;
  const rest = text.slice(cut).replace(new RegExp(`(^|[^\\p{L}])${name}['’]s(?![\\p{L}])`, 'giu'), '$1their');
  return text.slice(0, cut) + rest;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
