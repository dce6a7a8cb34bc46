/**
 * Matches an answer against the shape a README shows for it, such as
 * `201 {"source":{"id":"src_…","status":"queued",…}}`: a leading status is left out (curl -s
 * prints the body only), `…` in a string stands for any text, `…` in an object for the keys not
 * shown and in an array for the items not shown. Keys and items shown must be there and match.
 * Returns the differences found, empty when the answer has the shape.
 */
export function differencesFromShown(shown: string, answer: unknown): string[] {
  const expected = new ShownParser(shown.replace(/^\d{3}\s+/, '')).parse();
  const differences: string[] = [];
  compare(expected, answer, '$', differences);
  return differences;
}

type Shown =
  | { kind: 'object'; entries: [string, Shown][] }
  | { kind: 'array'; items: Shown[]; more: boolean }
  | { kind: 'text'; pattern: RegExp; text: string }
  | { kind: 'literal'; value: unknown }
  | { kind: 'any' };

function compare(expected: Shown, actual: unknown, path: string, differences: string[]): void {
  switch (expected.kind) {
    case 'any':
      return;
    case 'literal':
      if (actual !== expected.value) differences.push(`${path}: expected ${JSON.stringify(expected.value)}, got ${JSON.stringify(actual)}`);
      return;
    case 'text':
      if (typeof actual !== 'string' || !expected.pattern.test(actual))
        differences.push(`${path}: expected ${JSON.stringify(expected.text)}, got ${JSON.stringify(actual)}`);
      return;
    case 'array':
      if (!Array.isArray(actual)) return void differences.push(`${path}: expected an array, got ${JSON.stringify(actual)}`);
      if (expected.more ? actual.length < expected.items.length : actual.length !== expected.items.length) {
        differences.push(`${path}: expected ${expected.more ? 'at least ' : ''}${expected.items.length} items, got ${actual.length}`);
      }
      expected.items.forEach((item, index) => compare(item, actual[index], `${path}[${index}]`, differences));
      return;
    case 'object':
      if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
        return void differences.push(`${path}: expected an object, got ${JSON.stringify(actual)}`);
      for (const [key, value] of expected.entries) {
        if (!(key in actual)) differences.push(`${path}.${key}: missing`);
        else compare(value, (actual as Record<string, unknown>)[key], `${path}.${key}`, differences);
      }
  }
}

/** A JSON parser that also takes the README's `…`. */
class ShownParser {
  private at = 0;
  constructor(private readonly text: string) {}

  parse(): Shown {
    const value = this.value();
    this.space();
    if (this.at !== this.text.length) throw new Error(`unexpected text after the answer: ${this.text.slice(this.at)}`);
    return value;
  }

  private value(): Shown {
    this.space();
    const character = this.text[this.at];
    if (character === '{') return this.object();
    if (character === '[') return this.array();
    if (character === '"') return this.string();
    if (character === '…') {
      this.at++;
      return { kind: 'any' };
    }
    const literal = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(this.text.slice(this.at));
    if (!literal) throw new Error(`cannot read the answer at: ${this.text.slice(this.at, this.at + 30)}`);
    this.at += literal[0].length;
    return { kind: 'literal', value: JSON.parse(literal[0]) };
  }

  private object(): Shown {
    const entries: [string, Shown][] = [];
    this.at++;
    while (this.next() !== '}') {
      if (this.next() === '…') this.at++;
      else {
        const key = this.string();
        this.expect(':');
        entries.push([key.kind === 'text' ? key.text : '', this.value()]);
      }
      if (this.next() === ',') this.at++;
    }
    this.at++;
    return { kind: 'object', entries };
  }

  private array(): Shown {
    const items: Shown[] = [];
    let more = false;
    this.at++;
    while (this.next() !== ']') {
      if (this.next() === '…') {
        this.at++;
        more = true;
      } else items.push(this.value());
      if (this.next() === ',') this.at++;
    }
    this.at++;
    return { kind: 'array', items, more };
  }

  private string(): Shown & { kind: 'text' } {
    this.space();
    const match = /^"((?:[^"\\]|\\.)*)"/.exec(this.text.slice(this.at));
    if (!match) throw new Error(`expected a string at: ${this.text.slice(this.at, this.at + 30)}`);
    this.at += match[0].length;
    const text: string = JSON.parse(match[0]);
    const pattern = new RegExp(
      `^${text
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[\\s\\S]*')}$`,
    );
    return { kind: 'text', pattern, text };
  }

  private next(): string {
    this.space();
    if (this.at >= this.text.length) throw new Error('the answer ends too early');
    return this.text.charAt(this.at);
  }

  private expect(character: string): void {
    if (this.next() !== character) throw new Error(`expected ${character} at: ${this.text.slice(this.at, this.at + 30)}`);
    this.at++;
  }

  private space(): void {
    while (/\s/.test(this.text[this.at] ?? '')) this.at++;
  }
}
