#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { loadConfig } from './config.js';
import type { NodeThreadData, NodeThreadMessage, NodeThreadRequest } from './node-thread.js';
import { NODE_YOUNG_GENERATION_MB } from './node-thread.js';
import type { openStore } from './store/database.js';

// Each command loads what it runs when it runs (below), so that `engram serve` holds none of the
// other commands' code and libraries (the graph's layout, the importer, export and restore) in
// its heap, and a short command does not load the server. `engram serve` and `engram worker` run
// on a thread of their own (node-thread.ts): this thread only starts it and passes it signals.

const USAGE = `engram: per-user long-term memory for AI apps

Usage:
  engram serve [--no-workers] [--concurrency N]
                                   run the API (and N learning workers, ENGRAM_WORKERS by default) on
                                   ENGRAM_HOST:ENGRAM_PORT; --no-workers serves the API only
  engram worker [--concurrency N]  run N learning workers only (for a cluster on PostgreSQL)
  engram migrate                   apply database migrations and exit
  engram accounts list|create NAME list accounts, or make one (prints its first key)
  engram plan set ACCOUNT PLAN     put an account on free, pro or max
  engram extra on|off [--cap USD] [--account ID]
                                   switch extra learning past the plan on (up to the cap a month) or off
  engram usage [--account ID]      this month's usage of an account
  engram keys create [--account ID] [--name NAME]
                                   make an account key (shown once)
  engram keys list [--account ID]  list an account's keys
  engram keys revoke ID [--account ID]
  engram reindex [--account ID] [--space SPACE]
                                   index an account's memories (one space, or all) again as this release
                                   indexes them, after an upgrade; their text, ids and history stay
  engram import DIR --space SPACE [--watch]
                                   write DIR's .md, .markdown and .txt files as files of SPACE on a running
                                   server (ENGRAM_BASE_URL, ENGRAM_API_KEY), skipping unchanged ones;
                                   --watch keeps the space in step with DIR
  engram graph [--space SPACE] [--out FILE] [--format svg|html] [--limit N]
                                   draw a space's graph (people, places, organisations, things and the
                                   memories joining them) from a running server (ENGRAM_BASE_URL,
                                   ENGRAM_API_KEY) as SVG or an HTML page; standard output without --out
  engram export --space SPACE | --all [--account ID] > FILE
                                   write one space (or every space of the account, with its keys as
                                   hashes) as JSON Lines; on the store directly, so stop an embedded
                                   store's server first (GET /v1/export works while serving)
  engram restore FILE [--space SPACE] [--account ID]
                                   restore an export (again: changes nothing); learns nothing again
  engram migrate-store --from DATA_DIR --to DATABASE_URL
                                   move a whole embedded store (stopped) into PostgreSQL
  engram requests [--id req_…] [--status 4xx] [--space SPACE] [--route /v1/ask]
                                   find logged calls on a running server (ENGRAM_BASE_URL, ENGRAM_API_KEY),
                                   newest first

Store: PGlite in ENGRAM_DATA_DIR (default ./.engram), or PostgreSQL when DATABASE_URL is set.`;

function fail(message: string): never {
  process.stderr.write(`engram: ${message}\n`);
  process.exit(2);
}

/** Runs `run` on the store; on an embedded store a running server holds, refuses (nothing is written to a copy that is lost). */
async function withStore<T>(command: string, run: (store: Awaited<ReturnType<typeof openStore>>) => Promise<T>): Promise<T> {
  const { openStore } = await import('./store/database.js');
  const { migrate } = await import('./store/migrations.js');
  const store = await openStore(loadConfig(), { command });
  try {
    await migrate(store.db);
    return await run(store);
  } finally {
    await store.close();
  }
}

/**
 * Runs `engram serve` or `engram worker` on a thread of its own (node-thread.ts), with a small
 * young generation, and gives it the operator's signals: SIGTERM or SIGINT stops gracefully
 * (requests and jobs in hand get ENGRAM_SHUTDOWN_MS to finish, then jobs are given back); a
 * second signal stops at once. The process ends when the thread does.
 */
function runNodeThread(data: NodeThreadData): void {
  const thread = new Worker(new URL('./node-thread.js', import.meta.url), {
    workerData: { engramNode: data },
    resourceLimits: { maxYoungGenerationSizeMb: NODE_YOUNG_GENERATION_MB },
  });
  let stopped = false;
  thread.on('message', (message: NodeThreadMessage) => {
    if (message.type === 'notice') process.stderr.write(message.text);
    else if (message.type === 'failed') fail(message.message);
    else if (message.type === 'started') listenForSignals();
    else if (message.type === 'stopped') {
      stopped = true;
      if (message.error) process.stderr.write(`engram: stopping failed: ${message.error}\n`);
    }
  });
  thread.on('error', (error: Error) => {
    process.stderr.write(`engram: ${error.stack ?? error.message}\n`);
    process.exit(1);
  });
  // The process ends with the thread (whose last lines reach stderr first): as it said when it
  // was stopped, else as a failure.
  thread.on('exit', (code) => process.exit(stopped ? code : code || 1));
  let stopping = false;
  const listenForSignals = () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        if (stopping) process.exit(1);
        stopping = true;
        process.stderr.write(`Engram is stopping (${signal})\n`);
        thread.postMessage({ type: 'stop' } satisfies NodeThreadRequest);
      });
    }
  };
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      account: { type: 'string' },
      name: { type: 'string' },
      cap: { type: 'string' },
      space: { type: 'string' },
      watch: { type: 'boolean' },
      out: { type: 'string' },
      format: { type: 'string' },
      limit: { type: 'string' },
      'no-workers': { type: 'boolean' },
      concurrency: { type: 'string' },
      all: { type: 'boolean' },
      from: { type: 'string' },
      to: { type: 'string' },
      id: { type: 'string' },
      status: { type: 'string' },
      route: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, sub, ...rest] = positionals;
  // `--help` on any command prints the usage and starts nothing.
  if (values.help || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const accountId = values.account === undefined ? 1 : Number(values.account);
  if (!Number.isInteger(accountId) || accountId < 1) fail('--account takes an account id');

  switch (command) {
    case 'serve':
    case 'worker': {
      const count = (flag: string | undefined, name: string) => {
        if (flag === undefined) return undefined;
        const value = Number(flag);
        if (!Number.isInteger(value) || value < 0 || value > 64) fail(`${name} takes a number of workers from 0 to 64`);
        return value;
      };
      runNodeThread({ command, noWorkers: values['no-workers'] ?? false, concurrency: count(values.concurrency, '--concurrency') });
      return;
    }
    case 'reindex': {
      const config = loadConfig();
      const { learnerFor } = await import('./learn/pool.js');
      const { reindexSpace, spacesOf } = await import('./operations/reindex.js');
      await withStore('reindex', async (store) => {
        const learner = learnerFor(config.learnerThreads, { nice: config.learnerNice });
        try {
          const spaces = values.space !== undefined ? [values.space] : await spacesOf(store.db, accountId);
          for (const space of spaces) {
            const done = await reindexSpace(store.db, { accountId, space }, learner.learn);
            process.stdout.write(`${space === '' ? '(own)' : space}\t${done.sources} sources\t${done.memories} memories\n`);
          }
        } finally {
          await learner.close();
        }
      });
      return;
    }
    case 'import': {
      if (!sub) fail('import takes a folder: engram import DIR --space SPACE');
      if (!values.space?.trim()) fail('import needs --space SPACE (files are kept in a named space)');
      const { runImport } = await import('./import/run-import.js');
      await runImport({ dir: sub, space: values.space, watch: values.watch ?? false });
      return;
    }
    case 'graph': {
      const { drawGraph } = await import('./brief/run-graph.js');
      try {
        const drawn = await drawGraph({ space: values.space, out: values.out, format: values.format, limit: values.limit });
        if (values.out) process.stderr.write(`wrote ${values.out} (${drawn.format}: ${drawn.nodes} nodes, ${drawn.edges} edges)\n`);
      } catch (error) {
        fail((error as Error).message);
      }
      return;
    }
    case 'export': {
      if (values.all === (values.space !== undefined)) fail('export takes --space SPACE (one space; "" for the owner\'s own) or --all');
      const { runExport } = await import('./store/transfer/commands.js');
      await withStore('export', (store) =>
        runExport(store, { accountId, space: values.space, all: values.all ?? false, out: process.stdout }),
      );
      return;
    }
    case 'restore': {
      if (!sub) fail('restore takes a file: engram restore FILE [--space SPACE] [--account ID]');
      const config = loadConfig();
      const { describeRestore, runRestore } = await import('./store/transfer/commands.js');
      const summary = await withStore('restore', (store) =>
        runRestore(store, sub, {
          space: values.space,
          accountId: values.account === undefined ? undefined : accountId,
          maxAttempts: config.maxAttempts,
        }),
      );
      process.stdout.write(`Restored ${describeRestore(summary)}\n`);
      return;
    }
    case 'migrate-store': {
      if (!values.from || !values.to) fail('usage: engram migrate-store --from DATA_DIR --to DATABASE_URL');
      const { runMigrateStore } = await import('./store/transfer/commands.js');
      await runMigrateStore(loadConfig(), { from: values.from, to: values.to, log: (text) => process.stdout.write(`${text}\n`) });
      process.stdout.write('The store is moved. Start Engram with DATABASE_URL set to the new store.\n');
      return;
    }
    case 'requests': {
      const { findRequests, formatRequests } = await import('./requests/find-requests.js');
      const rows = await findRequests({ id: values.id, status: values.status, space: values.space, route: values.route }).catch(
        (error: Error) => fail(error.message),
      );
      if (!rows.length) fail(values.id ? `no call ${values.id} in the request log` : 'no calls match');
      process.stdout.write(`${formatRequests(rows)}\n`);
      return;
    }
    case 'migrate': {
      const { migrate } = await import('./store/migrations.js');
      const applied = await withStore('migrate', (store) => migrate(store.db));
      process.stdout.write(applied.length ? `Applied migrations: ${applied.join(', ')}\n` : 'Up to date\n');
      return;
    }
    case 'accounts': {
      const { createAccount, createAccountKey, listAccounts } = await import('./store/account-repository.js');
      if (sub === 'list') {
        const accounts = await withStore('accounts list', (store) => listAccounts(store.db));
        for (const account of accounts)
          process.stdout.write(`${account.id}\t${account.name}\t${account.plan}\t${account.created_at.toISOString()}\n`);
        return;
      }
      if (sub === 'create') {
        const name = rest[0] ?? fail('accounts create needs a NAME');
        const { account, key } = await withStore('accounts create', async (store) => {
          const account = await createAccount(store.db, name);
          return { account, key: await createAccountKey(store.db, account.id, { name: 'first' }) };
        });
        process.stdout.write(`Account ${account.id} (${account.name}). Its key, shown once:\n${key.key}\n`);
        return;
      }
      return fail('accounts takes list or create');
    }
    case 'plan': {
      const [account, plan] = rest;
      if (sub !== 'set' || !account || !plan) fail('usage: engram plan set ACCOUNT PLAN');
      const { PlanSchema } = await import('@engram/protocol');
      const parsed = PlanSchema.safeParse(plan);
      if (!parsed.success) fail('PLAN is free, pro or max');
      const id = Number(account);
      if (!Number.isInteger(id)) fail('ACCOUNT is an account id');
      const { setPlan } = await import('./store/usage-repository.js');
      if (!(await withStore('plan set', (store) => setPlan(store.db, id, parsed.data)))) fail(`no account ${id}`);
      process.stdout.write(`Account ${id} is on ${parsed.data}\n`);
      return;
    }
    case 'extra': {
      if (sub !== 'on' && sub !== 'off') fail('usage: engram extra on|off [--cap USD] [--account ID]');
      const cap = values.cap === undefined ? undefined : Number(values.cap);
      if (cap !== undefined && (!Number.isFinite(cap) || cap < 0)) fail('--cap takes an amount in USD, 0 or more');
      const { setExtra } = await import('./store/usage-repository.js');
      if (!(await withStore('extra', (store) => setExtra(store.db, accountId, sub === 'on', cap)))) fail(`no account ${accountId}`);
      process.stdout.write(`Extra learning is ${sub} for account ${accountId}${cap === undefined ? '' : ` (cap ${cap} USD a month)`}\n`);
      return;
    }
    case 'usage': {
      const config = loadConfig();
      const { currentUsage } = await import('./meter/metering.js');
      const usage = await withStore('usage', (store) => currentUsage({ db: store.db, config, now: () => new Date() }, accountId));
      process.stdout.write(`${JSON.stringify(usage, null, 2)}\n`);
      return;
    }
    case 'keys': {
      const { createAccountKey, listAccountKeys, revokeAccountKey } = await import('./store/account-repository.js');
      if (sub === 'create') {
        const key = await withStore('keys create', (store) => createAccountKey(store.db, accountId, { name: values.name ?? null }));
        process.stdout.write(`${key.key}\n`);
        process.stderr.write(`Key ${key.id} for account ${accountId}; it is shown only this once.\n`);
        return;
      }
      if (sub === 'list') {
        const keys = await withStore('keys list', (store) => listAccountKeys(store.db, accountId));
        for (const key of keys) {
          process.stdout.write(
            `${key.id}\t${key.starts_with}…\t${key.name ?? ''}\t${key.revoked_at ? 'revoked' : 'active'}\t${key.last_used_at?.toISOString() ?? 'never used'}\n`,
          );
        }
        return;
      }
      if (sub === 'revoke') {
        const id = Number(rest[0]);
        if (!Number.isInteger(id)) fail('keys revoke needs a key ID');
        const revoked = await withStore('keys revoke', (store) => revokeAccountKey(store.db, accountId, id));
        if (!revoked) fail(`account ${accountId} has no key ${id}`);
        process.stdout.write(`Revoked key ${id}\n`);
        return;
      }
      return fail('keys takes create, list or revoke');
    }
    default:
      process.stdout.write(`${USAGE}\n`);
      if (command) process.exit(2);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  fail(error instanceof Error ? error.message : String(error));
});
