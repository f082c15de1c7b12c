// The web test files that mock a module, each in a module graph of its own (see MOCKING_TESTS).
import { configDefaults } from 'vitest/config';
import web, { MOCKING_TESTS } from './vite.config.ts';

export default {
  ...web,
  test: {
    ...web.test,
    name: 'web-mocks',
    include: MOCKING_TESTS,
    exclude: configDefaults.exclude,
    isolate: true,
  },
};
