#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { Worker } from './jobs/worker.js';
import { reindexSpace, spacesOf } from './jobs/reindex.js';
import { learnerFor } from './learn/pool.js';
import { learnMetered, releaseAllWaiting } from './meter/metering.js';
import {
  createAccount,
  createAccountKey,
  listAccountKeys,
  listAccounts,
  revokeAccountKey,
} from './store/account-repository.js';
import { PlanSchema } from '@engram/protocol';
import { currentUsage } from './meter/metering.js';
import { setExtra, setPlan } from './store/usage-repository.js';
import { openStore } from './store/database.js';
import { migrate } from './store/migrations.js';
import { startServer } from './server.js';
import { runImport } from './import/run-import.js';

const USAGE = `engram: per-user long-term memory for AI apps

Usage:
  engram serve                     run the API (and learning workers) on ENGRAM_HOST:ENGRAM_PORT
  engram worker                    run learning workers only (for a cluster on PostgreSQL)
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

Store: PGlite in ENGRAM_DATA_DIR (default ./.engram), or PostgreSQL when DATABASE_URL is set.`;

function fail(message: string): never {
  process.stderr.write(`engram: ${message}\n`);
  process.exit(2);
}

async function withStore<T>(run: (store: Awaited<ReturnType<typeof openStore>>) => Promise<T>): Promise<T> {
  const store = await openStore(loadConfig());
  try {
    await migrate(store.db);
    return await run(store);
  } finally {
    await store.close();
  }
}

function onSignals(stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1);
      stopping = true;
      stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
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
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, sub, ...rest] = positionals;
  const accountId = values.account === undefined ? 1 : Number(values.account);
  if (!Number.isInteger(accountId) || accountId < 1) fail('--account takes an account id');

  switch (command) {
    case 'serve': {
      const config = loadConfig();
      const server = await startServer(config);
      process.stderr.write(
        `Engram is listening on ${server.url} (store: ${server.store.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL'}, workers: ${config.workers}, learner threads: ${server.learnerThreads})\n`,
      );
      onSignals(() => server.close());
      return;
    }
    case 'worker': {
      const config = loadConfig();
      const store = await openStore(config);
      await migrate(store.db);
      const learner = learnerFor(config.learnerThreads);
      const meter = { db: store.db, config, now: () => new Date(), learn: learner.learn, parsers: learner.parsers };
      const workers = Array.from(
        { length: Math.max(1, config.workers) },
        () =>
          new Worker(store.db, {
            pollMs: config.pollMs,
            run: (_db, job) => learnMetered(meter, job),
            onIdle: () => releaseAllWaiting(meter),
          }),
      );
      workers.forEach((worker) => worker.start());
      process.stderr.write(`Engram workers running: ${workers.length}\n`);
      onSignals(async () => {
        await Promise.all(workers.map((worker) => worker.stop()));
        await learner.close();
        await store.close();
      });
      return;
    }
    case 'reindex': {
      const config = loadConfig();
      await withStore(async (store) => {
        const learner = learnerFor(config.learnerThreads);
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
      await runImport({ dir: sub, space: values.space, watch: values.watch ?? false });
      return;
    }
    case 'migrate': {
      const applied = await withStore((store) => migrate(store.db));
      process.stdout.write(applied.length ? `Applied migrations: ${applied.join(', ')}\n` : 'Up to date\n');
      return;
    }
    case 'accounts': {
      if (sub === 'list') {
        const accounts = await withStore((store) => listAccounts(store.db));
        for (const account of accounts) process.stdout.write(`${account.id}\t${account.name}\t${account.plan}\t${account.created_at.toISOString()}\n`);
        return;
      }
      if (sub === 'create') {
        const name = rest[0] ?? fail('accounts create needs a NAME');
        const { account, key } = await withStore(async (store) => {
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
      const parsed = PlanSchema.safeParse(plan);
      if (!parsed.success) fail('PLAN is free, pro or max');
      const id = Number(account);
      if (!Number.isInteger(id)) fail('ACCOUNT is an account id');
      if (!(await withStore((store) => setPlan(store.db, id, parsed.data)))) fail(`no account ${id}`);
      process.stdout.write(`Account ${id} is on ${parsed.data}\n`);
      return;
    }
    case 'extra': {
      if (sub !== 'on' && sub !== 'off') fail('usage: engram extra on|off [--cap USD] [--account ID]');
      const cap = values.cap === undefined ? undefined : Number(values.cap);
      if (cap !== undefined && (!Number.isFinite(cap) || cap < 0)) fail('--cap takes an amount in USD, 0 or more');
      if (!(await withStore((store) => setExtra(store.db, accountId, sub === 'on', cap)))) fail(`no account ${accountId}`);
      process.stdout.write(`Extra learning is ${sub} for account ${accountId}${cap === undefined ? '' : ` (cap ${cap} USD a month)`}\n`);
      return;
    }
    case 'usage': {
      const config = loadConfig();
      const usage = await withStore((store) => currentUsage({ db: store.db, config, now: () => new Date() }, accountId));
      process.stdout.write(`${JSON.stringify(usage, null, 2)}\n`);
      return;
    }
    case 'keys': {
      if (sub === 'create') {
        const key = await withStore((store) => createAccountKey(store.db, accountId, { name: values.name ?? null }));
        process.stdout.write(`${key.key}\n`);
        process.stderr.write(`Key ${key.id} for account ${accountId}; it is shown only this once.\n`);
        return;
      }
      if (sub === 'list') {
        const keys = await withStore((store) => listAccountKeys(store.db, accountId));
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
        const revoked = await withStore((store) => revokeAccountKey(store.db, accountId, id));
        if (!revoked) fail(`account ${accountId} has no key ${id}`);
        process.stdout.write(`Revoked key ${id}\n`);
        return;
      }
      return fail('keys takes create, list or revoke');
    }
    default:
      process.stdout.write(`${USAGE}\n`);
      if (command && command !== 'help' && !values.help) process.exit(2);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  fail(error instanceof Error ? error.message : String(error));
});
