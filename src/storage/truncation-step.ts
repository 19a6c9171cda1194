import type { TruncationStep } from './store.ts';

/** A step that removed rows or partitions: only such a step counts as one of its task's batches. */
export const changedSomething = (step: TruncationStep): boolean => step.rows > 0 || step.partitionsDropped > 0;
