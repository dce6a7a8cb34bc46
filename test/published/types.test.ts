// A user's TypeScript project imports every public export of every package, from ESM (.mts)
// and, for packages that support it, from CommonJS (.cts), and type-checks with the published
// declarations (skipLibCheck off, so errors inside them count too).
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { published, runScript } from './helpers.js';

const run = promisify(execFile);
const { dir, packages } = published();

/**
 * The names each package exports, as its published types declare them (values apart from
 * types), read with the installed TypeScript in one program for all packages.
 */
async function exportsOf(names: string[], extension: 'mts' | 'cts'): Promise<Record<string, { values: string[]; types: string[] }>> {
  const probe = join(dir, `probe.${extension}`);
  writeFileSync(probe, names.map((name, index) => `import * as probe${index} from '${name}';\nexport { probe${index} };\n`).join(''));
  return runScript(
    'mjs',
    `
    import ts from 'typescript';
    const program = ts.createProgram([${JSON.stringify(probe)}], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, noEmit: true, skipLibCheck: true });
    const checker = program.getTypeChecker();
    const file = program.getSourceFile(${JSON.stringify(probe)});
    const names = ${JSON.stringify(names)};
    const found = {};
    file.statements.filter(ts.isImportDeclaration).forEach((statement, index) => {
      const values = [], types = [];
      for (const symbol of checker.getExportsOfModule(checker.getSymbolAtLocation(statement.moduleSpecifier))) {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        (target.flags & ts.SymbolFlags.Value ? values : types).push(symbol.name);
      }
      found[names[index]] = { values: values.sort(), types: types.sort() };
    });
    console.log(JSON.stringify(found));
  `,
  );
}

/** One file importing every export of every package, each name renamed so none collide. */
async function everyExport(extension: 'mts' | 'cts'): Promise<{ source: string; count: number }> {
  const names = packages.filter((candidate) => extension === 'mts' || candidate.cjs).map((pkg) => pkg.name);
  const found = await exportsOf(names, extension);
  const lines: string[] = [];
  const used: string[] = [];
  let count = 0;
  for (const name of names) {
    const prefix = name.replace(/\W/g, '_');
    const { values, types } = found[name] ?? { values: [], types: [] };
    expect(values.length + types.length, `${name} declares no exports`).toBeGreaterThan(0);
    const imported = [
      ...values.map((value) => `${value} as ${prefix}_${value}`),
      ...types.map((type) => `type ${type} as ${prefix}_${type}`),
    ];
    lines.push(`import { ${imported.join(', ')} } from '${name}';`);
    used.push(...values.map((value) => `${prefix}_${value}`));
    count += values.length + types.length;
  }
  lines.push(`export const everyValue = [${used.join(', ')}];`);
  return { source: `${lines.join('\n')}\n`, count };
}

describe('the published types', () => {
  it('type-check a file that imports every public export, from ESM and from CommonJS', { timeout: 600_000 }, async () => {
    const esm = await everyExport('mts');
    const cjs = await everyExport('cts');
    writeFileSync(join(dir, 'every-export.mts'), esm.source);
    writeFileSync(join(dir, 'every-export.cts'), cjs.source);
    // One project per module system, as users have: @engram/express augments Express's Request
    // in both its .d.ts and .d.cts, and a project that loaded both would see it declared twice.
    const errors: string[] = [];
    for (const file of ['every-export.mts', 'every-export.cts']) {
      const config = `tsconfig.${file}.json`;
      writeFileSync(
        join(dir, config),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            types: ['node'],
            lib: ['ES2023', 'DOM'],
          },
          files: [file],
        }),
      );
      const output = await run('npx', ['--no-install', 'tsc', '-p', config], { cwd: dir, timeout: 270_000 }).then(
        () => '',
        (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
      );
      // Errors in our declarations or in the importing file count; third-party declarations that
      // need types a user would add (such as @types/json-schema for @ai-sdk/provider) do not.
      errors.push(...output.split('\n').filter((line) => /^(node_modules\/@engram\/|every-export\.)/.test(line)));
    }
    expect(errors).toEqual([]);
    expect(esm.count).toBeGreaterThan(50);
    expect(cjs.count).toBeGreaterThan(0);
  });
});
