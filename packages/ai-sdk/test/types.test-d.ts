import type { Engram } from '@engram/client';
import type { LanguageModelMiddleware as Middleware7 } from 'ai';
import { wrapLanguageModel as wrap7 } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelMiddleware as Middleware6 } from 'ai-v6';
import { wrapLanguageModel as wrap6 } from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { expectTypeOf, it } from 'vitest';
import type { EngramMemoryMiddleware } from '../src/index.js';
import { engramMemory } from '../src/index.js';

declare const client: Engram;

it('is a middleware of ai 7 and of ai 6', () => {
  expectTypeOf<EngramMemoryMiddleware>().toExtend<Middleware7>();
  expectTypeOf<EngramMemoryMiddleware>().toExtend<Middleware6>();
  wrap7({ model: new MockLanguageModelV4(), middleware: engramMemory({ client }) });
  wrap6({ model: new MockLanguageModelV3(), middleware: engramMemory({ client }) });
});
