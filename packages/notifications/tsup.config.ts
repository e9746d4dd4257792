import { nodePackage } from '@org/dev-kit/tsup';
import { defineConfig } from 'tsup';

export default defineConfig(
  nodePackage({
    // `contract` is the runtime contract shared with clients (the bell, chat-notifier): it imports
    // nothing outside src/contract*, so a client's bundle gets only it (src/contract/self-contained.test.ts).
    entry: { index: 'src/index.ts', contract: 'src/contract.ts', testing: 'src/testing/index.ts' },
  }),
);
