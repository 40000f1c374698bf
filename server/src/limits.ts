/** The ingest API's limits live in the contract, which collectors of every language read; here for the server's own imports. */
export * from '@ops-console/contract/ingest-limits';
