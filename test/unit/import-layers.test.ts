import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import { ROOT } from '../support/process.ts';

const eslint = new ESLint({ cwd: ROOT });

/** The import-direction messages ESLint reports for one import line placed in a file at `file`. */
async function restricted(file: string, specifier: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${specifier}';\nexport const y = x;\n`, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the lint config enforces the direction of imports', () => {
  const refused: Array<[string, string]> = [
    ['src/api/restli/x.ts', '../../storage/sqlite/sqlite-store.ts'],
    ['src/api/x.ts', '../storage/open-store.ts'],
    ['src/api/graphql/x.ts', '../restli/params.ts'],
    ['src/api/restli/x.ts', '../graphql/schema.ts'],
    ['src/tasks/x.ts', '../storage/partitions.ts'],
    ['src/tasks/x.ts', '../storage/postgres/tasks.ts'],
    ['src/catalog/x.ts', '../api/errors.ts'],
    ['src/auth/x.ts', '../storage/sqlite/identity.ts'],
    ['src/storage/sqlite/x.ts', '../../catalog/catalog.ts'],
  ];
  for (const [file, specifier] of refused) {
    it(`refuses ${specifier} in ${file}`, async () => {
      assert.equal((await restricted(file, specifier)).length, 1);
    });
  }

  const allowed: Array<[string, string]> = [
    ['src/api/x.ts', '../storage/store.ts'],
    ['src/api/openapi/x.ts', '../restli/params.ts'],
    ['src/tasks/x.ts', '../storage/ports/truncation.ts'],
    ['src/tasks/x.ts', '../storage/store-error.ts'],
    ['src/storage/open-store.ts', '../catalog/relationships/aspect-indexer.ts'],
    ['src/app.ts', './storage/open-store.ts'],
  ];
  for (const [file, specifier] of allowed) {
    it(`allows ${specifier} in ${file}`, async () => {
      assert.deepEqual(await restricted(file, specifier), []);
    });
  }
});
