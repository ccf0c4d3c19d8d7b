import { defineConfig } from 'vitest/config';

// Suites: pure unit tests; API tests that each open a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL);
// tests that only make sense on a PostgreSQL server; and tests that build a copy of the project.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // Each file boots its own database; two at a time suits a 2-core machine.
          maxWorkers: 2,
        },
      },
      {
        // Needs a PostgreSQL server: `npm run test:pg` starts one and runs this project with the api one.
        test: {
          name: 'postgres',
          include: ['tests/postgres/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 60_000,
          // Runs after the api project, so the shops it starts do not compete with those tests.
          sequence: { groupOrder: 1 },
        },
      },
      {
        // Whole processes: the data folder's lock and checks, and the built server's shutdown (needs dist/).
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 60_000,
          maxWorkers: 1,
        },
      },
      {
        test: {
          name: 'build',
          include: ['tests/build/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
        },
      },
    ],
  },
});
