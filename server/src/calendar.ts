/** The calendar lives with the contract, so the mocks bucket time exactly as the server does. */
export * from '@ops-console/contract/calendar';
