import { ERROR_STATUS } from '@engram/protocol';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Db } from '../../src/store/database.js';

/**
 * Contract fuzzing: requests generated from the server's own OpenAPI document, valid and
 * invalid (wrong types, missing and extra fields, limits ±1, huge and odd Unicode, NUL, deep
 * nesting, wrong content types, bad multipart, odd headers), sent to a real server. Every answer
 * must be below 500, every error the JSON error shape with the request id of X-Request-ID, and
 * a refused call must leave the stored memories, sources, files, keys and spaces as they were.
 */

type Schema = Record<string, any>;

/** One operation of the OpenAPI document. */
export interface Operation {
  method: string;
  path: string;
  pathParams: { name: string; schema: Schema }[];
  query: { name: string; schema: Schema; required: boolean }[];
  body: { contentType: string; schema: Schema } | null;
}

/** One generated request. */
export interface FuzzRequest {
  operation: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** What was done to it, for the report. */
  mutation: string;
}

/** Where the fuzzing runs. */
export interface FuzzTarget {
  url: string;
  /** The account key. */
  key: string;
  /** A key limited to `limitedSpace`. */
  limitedKey: string;
  limitedSpace: string;
  /** The space most requests name. */
  space: string;
  /** Ids that exist, so that some requests reach real records. */
  memoryIds: number[];
  sourceIds: string[];
  keyIds: number[];
  /** Intentions learned in the fuzzed space (may be empty). */
  intentionIds?: number[];
  db: Db;
}

/** The operations of an OpenAPI 3.1 document, with their parameters and bodies resolved. */
export function operationsOf(document: Schema): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(document.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (!operation) continue;
      const parameters: Schema[] = operation.parameters ?? [];
      const content = operation.requestBody?.content ?? {};
      const contentType = Object.keys(content)[0];
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => ({ name: parameter.name, schema: parameter.schema ?? {} })),
        query: parameters
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => ({ name: parameter.name, schema: parameter.schema ?? {}, required: parameter.required === true })),
        body: contentType ? { contentType, schema: content[contentType].schema ?? {} } : null,
      });
    }
  }
  return operations;
}

/** Follows `$ref`s and merges `allOf`. */
function resolve(schema: Schema, document: Schema): Schema {
  let current = schema;
  for (let depth = 0; current?.$ref && depth < 20; depth++) {
    const name = String(current.$ref).split('/').pop()!;
    current = { ...document.components?.schemas?.[name], ...Object.fromEntries(Object.entries(current).filter(([key]) => key !== '$ref')) };
  }
  if (current?.allOf) {
    return current.allOf.reduce((merged: Schema, part: Schema) => {
      const resolved = resolve(part, document);
      return {
        ...merged,
        ...resolved,
        properties: { ...merged.properties, ...resolved.properties },
        required: [...(merged.required ?? []), ...(resolved.required ?? [])],
      };
    }, {});
  }
  return current ?? {};
}

/* ------------------------------------------------------------ odd values */

const ODD_STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  'a\uD800b',
  '\uDC00',
  'x\uD83D',
  '\u202Eevil',
  '\u2066x\u2069',
  'line\nbreak',
  'tab\there',
  '\u200F',
  'e\u0301',
  '👩‍👩‍👧‍👦',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '\uFEFFbom',
  '\uFFFF',
  '%00',
  '../../etc/passwd',
  '/..',
  '//',
  '\\',
  'null',
  '0',
  '-1',
  '1e309',
  'NaN',
  'true',
  '{}',
  '[]',
  "'; drop table memories; --",
  '<script>alert(1)</script>',
  'ü'.repeat(200),
];

const oddString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 30 }),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 70_000 }).map((length) => 'w'.repeat(length)) },
  { weight: 1, arbitrary: fc.constant('Ω'.repeat(2_000_001)) },
);

/** Any JSON value of the wrong kind for most fields. */
const wrongValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constant(1e308),
  fc.constant(-0),
  oddString,
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
  fc.constant({ __proto__: { polluted: true }, constructor: { prototype: { x: 1 } } }),
);

/** The value with a NUL or lone surrogate put into its first string (or the value itself when there is none). */
function withUnstorable(value: unknown, bad: string): unknown {
  if (typeof value === 'string') return `${value}${bad}`;
  if (Array.isArray(value)) return value.length ? [withUnstorable(value[0], bad), ...value.slice(1)] : [bad];
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (!entries.length) return { [`k${bad}`]: 'v' };
    const [key, first] = entries[0]!;
    return { ...Object.fromEntries(entries), [key]: withUnstorable(first, bad) };
  }
  return bad;
}

function deepNesting(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/* ---------------------------------------------------------- valid values */

const FILE_PATHS = ['/fuzz/a.md', '/fuzz/b.md', '/fuzz/dir/c.txt', '/notes/trip.md', '/a', '/fuzz'];
const SENTENCES = ['Kira climbs in the Dolomites every summer.', 'Tariq plans a trip to Oslo in May.', 'The user prefers tea to coffee.'];

/** A valid value for a schema, with field names steering some values toward real records. */
function validValue(schema: Schema, document: Schema, target: FuzzTarget, name = '', depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolve(schema, document);
  if (depth > 6) return fc.constant(undefined);
  if (name === 'space') return fc.constantFrom(target.space, target.space, target.space, '', target.limitedSpace, `other-${target.space}`);
  if ((name === 'path' || name === 'from' || name === 'to') && (resolved.type === 'string' || !resolved.type))
    return fc.constantFrom(...FILE_PATHS);
  if (name === 'prefix') return fc.constantFrom('/', '/fuzz', '/fuzz/', '/notes');
  if (name === 'url') return fc.constantFrom('https://example.com/page', 'http://127.0.0.1:9/x', 'ftp://example.com/', 'https://[::1]/');
  if (name === 'memory_id' && target.memoryIds.length)
    return fc.oneof(fc.constantFrom(...target.memoryIds), fc.integer({ min: 1, max: 100_000 }));
  if (name === 'source_id' && target.sourceIds.length) return fc.oneof(fc.constantFrom(...target.sourceIds), fc.constant('src_nothere'));
  if (name === 'intention_id' && target.intentionIds?.length)
    return fc.oneof(fc.constantFrom(...target.intentionIds), fc.integer({ min: 1, max: 1_000 }));
  if (name === 'key_id' && target.keyIds.length) return fc.oneof(fc.constantFrom(...target.keyIds), fc.integer({ min: 1, max: 1_000 }));
  if ((name === 'text' || name === 'q' || name === 'question') && resolved.type === 'string') return fc.constantFrom(...SENTENCES);
  if (resolved.const !== undefined) return fc.constant(resolved.const);
  if (resolved.enum) return fc.constantFrom(...resolved.enum);
  const variants = resolved.anyOf ?? resolved.oneOf;
  if (variants) return fc.oneof(...variants.map((variant: Schema) => validValue(variant, document, target, name, depth + 1)));
  const type = Array.isArray(resolved.type) ? resolved.type.find((kind: string) => kind !== 'null') : resolved.type;
  switch (type) {
    case 'string': {
      const min = resolved.minLength ?? 0;
      const max = Math.min(resolved.maxLength ?? 40, Math.max(min, 40));
      if (resolved.format === 'date-time')
        return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((date) => date.toISOString());
      if (resolved.format === 'date')
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((date) => date.toISOString().slice(0, 10));
      return fc.string({ minLength: min, maxLength: max });
    }
    case 'integer':
      return fc.integer({ min: Math.ceil(resolved.minimum ?? -10), max: Math.floor(resolved.maximum ?? 1_000) });
    case 'number':
      return fc.double({ min: resolved.minimum ?? -10, max: resolved.maximum ?? 1_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validValue(resolved.items ?? {}, document, target, name, depth + 1), {
        minLength: resolved.minItems ?? 0,
        maxLength: Math.min(resolved.maxItems ?? 3, Math.max(resolved.minItems ?? 0, 3)),
      });
    case 'object': {
      const properties: Record<string, Schema> = resolved.properties ?? {};
      const required = new Set<string>(resolved.required ?? []);
      if (!Object.keys(properties).length) {
        return fc.dictionary(fc.constantFrom('project', 'kind', 'lang'), fc.constantFrom('trip', 'work', 'en'), { maxKeys: 3 });
      }
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, value] of Object.entries(properties)) record[key] = validValue(value, document, target, key, depth + 1);
      return fc.record(record, { requiredKeys: [...required].filter((key) => key in record) });
    }
    default:
      return fc.constantFrom('value', 1, true);
  }
}

/* ------------------------------------------------------------ mutations */

/** Values at and just past a field's limits. */
function limitValues(schema: Schema, document: Schema): unknown[] {
  const resolved = resolve(schema, document);
  const values: unknown[] = [];
  if (resolved.maxLength !== undefined && resolved.maxLength <= 2_000_001)
    values.push('m'.repeat(resolved.maxLength), 'm'.repeat(resolved.maxLength + 1));
  if (resolved.minLength !== undefined) values.push('m'.repeat(resolved.minLength), 'm'.repeat(Math.max(0, resolved.minLength - 1)));
  if (resolved.maximum !== undefined) values.push(resolved.maximum, resolved.maximum + 1, resolved.maximum + 0.5);
  if (resolved.minimum !== undefined) values.push(resolved.minimum, resolved.minimum - 1);
  if (resolved.maxItems !== undefined) values.push(Array.from({ length: resolved.maxItems + 1 }, () => ({ text: 'x' })));
  if (resolved.minItems !== undefined && resolved.minItems > 0) values.push([]);
  return values;
}

const BODY_MUTATIONS = [
  'valid',
  'valid',
  'valid',
  'drop',
  'extra',
  'wrong',
  'limit',
  'odd',
  'unstorable',
  'nest',
  'raw',
  'contentType',
] as const;

/** A JSON body from a schema: valid, or with one thing wrong. */
function bodyArbitrary(
  schema: Schema,
  document: Schema,
  target: FuzzTarget,
): fc.Arbitrary<{ text: string | undefined; contentType: string | null; mutation: string }> {
  const resolved = resolve(schema, document);
  const fields = Object.keys(resolved.properties ?? {});
  const json = (value: unknown, mutation: string) => ({ text: JSON.stringify(value), contentType: 'application/json', mutation });
  return fc
    .tuple(
      validValue(schema, document, target),
      fc.constantFrom(...BODY_MUTATIONS),
      fc.constantFrom(...(fields.length ? fields : ['x'])),
      wrongValue,
      oddString,
      fc.nat(),
    )
    .map(([valid, mutation, field, wrong, odd, seed]) => {
      const body = (typeof valid === 'object' && valid !== null ? { ...(valid as object) } : {}) as Record<string, unknown>;
      switch (mutation) {
        case 'valid':
          return json(body, 'valid');
        case 'drop':
          delete body[field];
          return json(body, `drop ${field}`);
        case 'extra':
          body[`extra_${seed % 5}`] = wrong;
          return json(body, 'extra field');
        case 'wrong':
          body[field] = wrong;
          return json(body, `wrong type ${field}`);
        case 'limit': {
          const values = limitValues(resolved.properties?.[field] ?? {}, document);
          if (!values.length) return json(body, 'valid');
          body[field] = values[seed % values.length];
          return json(body, `limit ${field}`);
        }
        case 'odd':
          body[field] = odd;
          return json(body, `odd unicode ${field}`);
        case 'unstorable': {
          // A NUL or a lone surrogate inside an otherwise valid value of the field (or of a nested text).
          const bad = ['a\u0000b', 'a\uD800b', '\uDC00z'][seed % 3]!;
          body[field] = withUnstorable(body[field], bad);
          return json(body, `unstorable text ${field}`);
        }
        case 'nest': {
          const depth = [10, 1_000, 5_000][seed % 3]!;
          const text = JSON.stringify(body)
            .replace(/^\{/, `{"${field}":${deepNesting(depth)},`)
            .replace(/,\}$/, '}');
          return { text, contentType: 'application/json', mutation: `nesting ${depth} ${field}` };
        }
        case 'raw': {
          const raws = [
            '',
            '{',
            '{"a":}',
            'null',
            '[]',
            '"text"',
            '12',
            'true',
            '{"space":"a","space":"b"}',
            '\u0000',
            '{"text":"\\ud800"}',
            '{"text":"a\\u0000b"}',
            'ÿþ{',
          ];
          return { text: raws[seed % raws.length], contentType: 'application/json', mutation: 'raw body' };
        }
        default: {
          const types = [
            null,
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data',
            'application/json; charset=iso-8859-1',
            'application/JSON',
            'application/json, text/plain',
            'application/jsonx',
          ];
          return { text: JSON.stringify(body), contentType: types[seed % types.length]!, mutation: 'content type' };
        }
      }
    });
}

/** A multipart upload: a small PDF, or a form broken in one way. */
const multipartArbitrary = fc.tuple(fc.nat({ max: 9 }), oddString).map(([variant, odd]) => {
  const boundary = 'fuzzboundary123';
  const part = (name: string, value: string, filename?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename !== undefined ? `; filename="${filename}"` : ''}\r\n` +
    `${filename !== undefined ? 'Content-Type: application/pdf\r\n' : ''}\r\n${value}\r\n`;
  const pdf = '%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF';
  const end = `--${boundary}--\r\n`;
  const bodies: [string, string][] = [
    [part('file', pdf, 'a.pdf') + end, 'pdf upload'],
    [part('file', 'plain text', 'a.txt') + end, 'text upload'],
    [part('title', odd) + part('file', pdf, 'a.pdf') + end, 'odd title'],
    [part('space', odd) + part('file', pdf, 'a.pdf') + end, 'odd space'],
    [part('file', pdf, odd.slice(0, 100).replace(/["\r\n]/g, '')) + end, 'odd file name'],
    [part('file', 'no file here') + end, 'file as text'],
    [`--${boundary}\r\nbroken`, 'truncated form'],
    [end, 'empty form'],
    ['not a form at all', 'no parts'],
    [part('file', '', 'empty.pdf') + end, 'empty file'],
  ];
  const [text, mutation] = bodies[variant]!;
  return {
    text,
    contentType: variant === 8 ? 'multipart/form-data' : `multipart/form-data; boundary=${boundary}`,
    mutation: `multipart ${mutation}`,
  };
});

/** Headers: the account key mostly, sometimes a limited, wrong or missing key, odd spaces and idempotency keys. */
function headersArbitrary(target: FuzzTarget) {
  const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
  return fc.record(
    {
      authorization: fc.oneof(
        { weight: 12, arbitrary: fc.constant(`Bearer ${target.key}`) },
        { weight: 3, arbitrary: fc.constant(`Bearer ${target.limitedKey}`) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'Bearer egk_wrong',
            'Basic abc',
            'Bearer',
            `bearer  ${target.key}  `,
            `Bearer ${target.key} extra`,
            '',
          ),
        },
      ),
      space: fc.option(
        fc.oneof(
          fc.constantFrom(
            target.space,
            target.limitedSpace,
            '',
            ' ',
            'other',
            'a\tb',
            latin1('café'),
            latin1('\u202Eevil'),
            '\u00e9',
            'x'.repeat(129),
            '\u0085',
          ),
          fc.string({
            unit: fc
              .integer({ min: 0x20, max: 0xff })
              .filter((code) => code !== 0x7f)
              .map((code) => String.fromCharCode(code)),
            maxLength: 20,
          }),
        ),
        { freq: 3 },
      ),
      idempotency: fc.option(fc.oneof(fc.uuid(), fc.constantFrom('same-key', ' ', 'k'.repeat(256), 'k'.repeat(255))), { freq: 3 }),
      oversized: fc.integer({ min: 0, max: 29 }).map((roll) => roll === 0),
    },
    { requiredKeys: ['authorization', 'oversized'] },
  );
}

/** Query values for an operation's parameters: valid, or one of them odd. */
function queryArbitrary(operation: Operation, document: Schema, target: FuzzTarget) {
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const parameter of operation.query) record[parameter.name] = validValue(parameter.schema, document, target, parameter.name);
  const names = operation.query.map((parameter) => parameter.name);
  return fc.tuple(
    fc.record(record, { requiredKeys: operation.query.filter((parameter) => parameter.required).map((parameter) => parameter.name) }),
    fc.constantFrom('valid', 'odd', 'wrong', 'repeat', 'extra', 'space'),
    fc.constantFrom(...(names.length ? names : ['space'])),
    oddString,
    fc.constantFrom('abc', '-1', '1e309', '99999999999999999999', '1.5', '', '%00', '%FF', '0x10', ' 5'),
  );
}

function encodeQuery(values: Record<string, unknown>, extra: [string, string][]): string {
  const parts: string[] = [];
  const encode = (text: string) => {
    try {
      return encodeURIComponent(text);
    } catch {
      return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '?'));
    }
  };
  for (const [name, value] of Object.entries(values)) if (value !== undefined) parts.push(`${name}=${encode(String(value))}`);
  for (const [name, value] of extra) parts.push(`${name}=${value}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** One request for one operation of the document. */
function requestFor(operation: Operation, document: Schema, target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  const params: Record<string, fc.Arbitrary<unknown>> = {};
  for (const parameter of operation.pathParams) params[parameter.name] = validValue(parameter.schema, document, target, parameter.name);
  const body =
    operation.body === null
      ? fc.constant(null)
      : operation.body.contentType.startsWith('multipart/')
        ? multipartArbitrary
        : bodyArbitrary(operation.body.schema, document, target);
  // One thing is wrong at a time (or nothing), so that each mutation reaches the check it aims at.
  const focus = fc.constantFrom('none', 'none', 'path', 'query', 'body', 'body', 'body', 'headers');
  const validBody =
    operation.body === null
      ? fc.constant(null)
      : operation.body.contentType.startsWith('multipart/')
        ? multipartArbitrary
        : validValue(operation.body.schema, document, target).map((value) => ({
            text: JSON.stringify(value ?? {}),
            contentType: 'application/json',
            mutation: 'valid',
          }));
  return fc
    .tuple(
      focus,
      fc.record(params),
      oddString,
      queryArbitrary(operation, document, target),
      body,
      validBody,
      headersArbitrary(target),
      fc.nat(),
    )
    .map(
      ([
        chosen,
        pathValues,
        oddPath,
        [query, queryMutation, queryName, oddQuery, wrongQuery],
        mutatedBody,
        plainBody,
        headerValues,
        roll,
      ]) => {
        const mutations: string[] = [];
        let path = operation.path;
        for (const [name, value] of Object.entries(pathValues)) {
          let text = encodeURIComponent(String(value));
          if (chosen === 'path') {
            text = [
              '%00',
              '%FF',
              '..%2F..',
              'x'.repeat(5_000),
              '-1',
              '0',
              '1.5',
              '%2e%2e',
              '%C0%AF',
              encodeURIComponent(oddPath.replace(/[\uD800-\uDFFF]/g, '')) || '%20',
            ][roll % 10]!;
            mutations.push(`odd path ${name}`);
          }
          path = path.replace(`{${name}}`, text);
        }
        const values = { ...query };
        const extra: [string, string][] = [];
        if (chosen === 'query') {
          if (queryMutation === 'odd' || queryMutation === 'valid') values[queryName] = oddQuery;
          if (queryMutation === 'wrong') extra.push([queryName, wrongQuery]);
          if (queryMutation === 'repeat') extra.push([queryName, 'again']);
          if (queryMutation === 'extra') extra.push(['unexpected', 'yes']);
          if (queryMutation === 'space') values.space = oddQuery;
          mutations.push(`query ${queryMutation} ${queryName}`);
        }
        const headers: Record<string, string> = {};
        if (chosen === 'headers') {
          if (headerValues.authorization) headers.Authorization = headerValues.authorization;
          if (headerValues.space !== undefined && headerValues.space !== null) headers['X-Memory-Space'] = headerValues.space;
          if (headerValues.idempotency !== undefined && headerValues.idempotency !== null)
            headers['Idempotency-Key'] = headerValues.idempotency;
          if (headerValues.oversized) headers['X-Padding'] = 'p'.repeat(70_000);
          mutations.push('odd headers');
        } else {
          headers.Authorization = roll % 6 === 0 ? `Bearer ${target.limitedKey}` : `Bearer ${target.key}`;
          if (roll % 3 === 0) headers['Idempotency-Key'] = `fuzz-${roll % 50}`;
        }
        let bodyText: string | undefined;
        const generatedBody = chosen === 'body' ? mutatedBody : plainBody;
        if (generatedBody) {
          bodyText = generatedBody.text;
          if (generatedBody.contentType) headers['Content-Type'] = generatedBody.contentType;
          if (generatedBody.mutation !== 'valid') mutations.push(generatedBody.mutation);
        }
        return {
          operation: `${operation.method} ${operation.path}`,
          method: operation.method,
          url: `${target.url}${path}${encodeQuery(values, extra)}`,
          headers,
          body: bodyText,
          mutation: mutations.join(', ') || 'valid',
        };
      },
    );
}

/** Requests over every operation of the document (weighted evenly). */
export function requestsArbitrary(document: Schema, target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  const operations = operationsOf(document).filter(
    (operation) => operation.path.startsWith('/v1/') && operation.path !== '/v1/openapi.json',
  );
  return fc.oneof(...operations.map((operation) => requestFor(operation, document, target)));
}

/* ------------------------------------------------------------ checking */

/**
 * fetch, tried once more when a kept-alive connection was closed by the server just as it was
 * reused (the request never reached the app): that is the transport, not an answer.
 */
export async function fetchFresh(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== 'ECONNRESET' && code !== 'EPIPE' && code !== 'UND_ERR_SOCKET') throw error;
    return fetch(url, init);
  }
}

/**
 * What the store holds that no refused call may change: memories, sources, files, keys and
 * spaces, as counts, statuses, sizes and last changes (cheap enough to take around every call).
 */
export async function storedSnapshot(db: Db): Promise<string> {
  const { rows } = await sql<any>`
    select
      (select count(*) || ':' || coalesce(max(id), '') || ':' || count(*) filter (where status = 'failed') || ':' || coalesce(sum(length(coalesce(title, '')) + length(coalesce(body, '')) + length(space)), 0) from sources) as sources,
      (select count(*) || ':' || coalesce(max(id), 0) || ':' || count(*) filter (where status = 'current') || ':' || coalesce(sum(length(text)), 0) from memories) as memories,
      (select count(*) || ':' || coalesce(max(updated_at)::text, '') || ':' || coalesce(sum(size), 0) || ':' || coalesce(sum(length(path) + length(labels::text)), 0) from files) as files,
      (select count(*) || ':' || count(revoked_at) from api_keys) as keys,
      (select count(*) from spaces) as spaces,
      (select count(*) || ':' || count(project) || ':' || coalesce(sum(length(coalesce(project, ''))), 0) from sources) as projects,
      (select count(*) || ':' || count(*) filter (where done) from state_items) as state_items,
      (select count(*) || ':' || coalesce(string_agg(id || status, ',' order by id), '') from intentions) as intentions,
      (select count(*) from lessons) as lessons,
      (select count(*) from episodes) as episodes,
      (select count(*) || ':' || count(finished_at) from health_runs) as health_runs`.execute(db);
  return JSON.stringify(rows[0]);
}

/** The outcome of one request: a failure message, or null when the answer keeps the contract. */
export interface Outcome {
  status: number;
  failure: string | null;
}

const ERROR_STATUSES = new Map<string, number>(Object.entries(ERROR_STATUS));

/**
 * Why an accepted answer's body cannot be read as its content type says (null when it can):
 * JSON parses whole; NDJSON (the export stream) parses line by line, each line an object.
 */
export function unreadableBody(contentType: string, text: string): string | null {
  if (contentType.startsWith('application/x-ndjson')) {
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    for (const [index, line] of lines.entries()) {
      try {
        const value = JSON.parse(line);
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return `NDJSON line ${index + 1} is not an object`;
      } catch {
        return `NDJSON line ${index + 1} is not JSON: ${line.slice(0, 120)}`;
      }
    }
    if (lines.length === 0) return 'empty NDJSON stream';
    return null;
  }
  if (contentType.startsWith('application/json')) {
    try {
      JSON.parse(text);
    } catch {
      return `answer is not JSON: ${text.slice(0, 120)}`;
    }
    return null;
  }
  if (text.length === 0 || contentType.startsWith('text/')) return null;
  return `unexpected content type ${contentType || '(none)'}`;
}

/** Sends one request and checks the answer against the contract. */
export async function sendAndCheck(request: FuzzRequest, target: FuzzTarget): Promise<Outcome> {
  const before = await storedSnapshot(target.db);
  let response: Response;
  try {
    response = await fetchFresh(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
    });
  } catch (error) {
    return { status: 0, failure: `no answer: ${(error as Error).message} ${(error as { cause?: Error }).cause?.message ?? ''}` };
  }
  const text = await response.text();
  const status = response.status;
  const requestId = response.headers.get('x-request-id');
  if (!requestId || !/^req_/.test(requestId)) return { status, failure: `no X-Request-ID on ${status}` };
  if (status >= 500) return { status, failure: `${status}: ${text.slice(0, 300)}` };
  if (status < 300) {
    const failure = unreadableBody(response.headers.get('content-type') ?? '', text);
    if (failure) return { status, failure: `${status} ${request.operation}: ${failure}` };
  }
  if (status >= 400) {
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      return { status, failure: `${status} answer is not JSON: ${text.slice(0, 200)}` };
    }
    const error = body?.error;
    if (!error || typeof error.message !== 'string' || typeof error.type !== 'string')
      return { status, failure: `${status} not the error shape: ${text.slice(0, 200)}` };
    if (error.request_id !== requestId)
      return { status, failure: `${status} request_id ${error.request_id} differs from X-Request-ID ${requestId}` };
    const expected = ERROR_STATUSES.get(error.type);
    if (expected === undefined) return { status, failure: `undocumented error type ${error.type}` };
    if (expected !== status && !(status === 431 && error.type === 'invalid_request'))
      return { status, failure: `type ${error.type} with status ${status}` };
    const after = await storedSnapshot(target.db);
    if (after !== before) return { status, failure: `a refused call (${status} ${error.type}) changed what is stored` };
  }
  return { status, failure: null };
}

/** A short description of a request, for a report. */
export function describeRequest(request: FuzzRequest): string {
  const body = typeof request.body === 'string' ? request.body.slice(0, 160) : '';
  return `${request.method} ${request.url.slice(0, 160)} [${request.mutation}] ${JSON.stringify(Object.keys(request.headers))} ${JSON.stringify(body)}`;
}

/** Runs `count` generated requests from a fixed seed; returns the failures and the operations reached. */
export async function fuzzContract(
  document: Schema,
  target: FuzzTarget,
  options: { count: number; seed: number; onProgress?: (done: number, failures: number) => void },
): Promise<{
  cases: number;
  operations: Set<string>;
  accepted: Map<string, number>;
  statuses: Map<number, number>;
  failures: { request: string; failure: string }[];
}> {
  const requests = fc.sample(requestsArbitrary(document, target), { numRuns: options.count, seed: options.seed });
  const operations = new Set<string>();
  const statuses = new Map<number, number>();
  const failures: { request: string; failure: string }[] = [];
  const accepted = new Map<string, number>();
  for (const [index, request] of requests.entries()) {
    operations.add(request.operation);
    const outcome = await sendAndCheck(request, target);
    if (outcome.status >= 200 && outcome.status < 300) accepted.set(request.operation, (accepted.get(request.operation) ?? 0) + 1);
    statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
    if (outcome.failure) failures.push({ request: describeRequest(request), failure: outcome.failure });
    options.onProgress?.(index + 1, failures.length);
  }
  return { cases: requests.length, operations, accepted, statuses, failures };
}

/** Every operation the document describes under /v1. */
export function documentedOperations(document: Schema): string[] {
  return operationsOf(document)
    .filter((operation) => operation.path.startsWith('/v1/') && operation.path !== '/v1/openapi.json')
    .map((operation) => `${operation.method} ${operation.path}`);
}

/**
 * Makes a target on a running server: a key limited to a space of its own, a file and notes in
 * the fuzzed space, learned by a worker of this process (the server runs none, so nothing
 * changes the store in the background between two snapshots).
 */
export async function prepareTarget(url: string, key: string, db: Db): Promise<FuzzTarget> {
  const { Worker } = await import('../../src/jobs/worker.js');
  const { learnSource } = await import('../../src/operations/learn-source.js');
  const space = 'fuzz-space';
  const limitedSpace = 'fuzz-limited';
  const post = async (path: string, body: unknown, method = 'POST') => {
    const response = await fetchFresh(`${url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<any>;
  };
  const limited = await post('/v1/keys', { space: limitedSpace, name: 'fuzz' });
  const other = await post('/v1/keys', { space, name: 'other' });
  await post('/v1/files', { space, path: '/fuzz/a.md', text: 'Kira climbs in the Dolomites every summer.' }, 'PUT');
  await post('/v1/memories', { space, text: 'Tariq plans a trip to Oslo in May. The user prefers tea to coffee.' });
  await post('/v1/memories', { space: limitedSpace, text: 'Sami keeps bees on the roof.' });
  // Something for briefings to hold: a project's goal, an intention with a due day, a lesson.
  await post('/v1/memories', {
    space,
    project: 'greenhouse',
    text: "Goal: grow winter lettuce in the greenhouse.\nI'll order the heating mat by Friday.\nAlways water in the morning because the leaves mould overnight.",
  });
  await new Worker(db, { pollMs: 10, run: learnSource }).drain();
  const memories = await (await fetchFresh(`${url}/v1/memories?space=${space}`, { headers: { Authorization: `Bearer ${key}` } })).json();
  const sources = await (await fetchFresh(`${url}/v1/sources?space=${space}`, { headers: { Authorization: `Bearer ${key}` } })).json();
  const intentions = await (
    await fetchFresh(`${url}/v1/intentions?space=${space}`, { headers: { Authorization: `Bearer ${key}` } })
  ).json();
  return {
    url,
    key,
    limitedKey: limited.key,
    limitedSpace,
    space,
    memoryIds: memories.memories.map((memory: { id: number }) => memory.id),
    sourceIds: sources.sources.map((source: { id: string }) => source.id),
    keyIds: [limited.id, other.id],
    intentionIds: intentions.intentions.map((intention: { id: number }) => intention.id),
    db,
  };
}
