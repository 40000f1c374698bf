/** Who a console request is from, once its token is checked (auth.ts): an account's person with a role, or one customer of it. */
import type { CustomerView, Role } from '@ops-console/contract/access';
import type { Person } from '@ops-console/contract/request-event';

export interface Principal {
  accountId: string;
  user: Person;
  role: Role;
  /** Set for a customer-scoped token: the one customer it sees, and the views it may read (all without `views`). */
  customer?: { id: string; views?: readonly CustomerView[] } | undefined;
}
