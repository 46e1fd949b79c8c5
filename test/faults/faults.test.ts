// Runs the fault matrix for LOAM_TEST_BACKEND and compares it with the blessed table
// test/faults/meta_fault_matrix.<backend>.expected.md. With --bless (LOAM_BLESS=1) it
// rewrites the table instead; the diff is reviewed like code.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { backendFactory, backendName } from '../harness/backends.js';
import { ATTEMPTS, FAULTS, GROUPS, diffCells, renderTable, runCell, type CellResult } from './matrix.js';

const backend = backendName();
/**
 * Partition groups of this many chunks: the multi-group cells commit to 2·N + 1 partitions,
 * which at a backend's default (256 on SQLite and Postgres) made them most of the matrix's
 * time; the group rules are the same at any size.
 */
const MATRIX_CHUNKS_PER_GROUP = 8;
const factory = backendFactory(backend, { maxChunksPerGroup: MATRIX_CHUNKS_PER_GROUP });
const expectedPath = new URL(`./meta_fault_matrix.${backend}.expected.md`, import.meta.url).pathname;
const cells: CellResult[] = [];

describe(`fault matrix: ${backend}`, () => {
  after(() => factory.cleanup());

  for (const g of GROUPS) {
    test(`${g.name}: ${FAULTS.length} faults × ${ATTEMPTS.length} attempts keep the invariants`, async () => {
      for (const a of ATTEMPTS) {
        for (const f of FAULTS) cells.push(await runCell(factory, g, f, a));
      }
      await factory.cleanup();
    });
  }

  test('the outcomes match the blessed table', () => {
    const table = renderTable(backend, cells);
    if (process.env.LOAM_BLESS === '1') {
      writeFileSync(expectedPath, table);
      return;
    }
    assert.ok(existsSync(expectedPath), `no blessed table at ${expectedPath}; run npm run test:faults -- --backend ${backend} --bless`);
    const blessed = readFileSync(expectedPath, 'utf8');
    const moved = diffCells(blessed, cells);
    assert.deepEqual(moved, [], `cells differ from the blessed table:\n${moved.join('\n')}`);
    assert.equal(table, blessed, 'the fault matrix changed: review and re-bless');
  });
});
