import { describe, expect, it } from 'vitest';
import type { NamedMemory } from '../store/people-repository.js';
import { graphOf } from './graph.js';
import { indexNames, nameKey, resolveSubject } from './subject.js';

let nextId = 1;
const memory = (text: string, about: string[], extra: Partial<NamedMemory> = {}): NamedMemory => ({
  id: nextId++,
  text,
  kind: 'detail',
  date: '2026-11-01',
  about,
  name_types: null,
  lasting: null,
  owner: false,
  sentence_text: text,
  replaces: false,
  reported: false,
  ...extra,
});

describe('names and subjects', () => {
  it('merges a name, its possessive and its lower-case spelling into one', () => {
    expect(new Set(['Maya', "Maya's", 'maya', 'MAYA’S', ' Maya  '].map(nameKey))).toEqual(new Set(['maya']));
    const index = indexNames(
      [memory("Maya's garden is small.", ["Maya's"]), memory('Maya lives in Leeds.', ['Maya', 'Leeds']), memory('maya swims.', ['maya'])],
      null,
    );
    expect([...index.entities.values()].map((entity) => [entity.name, entity.memoryIds.length])).toEqual([
      ['Maya', 3],
      ['Leeds', 1],
    ]);
  });

  it('takes each name’s type from what most memories say, and the owner as a person', () => {
    const index = indexNames(
      [
        memory('Jordan works at Acme.', ['Jordan', 'Acme'], { name_types: ['person', 'org'] }),
        memory('Jordan called.', ['Jordan'], { name_types: ['person'] }),
        memory('The user visited Jordan.', ['Jordan'], { name_types: ['place'], owner: true }),
      ],
      null,
    );
    expect(index.entities.get('jordan')!.type).toBe('person');
    expect(index.entities.get('acme')!.type).toBe('org');
    expect(index.entities.get('the user')).toMatchObject({ name: 'The user', type: 'person', owner: true });
  });

  it('resolves a first name alone only when one name starts with it', () => {
    const index = indexNames(
      [memory('Sally Rooney wrote it.', ['Sally Rooney']), memory('Ana Lima and Ana Souza met.', ['Ana Lima', 'Ana Souza'])],
      'Maya',
    );
    expect(resolveSubject(index, 'sally')).toEqual({ key: 'sally rooney', name: 'Sally Rooney' });
    expect(resolveSubject(index, 'Ana')).toEqual({ key: null, name: 'Ana' });
    expect(resolveSubject(index, "ana lima's")).toEqual({ key: 'ana lima', name: 'Ana Lima' });
    // No memory of the owner yet: the owner's name, and nothing found.
    expect(resolveSubject(index, 'me')).toEqual({ key: null, name: 'Maya' });
  });

  it('joins two names only where one memory names both', () => {
    const first = memory('Omar met Ines in Porto.', ['Omar', 'Ines', 'Porto']);
    const second = memory('Ines works in Porto.', ['Ines', 'Porto']);
    const graph = graphOf(indexNames([first, second, memory('Pia likes tea.', ['Pia'])], null), 10);
    expect(graph.nodes.map((node) => [node.id, node.memories])).toEqual([
      ['ines', 2],
      ['porto', 2],
      ['omar', 1],
      ['pia', 1],
    ]);
    expect(graph.edges).toEqual([
      { from: 'ines', to: 'porto', memory_ids: [first.id, second.id] },
      { from: 'ines', to: 'omar', memory_ids: [first.id] },
      { from: 'omar', to: 'porto', memory_ids: [first.id] },
    ]);
    expect(graphOf(indexNames([first, second], null), 2).edges).toEqual([{ from: 'ines', to: 'porto', memory_ids: [first.id, second.id] }]);
  });
});
