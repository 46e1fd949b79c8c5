// The provider suite (spec §4.4) against memory://, plain and versioned.
import { MemoryStore } from '../../src/store/index.js';
import { defineProviderSuite } from './helpers/suite.js';

defineProviderSuite({
  name: 'memory',
  async open() {
    const store = new MemoryStore();
    // A memory store lives only in its process: a "restarted" one starts empty.
    return { store, reopen: async () => new MemoryStore() };
  },
});

defineProviderSuite({
  name: 'memory (versioning on)',
  async open() {
    const store = new MemoryStore({ versioning: true });
    return { store, reopen: async () => new MemoryStore({ versioning: true }) };
  },
  async openVersioned() {
    return new MemoryStore({ versioning: true });
  },
});
