/** Someone the console names: a user, a customer acting through its key, or the server itself. */
export interface Person {
  id: string;
  name: string;
}
