// The present202501 gift campaign rules live in src/shared/present.ts, shared with the gift form.
export * from '../../src/shared/present';
