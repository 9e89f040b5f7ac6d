/** The charge as people read it: shared with the CLI (balcao fila). */
export * from '@shared/charge-text';
