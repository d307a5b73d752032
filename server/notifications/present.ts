// The present202501 gift campaign rules live in shared/present.ts, shared with the gift form.
export * from '../../shared/present';
