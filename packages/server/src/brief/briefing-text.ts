/**
 * The briefing's text, fitted to a budget. Each part is a list of lines, most important first
 * (what bears on the cue leads every part). Lines are taken in a fixed order that visits the
 * parts in turn, and taking stops at the first line that would not fit: so the text is never
 * longer than the budget, a line is never cut, and a larger budget only adds lines (the lines
 * at a budget are a prefix, part by part, of those at any larger budget).
 */

/** One part of a briefing: a heading and its lines, best first. */
export interface BriefingPart<T = unknown> {
  heading: string;
  lines: { text: string; item: T }[];
  /** Lines taken from this part on each visit. */
  perTurn: number;
}

/** Longest line kept whole; longer items are shortened when the line is made, whatever the budget. */
export const MAX_LINE_CHARS = 400;

/** A line of at most MAX_LINE_CHARS, on one line. */
export function line(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= MAX_LINE_CHARS) return flat;
  const cut = flat.slice(0, MAX_LINE_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > MAX_LINE_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

/** The briefing text within `budget` characters, and how many lines of each part it shows. */
export function fitBriefing(title: string, parts: BriefingPart[], budget: number): { text: string; shown: number[] } {
  const shown = parts.map(() => 0);
  if (title.length > budget) return { text: '', shown };
  // The length the text would have, kept as lines are added: a part's first line brings a blank
  // line and its heading with it.
  let length = title.length;
  taking: for (;;) {
    let added = false;
    for (const [index, part] of parts.entries()) {
      for (let step = 0; step < part.perTurn && shown[index]! < part.lines.length; step++) {
        const text = part.lines[shown[index]!]!.text;
        const cost = shown[index] === 0 ? 2 + part.heading.length + 1 + text.length : 1 + text.length;
        if (length + cost > budget) break taking;
        length += cost;
        shown[index]! += 1;
        added = true;
      }
    }
    if (!added) break;
  }
  const blocks = [title];
  parts.forEach((part, index) => {
    if (shown[index]! > 0)
      blocks.push(
        `\n${part.heading}\n${part.lines
          .slice(0, shown[index])
          .map((entry) => entry.text)
          .join('\n')}`,
      );
  });
  return { text: blocks.join('\n'), shown };
}
